package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.asa.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code asa agreements list} shows each party by the display name its agreement gives it, else by
 * its identity shortened; a name is text from outside, so it reaches the terminal inert and cut
 * whatever the server sends (here a scripted stand-in sends what a real one refuses to store).
 */
class ListCommandTest {

  private static final String ALICE_DID =
      "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK";
  private static final String BOB_DID = "did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2";

  private HttpServer server;
  private String page;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/agreements",
        ex -> {
          byte[] body = page.getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().add("Content-Type", "application/json");
          ex.sendResponseHeaders(200, body.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String list() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(Map.of("ASA_SERVER", "http://127.0.0.1:" + server.getAddress().getPort()))
            .run(
                new String[] {"agreements", "list", "--party", ALICE_DID},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  private static ObjectNode summary(String id) {
    return Json.object()
        .put("agreement_id", id)
        .put("state", "PROPOSED")
        .put("version", 1)
        .put("service_type", "general")
        .put("client", ALICE_DID)
        .put("provider", BOB_DID)
        .putNull("evaluator")
        .put("created_at", "2026-11-22T10:00:00Z")
        .put("updated_at", "2026-11-22T10:00:00Z")
        .put("amount", "10.00")
        .put("currency", "USD");
  }

  private void serve(ObjectNode... items) {
    ObjectNode answer = Json.object();
    ArrayNode array = answer.putArray("items");
    for (ObjectNode item : items) {
      array.add(item);
    }
    answer.putNull("next_cursor");
    page = Json.write(answer);
  }

  @Test
  void aPartyIsShownByItsDisplayNameElseByItsIdentityShortened() {
    serve(summary("asa-named").put("client_display_name", "Alice's research desk"));

    String out = list();
    assertThat(out.lines().findFirst().orElseThrow())
        .containsPattern("AGREEMENT +STATE +SERVICE +AMOUNT +CLIENT +PROVIDER +CREATED +UPDATED");
    assertThat(out)
        .containsPattern(
            "asa-named +PROPOSED +general +10\\.00 USD +Alice's research desk"
                + " +did:key:z6Mk\\.\\.\\.bTQ2 +2026-11-22T10:00:00Z")
        .doesNotContain(ALICE_DID, BOB_DID);
  }

  @Test
  void aHostileDisplayNameReachesTheTerminalInertAndCut() {
    String hostile = "<i>\u001b[2J\u001b]0;x\u0007\r\u202e\u0000" + "A".repeat(10_000);
    serve(
        summary("asa-hostile")
            .put("client_display_name", hostile)
            .put("provider_display_name", "line one\nline two\ttabbed"));

    String out = list();
    assertThat(out.codePoints().filter(c -> c != '\n').filter(Formats::isUnsafe))
        .as("no control or format character but the line ends")
        .isEmpty();
    assertThat(out.lines()).hasSize(2); // the header and the one row: no name breaks a line
    assertThat(out)
        .contains("<i>?[2J?]0;x????AAAAA...")
        .contains("line one?line two?tabbed")
        .doesNotContain("A".repeat(ListCommand.NAME_WIDTH));
    assertThat(out.lines().skip(1).findFirst().orElseThrow().length())
        .as("the row stays a row, whatever the length of a name")
        .isLessThan(200);
  }

  /**
   * Property: for any text (control, format, surrogate, astral and plain characters mixed), what
   * {@link Formats#inert} shows holds no unsafe character, is at most {@code max} characters long,
   * and is the text itself when the text is short and safe.
   */
  @Test
  void inertTextIsSafeAndBoundedForAnyText() {
    long seed = new Random().nextLong();
    System.out.println("ListCommandTest.inertTextIsSafeAndBoundedForAnyText seed=" + seed);
    Random random = new Random(seed);
    int[] pool = {
      0, 0x1b, '\n', '\r', 0x7f, 0x85, 0x200e, 0x202e, 0x2066, 0x2028, 0xfeff, 0xd800, 0xdc00,
      0x1f600, 'a', 'Z', ' ', '<', '&', 0xe9, 0x4e2d
    };
    for (int run = 0; run < 2_000; run++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(random.nextBoolean() ? 40 : 400);
      for (int i = 0; i < length; i++) {
        text.appendCodePoint(pool[random.nextInt(pool.length)]);
      }
      int max = 4 + random.nextInt(60);
      String shown = Formats.inert(text.toString(), max);
      assertThat(shown.codePoints().filter(Formats::isUnsafe))
          .as("seed %d: %s", seed, text)
          .isEmpty();
      assertThat(shown.codePointCount(0, shown.length()))
          .as("seed %d", seed)
          .isLessThanOrEqualTo(max);
      boolean safe = text.codePoints().noneMatch(Formats::isUnsafe);
      if (safe && text.codePointCount(0, text.length()) <= max) {
        assertThat(shown).as("seed %d", seed).isEqualTo(text.toString());
      }
    }
  }
}
