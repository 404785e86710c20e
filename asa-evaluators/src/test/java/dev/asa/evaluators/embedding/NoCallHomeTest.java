package dev.asa.evaluators.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketImpl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Loading the offline model and embedding a text opens no connection at all.
 *
 * <p>The tokenizer library calls home once per process (and then once a day), so the check runs in
 * a fresh JVM: in this one another test may already have loaded the model. The library connects
 * through {@code HttpURLConnection} with no proxy, so asking the proxy selector would see nothing;
 * the probe replaces the sockets themselves, and its sockets refuse and report every connection.
 */
class NoCallHomeTest {

  @Test
  void aFreshProcessLoadsTheModelWithoutAnyConnection() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process probe =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Probe.class.getName())
            .redirectErrorStream(true)
            .start();
    boolean ended = probe.waitFor(2, TimeUnit.MINUTES);
    String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!ended) {
      probe.destroyForcibly();
    }
    assertThat(ended).as("the probe ended; it printed:%n%s", out).isTrue();
    assertThat(probe.exitValue()).as("the probe's exit status; it printed:%n%s", out).isZero();
    assertThat(out).contains("embedded 384").doesNotContain("connection to ");
  }

  /** Refuses and reports every socket connection, loads the model, embeds one text. */
  static final class Probe {
    @SuppressWarnings("deprecation") // the one hook that sees a socket opened with Proxy.NO_PROXY
    public static void main(String[] args) throws IOException {
      Socket.setSocketImplFactory(RefusingSocket::new);
      Model.Vectors vectors = Model.embed(List.of("a text to embed"));
      System.out.println("embedded " + vectors.get(0).length);
    }
  }

  /** A socket that prints where it was asked to connect, then refuses. */
  private static final class RefusingSocket extends SocketImpl {
    private static IOException refuse(Object where) {
      System.out.println("connection to " + where);
      return new ConnectException("no connections in this probe: " + where);
    }

    @Override
    protected void create(boolean stream) {}

    @Override
    protected void connect(String host, int port) throws IOException {
      throw refuse(host + ":" + port);
    }

    @Override
    protected void connect(InetAddress address, int port) throws IOException {
      throw refuse(address + ":" + port);
    }

    @Override
    protected void connect(SocketAddress address, int timeout) throws IOException {
      throw refuse(address);
    }

    @Override
    protected void bind(InetAddress host, int port) throws IOException {
      throw refuse("bind " + host + ":" + port);
    }

    @Override
    protected void listen(int backlog) throws IOException {
      throw refuse("listen");
    }

    @Override
    protected void accept(SocketImpl s) throws IOException {
      throw refuse("accept");
    }

    @Override
    protected InputStream getInputStream() throws IOException {
      throw refuse("input");
    }

    @Override
    protected OutputStream getOutputStream() throws IOException {
      throw refuse("output");
    }

    @Override
    protected int available() {
      return 0;
    }

    @Override
    protected void close() {}

    @Override
    protected void sendUrgentData(int data) throws IOException {
      throw refuse("urgent data");
    }

    @Override
    public void setOption(int optID, Object value) {}

    @Override
    public Object getOption(int optID) {
      return null;
    }
  }
}
