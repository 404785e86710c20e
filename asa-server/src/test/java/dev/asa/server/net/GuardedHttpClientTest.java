package dev.asa.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GuardedHttpClientTest {
  private static final FetchLimits LIMITS =
      new FetchLimits(Duration.ofSeconds(2), Duration.ofSeconds(5), 1024);
  private static final SSLContext TLS = defaultTls();

  private HttpServer local;
  private final List<String> heard = new CopyOnWriteArrayList<>();
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    local = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    local.createContext(
        "/",
        exchange -> {
          heard.add(
              exchange.getRequestMethod()
                  + " "
                  + exchange.getRequestURI()
                  + " Host="
                  + exchange.getRequestHeaders().getFirst("Host"));
          exchange.getRequestBody().readAllBytes();
          String path = exchange.getRequestURI().getPath();
          if (path.equals("/redirect")) {
            exchange.getResponseHeaders().set("Location", exchange.getRequestURI().getQuery());
            exchange.sendResponseHeaders(302, -1);
          } else if (path.equals("/big")) {
            exchange.sendResponseHeaders(200, 0); // chunked
            try (OutputStream out = exchange.getResponseBody()) {
              for (int i = 0; i < 10_000; i++) {
                out.write("0123456789".repeat(100).getBytes(StandardCharsets.US_ASCII));
              }
            } catch (IOException expected) {
              // the client stopped reading at its cap
            }
          } else {
            byte[] body = ("hello " + path).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, path.equals("/chunked") ? 0 : body.length);
            exchange.getResponseBody().write(body);
          }
          exchange.close();
        });
    local.start();
    toClose.add(() -> local.stop(0));
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : toClose.reversed()) {
      c.close();
    }
  }

  /** Closed after the test, as the server closes its client. */
  private GuardedHttpClient track(GuardedHttpClient client) {
    toClose.add(client);
    return client;
  }

  private static SSLContext defaultTls() {
    try {
      return SSLContext.getDefault();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private int port() {
    return local.getAddress().getPort();
  }

  /** A resolver that answers from a table and counts its lookups. */
  private static final class Table implements GuardedHttpClient.HostResolver {
    final Map<String, List<String>> answers;
    final AtomicInteger lookups = new AtomicInteger();

    Table(Map<String, List<String>> answers) {
      this.answers = answers;
    }

    @Override
    public List<InetAddress> resolve(String host) throws UnknownHostException {
      lookups.incrementAndGet();
      List<InetAddress> out = new ArrayList<>();
      for (String a : answers.getOrDefault(host, List.of())) {
        out.add(InetAddress.getByName(a));
      }
      return out;
    }
  }

  private static OutboundResponse get(GuardedHttpClient client, String url) throws IOException {
    return client.send(OutboundRequest.get(URI.create(url), Map.of()), LIMITS);
  }

  @Test
  void aNameThatResolvesToLoopbackIsRefusedBeforeAnythingIsSent() {
    Table dns =
        new Table(
            Map.of(
                "innocent.example",
                List.of("127.0.0.1"),
                "mixed.example",
                List.of("93.184.216.34", "10.0.0.7")));
    GuardedHttpClient client = track(new GuardedHttpClient(FetchPolicy.DEFAULTS, dns, TLS));
    assertThatThrownBy(() -> get(client, "http://innocent.example:" + port() + "/secret"))
        .isInstanceOf(DestinationRefusedException.class)
        .hasMessageContaining("loopback");
    // One internal address among public ones refuses the host: the connection could go to either.
    assertThatThrownBy(() -> get(client, "http://mixed.example:" + port() + "/secret"))
        .isInstanceOf(DestinationRefusedException.class)
        .hasMessageContaining("10.0.0.7")
        .hasMessageContaining("private");
    assertThat(heard).isEmpty();
  }

  @Test
  void literalsAndLoopbackNamesAreRefusedWithoutTheResolverTellingOtherwise() {
    Table dns =
        new Table(
            Map.of(
                "localhost", List.of("93.184.216.34"), "sub.localhost", List.of("93.184.216.34")));
    GuardedHttpClient client = track(new GuardedHttpClient(FetchPolicy.DEFAULTS, dns, TLS));
    for (String host : List.of("localhost", "LOCALHOST.", "sub.localhost")) {
      assertThatThrownBy(() -> get(client, "http://" + host + ":" + port() + "/"))
          .as(host)
          .isInstanceOf(DestinationRefusedException.class)
          .hasMessageContaining("loopback name");
    }
    GuardedHttpClient system = track(new GuardedHttpClient(FetchPolicy.DEFAULTS));
    for (String host :
        List.of(
            "127.0.0.1",
            "2130706433",
            "0.0.0.0",
            "[::1]",
            "[::ffff:127.0.0.1]",
            "[::ffff:7f00:1]",
            "169.254.169.254",
            "[fe80::1]",
            "10.1.2.3",
            "192.168.0.10",
            "172.16.5.4",
            "100.64.1.1",
            "[64:ff9b::7f00:1]")) {
      assertThatThrownBy(() -> get(system, "http://" + host + ":" + port() + "/"))
          .as(host)
          .isInstanceOf(DestinationRefusedException.class);
    }
    assertThat(heard).isEmpty();
  }

  @Test
  void formsTheUrlParserDoesNotTakeAsAHostAreRefusedWhenTheRequestIsBuilt() {
    // java.net.URI reads 127.1 and 0x7f.1 as a registry authority without a host: never sent.
    for (String url :
        List.of(
            "http://127.1:" + port() + "/",
            "http://0x7f.1:" + port() + "/",
            "file:///etc/passwd",
            "ftp://127.0.0.1/",
            "gopher://127.0.0.1:25/",
            "jar:http://x/y!/z",
            "//127.0.0.1/")) {
      assertThatThrownBy(() -> OutboundRequest.get(URI.create(url), Map.of()))
          .as(url)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void theHostIsLookedUpOnceAndTheHostHeaderIsTheName() throws IOException {
    // An allowed internal name: the lookup result is what is connected to; a second lookup (the
    // one DNS rebinding needs) would find nothing here and fail the request.
    Table dns = new Table(Map.of("store.internal", List.of("127.0.0.1")));
    GuardedHttpClient client =
        track(
            new GuardedHttpClient(
                new FetchPolicy(List.of("http://store.internal:" + port() + "/")), dns, TLS));
    OutboundResponse response = get(client, "http://store.internal:" + port() + "/report.md?v=1");
    assertThat(response.status()).isEqualTo(200);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("hello /report.md");
    assertThat(dns.lookups).hasValue(1);
    assertThat(heard).containsExactly("GET /report.md?v=1 Host=store.internal:" + port());
  }

  @Test
  void redirectsAreAnswersNotFollowed() throws IOException {
    GuardedHttpClient client =
        track(
            new GuardedHttpClient(
                new FetchPolicy(List.of("http://127.0.0.1:" + port() + "/redirect"))));
    OutboundResponse response =
        get(
            client,
            "http://127.0.0.1:" + port() + "/redirect?http://127.0.0.1:" + port() + "/secret");
    assertThat(response.status()).isEqualTo(302);
    assertThat(heard).hasSize(1).allMatch(line -> line.startsWith("GET /redirect"));
  }

  @Test
  void answersAreReadInEveryFramingAndCutAtTheCap() throws IOException {
    GuardedHttpClient client =
        track(new GuardedHttpClient(new FetchPolicy(List.of("http://127.0.0.1:" + port() + "/"))));
    OutboundResponse chunked = get(client, "http://127.0.0.1:" + port() + "/chunked");
    assertThat(new String(chunked.body(), StandardCharsets.UTF_8)).isEqualTo("hello /chunked");
    assertThat(chunked.truncated()).isFalse();

    long start = System.nanoTime();
    OutboundResponse big = get(client, "http://127.0.0.1:" + port() + "/big"); // 10 MB offered
    assertThat(big.body()).hasSize(1024);
    assertThat(big.truncated()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("cut at the cap, not read to the end")
        .isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aServerTricklingBytesIsCutOffAtTheDeadline() throws Exception {
    ServerSocket slow = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    toClose.add(slow);
    Thread.ofVirtual()
        .start(() -> {
          try (Socket s = slow.accept();
              OutputStream out = s.getOutputStream();
              InputStream in = s.getInputStream()) {
            GuardedHttpClientBoundsTest.readHead(
                in); // answer the request, not before it (that is unsolicited)
            out.write(
                "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 100_000; i++) {
              out.write('x');
              out.flush();
              Thread.sleep(100); // each byte comes well within any read timeout
            }
          } catch (Exception expected) {
            // the client hung up
          }
        });
    GuardedHttpClient client =
        track(
            new GuardedHttpClient(
                new FetchPolicy(List.of("http://127.0.0.1:" + slow.getLocalPort() + "/"))));
    long start = System.nanoTime();
    assertThatThrownBy(() ->
            client.send(
                OutboundRequest.get(
                    URI.create("http://127.0.0.1:" + slow.getLocalPort() + "/"), Map.of()),
                new FetchLimits(Duration.ofSeconds(1), Duration.ofMillis(700), 1 << 20)))
        .isInstanceOf(OutboundTimeoutException.class);
    // The trickle would take 10,000 s: any bound far below it tells "stopped" from "ran on".
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void tlsChecksTheCertificateAgainstTheUrlsHostNotTheAddress(@TempDir Path dir) throws Exception {
    // A certificate for good.test only; both names resolve to the same loopback server.
    Path store = dir.resolve("tls.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "tls",
                "-keyalg",
                "EC",
                "-dname",
                "CN=good.test",
                "-ext",
                "SAN=dns:good.test",
                "-validity",
                "2",
                "-keystore",
                store.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue())
        .as(new String(keytool.getInputStream().readAllBytes()))
        .isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, "changeit".toCharArray());
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(keys);
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(kmf.getKeyManagers(), null, null);
    SSLContext clientTls = SSLContext.getInstance("TLS");
    clientTls.init(null, tmf.getTrustManagers(), null);

    HttpsServer https =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    https.setHttpsConfigurator(new HttpsConfigurator(serverTls));
    https.createContext(
        "/",
        exchange -> {
          byte[] body = "secure".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    https.start();
    toClose.add(() -> https.stop(0));
    int port = https.getAddress().getPort();

    Table dns =
        new Table(Map.of("good.test", List.of("127.0.0.1"), "evil.test", List.of("127.0.0.1")));
    GuardedHttpClient client =
        track(
            new GuardedHttpClient(
                new FetchPolicy(
                    List.of("https://good.test:" + port + "/", "https://evil.test:" + port + "/")),
                dns,
                clientTls));
    OutboundResponse ok = get(client, "https://good.test:" + port + "/");
    assertThat(new String(ok.body(), StandardCharsets.UTF_8)).isEqualTo("secure");
    assertThatThrownBy(() -> get(client, "https://evil.test:" + port + "/"))
        .isInstanceOf(SSLHandshakeException.class)
        .hasMessageContaining("evil.test"); // the name, not the trust, is what fails
  }
}
