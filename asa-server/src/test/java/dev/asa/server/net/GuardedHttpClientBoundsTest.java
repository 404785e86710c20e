package dev.asa.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the guarded client adds around Jetty: the cap stops reading, the connect deadline covers the
 * TLS handshake, allowed and checked requests never share a pooled connection, and nothing of one
 * answer (cookies) or of Jetty's defaults (compression) leaks into the next request.
 */
class GuardedHttpClientBoundsTest {
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : toClose.reversed()) {
      c.close();
    }
  }

  private GuardedHttpClient allowing(String prefix) {
    GuardedHttpClient client = new GuardedHttpClient(new FetchPolicy(List.of(prefix)));
    toClose.add(client);
    return client;
  }

  private ServerSocket listen() throws IOException {
    ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    toClose.add(server);
    return server;
  }

  @Test
  void aBodyOverTheCapIsAbandonedUnreadAndItsConnectionClosed() throws Exception {
    long offered = 1L << 30; // 1 GiB announced, written as fast as the client takes it
    ServerSocket server = listen();
    AtomicLong written = new AtomicLong();
    CountDownLatch hungUp = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(() -> {
          try (Socket s = server.accept();
              OutputStream out = s.getOutputStream()) {
            readHead(
                s.getInputStream()); // an answer before the request would be unsolicited: Jetty
            // hangs up
            out.write(
                ("HTTP/1.1 200 OK\r\nContent-Length: " + offered + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] block = new byte[64 * 1024];
            while (written.get() < offered) {
              out.write(block);
              written.addAndGet(block.length);
            }
          } catch (IOException expected) {
            hungUp.countDown(); // the client closed the connection: writing fails
          }
        });
    String url = "http://127.0.0.1:" + server.getLocalPort() + "/";
    long start = System.nanoTime();
    OutboundResponse response =
        allowing(url)
            .send(
                OutboundRequest.get(URI.create(url), Map.of()),
                new FetchLimits(Duration.ofSeconds(2), Duration.ofSeconds(20), 100_000));
    assertThat(response.truncated()).isTrue();
    assertThat(response.body()).hasSize(100_000);
    assertThat(hungUp.await(5, TimeUnit.SECONDS))
        .as("the server saw the connection closed")
        .isTrue();
    // Well inside the 20 s read deadline (bounds that tell "cut at the cap" from "read to the end"
    // with room for a loaded machine; how fast it is, is a benchmark's business).
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    // What the server got out before the close is the cap plus socket buffers, not the body.
    assertThat(written.get()).isLessThan(64L << 20);
  }

  @Test
  void theConnectDeadlineCoversATlsHandshakeThatNeverEnds() throws Exception {
    ServerSocket silent = listen(); // the kernel accepts the TCP connection; nobody ever answers
    String url = "https://127.0.0.1:" + silent.getLocalPort() + "/";
    GuardedHttpClient client = allowing(url);
    long start = System.nanoTime();
    assertThatThrownBy(() ->
            client.send(
                OutboundRequest.get(URI.create(url), Map.of()),
                new FetchLimits(Duration.ofMillis(300), Duration.ofSeconds(10), 1024)))
        .isInstanceOf(OutboundTimeoutException.class)
        .hasMessageContaining("connecting");
    // The connect deadline stopped it, not the 10 s read deadline behind it.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
  }

  @Test
  void aConnectionPooledForAnAllowedPrefixCarriesNothingOutsideIt() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    int port = serve(heard, Map.of());
    GuardedHttpClient client = allowing("http://127.0.0.1:" + port + "/allowed/");
    OutboundResponse ok =
        client.send(
            OutboundRequest.get(URI.create("http://127.0.0.1:" + port + "/allowed/a"), Map.of()),
            limits());
    assertThat(ok.status()).isEqualTo(200);
    // Same scheme, host and port, so Jetty would reuse the kept-alive connection if it could.
    assertThatThrownBy(() ->
            client.send(
                OutboundRequest.get(URI.create("http://127.0.0.1:" + port + "/secret"), Map.of()),
                limits()))
        .isInstanceOf(DestinationRefusedException.class);
    assertThat(heard).hasSize(1);
  }

  @Test
  void cookiesAreNotKeptAndNoCompressionIsAskedFor() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    int port = serve(heard, Map.of("Set-Cookie", "session=secret; Path=/"));
    GuardedHttpClient client = allowing("http://127.0.0.1:" + port + "/");
    for (int i = 0; i < 2; i++) {
      client.send(
          OutboundRequest.post(
              URI.create("http://127.0.0.1:" + port + "/hook"),
              Map.of("Content-Type", "application/json"),
              "{}".getBytes(StandardCharsets.UTF_8)),
          limits());
    }
    assertThat(heard)
        .containsExactly(
            "POST Cookie=null Accept-Encoding=null User-Agent=asa-server Content-Type=application/json body={}",
            "POST Cookie=null Accept-Encoding=null User-Agent=asa-server Content-Type=application/json body={}");
  }

  @Test
  void aClosedClientSendsNothing() {
    GuardedHttpClient client = allowing("http://127.0.0.1:9/");
    client.close();
    assertThatThrownBy(() ->
            client.send(OutboundRequest.get(URI.create("http://127.0.0.1:9/"), Map.of()), limits()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("closed");
  }

  /** Reads up to the blank line that ends a request's head. */
  static void readHead(InputStream in) throws IOException {
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        return;
      }
      matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
    }
  }

  private static FetchLimits limits() {
    return new FetchLimits(Duration.ofSeconds(2), Duration.ofSeconds(5), 1024);
  }

  /** A keep-alive server that notes the headers that matter here and answers with {@code extra}. */
  private int serve(List<String> heard, Map<String, String> extra) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    server.createContext(
        "/",
        exchange -> {
          String body;
          try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          }
          var h = exchange.getRequestHeaders();
          heard.add(
              exchange.getRequestMethod()
                  + " Cookie="
                  + h.getFirst("Cookie")
                  + " Accept-Encoding="
                  + h.getFirst("Accept-Encoding")
                  + " User-Agent="
                  + h.getFirst("User-Agent")
                  + " Content-Type="
                  + h.getFirst("Content-Type")
                  + " body="
                  + body);
          extra.forEach(exchange.getResponseHeaders()::set);
          byte[] answer = "ok".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    server.start();
    toClose.add(() -> server.stop(0));
    return server.getAddress().getPort();
  }
}
