package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketImpl;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 60, item 3: a fresh server process, from its start through its first semantic verification
 * with the offline model, opens no connection nobody configured, and keeps answering writes
 * meanwhile. Runs in a fresh JVM (in this one another test may have loaded the model already),
 * whose {@code java.net.Socket}s refuse and report every connection: the tokenizer library's
 * telemetry went through {@code HttpURLConnection}, which they catch. The server itself listens and
 * the test client talks through NIO channels, which they leave alone.
 */
class FirstVerificationTest {

  /** The write latency the issue asks for while the first semantic verification runs. */
  private static final long WRITE_BOUND_MS = 500;

  @Test
  void aFreshServerCallsNobodyAndKeepsWritingThroughItsFirstSemanticVerification()
      throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process probe =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Probe.class.getName())
            .redirectErrorStream(true)
            .start();
    StringBuilder said = new StringBuilder();
    Thread reader =
        Thread.ofVirtual()
            .start(() -> {
              try (InputStream in = probe.getInputStream()) {
                said.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException ignored) {
                // the process ended
              }
            });
    boolean ended = probe.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      probe.destroyForcibly();
    }
    reader.join(10_000);
    String out = said.toString();
    assertThat(ended).as("the probe ended; it printed:%n%s", out).isTrue();
    assertThat(probe.exitValue()).as("the probe's exit status; it printed:%n%s", out).isZero();
    assertThat(out).as("connections nobody configured").doesNotContain("connection to ");
    Matcher m = Pattern.compile("slowest write (\\d+) ms").matcher(out);
    assertThat(m.find()).as("the probe measured writes; it printed:%n%s", out).isTrue();
    assertThat(Long.parseLong(m.group(1)))
        .as("the slowest write during the first semantic verification, ms")
        .isLessThan(WRITE_BOUND_MS);
    System.out.println(
        out.lines().filter(l -> l.startsWith("first verification:")).findFirst().orElse(out));
  }

  /**
   * Starts a server with the default evaluators, waits for {@code /ready}, then writes agreements
   * one after another while the first semantic verification runs, and prints the slowest write.
   */
  static final class Probe {
    @SuppressWarnings("deprecation") // the one hook that sees a socket opened with Proxy.NO_PROXY
    public static void main(String[] args) throws Exception {
      Socket.setSocketImplFactory(RefusingSocket::new);
      Path data = Files.createTempDirectory("asa-first-verification");
      long start = System.nanoTime();
      try (AsaServer server =
          AsaServer.start(
              ServerConfig.defaults()
                  .withPort(0)
                  .withDataDir(data)
                  .withOperatorKey(Fixtures.key("operator").publicKey())
                  .withRateLimit(100_000, 100_000)
                  // What asa serve runs without a judge: the offline model (and code checks).
                  .withVerification(VerificationConfig.standard(null, 2)))) {
        URI base = URI.create(server.url("127.0.0.1"));
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest ready = HttpRequest.newBuilder(base.resolve("/ready")).build();
        while (http.send(ready, HttpResponse.BodyHandlers.ofString()).statusCode() != 200) {
          Thread.sleep(20);
        }
        long readyMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        AsaClient alice = AsaClient.connect(base).withKey(Fixtures.key("alice"));
        alice.createAgreement(Fixtures.general()); // the first write warms the write path

        AtomicBoolean verifying = new AtomicBoolean(true);
        AtomicLong slowest = new AtomicLong();
        AtomicInteger writes = new AtomicInteger();
        Thread writer =
            Thread.ofPlatform()
                .start(() -> {
                  while (verifying.get()) {
                    long t = System.nanoTime();
                    alice.createAgreement(Fixtures.general());
                    long ms = Duration.ofNanos(System.nanoTime() - t).toMillis();
                    slowest.accumulateAndGet(ms, Math::max);
                    writes.incrementAndGet();
                  }
                });
        long verifyStart = System.nanoTime();
        ObjectNode request = Json.object();
        request
            .putObject("deliverable")
            .put(
                "content",
                "# Battery recycling\n\nHydrometallurgical recycling recovers lithium, cobalt and"
                    + " nickel from spent cells; direct recycling keeps the cathode structure.\n")
            .put("format", "markdown")
            .put("type", "general");
        request
            .putObject("original_request")
            .put("description", "Summarise how lithium-ion batteries are recycled");
        request.putObject("verification_config").put("depth", "semantic");
        String id = alice.requestVerification(request).path("verification_id").asText();
        JsonNode result = alice.awaitVerification(id, Duration.ofMinutes(2), progress -> {});
        long verifyMs = Duration.ofNanos(System.nanoTime() - verifyStart).toMillis();
        verifying.set(false);
        writer.join();
        System.out.println(
            "first verification: ready after "
                + readyMs
                + " ms; verified by "
                + result.path("evaluator").path("type").asText()
                + " in "
                + verifyMs
                + " ms; "
                + writes.get()
                + " writes meanwhile, slowest write "
                + slowest.get()
                + " ms");
      }
      System.exit(0);
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
