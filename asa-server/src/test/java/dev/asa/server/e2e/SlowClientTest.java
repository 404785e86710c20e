package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.http.ReadDeadlines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slow clients cannot hold connections: the request head and the body each have a deadline
 * (shortened here to 1 s and 2 s), and an upload that stops half-way is logged in one line.
 */
class SlowClientTest {
  static final Duration HEAD = Duration.ofSeconds(1);
  static final Duration BODY = Duration.ofSeconds(2);

  @TempDir Path dataDir;
  AsaServer server;
  final PrintStream originalErr = System.err;
  final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults().withPort(0).withDataDir(dataDir),
            new ReadDeadlines(HEAD, BODY));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void stop() {
    System.setErr(originalErr);
    server.close();
    System.err.print(
        err.toString(StandardCharsets.UTF_8)); // what the server logged, for a failing test
  }

  @Test
  void halfARequestLineThenSilenceIsDisconnectedAtTheHeadDeadline() throws Exception {
    try (Socket socket = connect()) {
      long start = System.nanoTime();
      socket.getOutputStream().write("GET /hea".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      readUntilClosed(socket.getInputStream());
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took)
          .isGreaterThanOrEqualTo(HEAD.minusMillis(100))
          .isLessThan(HEAD.plusSeconds(2));
    }
  }

  /**
   * One byte every 300 ms is never idle for long, but the head still has to be complete in time.
   */
  @Test
  void aHeadTrickledByteByByteIsDisconnectedAtTheHeadDeadline() throws Exception {
    byte[] head =
        ("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "a".repeat(100) + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    try (Socket socket = connect()) {
      long start = System.nanoTime();
      OutputStream out = socket.getOutputStream();
      boolean cut = false;
      for (byte b : head) {
        try {
          out.write(b);
          out.flush();
        } catch (SocketException e) {
          cut = true;
          break;
        }
        Thread.sleep(300);
        if (Duration.ofNanos(System.nanoTime() - start).compareTo(HEAD.plusSeconds(3)) > 0) {
          break;
        }
      }
      if (!cut) {
        readUntilClosed(socket.getInputStream());
      }
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took).isLessThan(HEAD.plusSeconds(3));
    }
  }

  @Test
  void aKeptAliveConnectionGetsANewHeadDeadlineAfterEachResponse() throws Exception {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      for (int i = 0; i < 3; i++) {
        Thread.sleep(HEAD.toMillis() / 2);
        out.write(
            "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertThat(readResponseHead(in)).startsWith("HTTP/1.1 200");
      }
    }
  }

  @Test
  void anUploadAbortedHalfWayIsLoggedInOneLine() throws Exception {
    try (Socket socket = connect()) {
      socket.getOutputStream().write(uploadHead(100_000));
      socket.getOutputStream().write("{\"client\":".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      Thread.sleep(200);
    } // closed half-way
    List<String> lines = logLinesWhenPresent("aborted upload");
    assertThat(lines)
        .filteredOn(l -> l.contains("aborted upload"))
        .singleElement()
        .asString()
        .contains("POST /agreements")
        .contains("127.0.0.1")
        .contains("Content-Length 100000")
        .contains("the connection ended before the body was complete");
    assertThat(lines)
        .as("no stack trace")
        .noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception:"));
  }

  @Test
  void aBodyThatStopsIsCutOffByTheIdleTimeout() throws Exception {
    try (Socket socket = connect()) {
      long start = System.nanoTime();
      socket.getOutputStream().write(uploadHead(100_000));
      socket.getOutputStream().write("{\"client\":".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      readUntilClosed(socket.getInputStream());
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(HEAD.plusSeconds(2));
    }
    List<String> lines = logLinesWhenPresent("aborted upload");
    assertThat(lines)
        .filteredOn(l -> l.contains("aborted upload"))
        .singleElement()
        .asString()
        .contains("Idle timeout");
    assertThat(lines)
        .as("no stack trace")
        .noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception:"));
  }

  /**
   * A body trickled a byte every 300 ms is never idle for 1 s, but must still arrive within 2 s.
   */
  @Test
  void aTrickledBodyIsCutOffAtTheBodyDeadlineAndLoggedInOneLine() throws Exception {
    try (Socket socket = connect()) {
      long start = System.nanoTime();
      OutputStream out = socket.getOutputStream();
      out.write(uploadHead(100_000));
      out.flush();
      try {
        while (Duration.ofNanos(System.nanoTime() - start).compareTo(BODY.plusSeconds(3)) < 0) {
          out.write(' ');
          out.flush();
          Thread.sleep(300);
        }
      } catch (SocketException closedByServer) {
        // expected
      }
      readUntilClosed(socket.getInputStream());
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took)
          .isGreaterThanOrEqualTo(BODY.minusMillis(100))
          .isLessThan(BODY.plusSeconds(2));
    }
    List<String> lines = logLinesWhenPresent("aborted upload");
    assertThat(lines)
        .filteredOn(l -> l.contains("aborted upload"))
        .singleElement()
        .asString()
        .contains("the request body did not arrive within 2 s");
    assertThat(lines)
        .as("no stack trace")
        .noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception:"));
  }

  @Test
  void aBodyNoRouteReadsIsReadToItsEndSoTheAnswerArrives() throws Exception {
    // The server answers 404 (no such path) or 413 (over the limit) before reading the body; were
    // it to close the connection with the body unread, TCP would reset it and the answer be lost.
    // The client here pauses half-way, so an early close would surely cut it off.
    assertThat(statusAfterAPausedUpload("POST /agreements/x/deliver/extra", 1 << 20))
        .isEqualTo(404);
    assertThat(
            statusAfterAPausedUpload(
                "POST /agreements", (int) ServerConfig.DEFAULT_MAX_BODY_BYTES + 45))
        .isEqualTo(413);
  }

  private int statusAfterAPausedUpload(String requestLine, int length) throws Exception {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      out.write(
          (requestLine
                  + " HTTP/1.1\r\nHost: 127.0.0.1:"
                  + server.port()
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      byte[] chunk = new byte[64 * 1024];
      Arrays.fill(chunk, (byte) 'x');
      out.write(chunk);
      out.flush();
      Thread.sleep(300); // the answer is ready by now
      for (int sent = chunk.length; sent < length; sent += chunk.length) {
        out.write(chunk, 0, Math.min(chunk.length, length - sent));
      }
      out.flush();
      String head = readResponseHead(socket.getInputStream());
      return Integer.parseInt(head.substring(9, 12));
    }
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  private byte[] uploadHead(int length) {
    return ("POST /agreements HTTP/1.1\r\nHost: 127.0.0.1:"
            + server.port()
            + "\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + length
            + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** Reads and discards until the server closes the connection (a reset counts as closed). */
  private static void readUntilClosed(InputStream in) throws IOException {
    byte[] buffer = new byte[1024];
    try {
      while (in.read(buffer) >= 0) {
        // an answer, if any, is fine; what matters is that the connection ends
      }
    } catch (SocketException reset) {
      // closed hard
    }
  }

  private static String readResponseHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after: " + head);
      }
      head.append((char) b);
    }
    String text = head.toString();
    int length = Integer.parseInt(text.replaceAll("(?s).*[Cc]ontent-[Ll]ength: (\\d+).*", "$1"));
    in.readNBytes(length);
    return text;
  }

  /**
   * The server's log lines once one contains {@code marker} (waiting up to 5 s), plus 300 ms for
   * more.
   */
  private List<String> logLinesWhenPresent(String marker) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!err.toString(StandardCharsets.UTF_8).contains(marker) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    Thread.sleep(300);
    return Arrays.asList(err.toString(StandardCharsets.UTF_8).split("\\R"));
  }
}
