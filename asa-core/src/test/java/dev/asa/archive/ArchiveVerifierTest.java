package dev.asa.archive;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.lifecycle.Event;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline check of an archive file refuses every forgery a holder of the file could try: an
 * altered event, an event removed, an agreement added or removed, a changed manifest, another key's
 * signature, a duplicated agreement, an agreement that had not ended.
 */
class ArchiveVerifierTest {
  static final Ed25519PrivateKey SERVER = Ed25519PrivateKey.fromSeed(new byte[32]);
  static final Instant CUTOFF = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  @Test
  void aFileAsTheServerWritesItVerifies() throws Exception {
    ArchiveVerifier.Report report = ArchiveVerifier.verify(archive(3, l -> l), SERVER.publicKey());
    assertThat(report.problems()).isEmpty();
    assertThat(report.agreements()).isEqualTo(3);
    assertThat(report.events()).isEqualTo(9);
    assertThat(report.manifest().orElseThrow().agreements()).isEqualTo(3);
  }

  @Test
  void anAlteredEventIsFoundEvenWhenTheManifestIsSignedAgain() throws Exception {
    // The server's own key signed a manifest over the altered bytes: only the chain shows it.
    Path file =
        archive(
            3, line -> line.contains("a-1") ? line.replace("\"score\":90", "\"score\":10") : line);
    assertThat(ArchiveVerifier.verify(file, SERVER.publicKey()).problems())
        .singleElement()
        .asString()
        .contains("agreement a-1")
        .contains("altered");
  }

  @Test
  void bytesChangedAfterSigningBreakTheDigest() throws Exception {
    Path file = archive(3, l -> l);
    String text = Files.readString(file).replace("\"score\":90", "\"score\":91");
    Files.writeString(file, text);
    assertThat(String.join("\n", ArchiveVerifier.verify(file, SERVER.publicKey()).problems()))
        .contains("digest");
  }

  @Test
  void aLineRemovedAfterSigningIsFound() throws Exception {
    Path file = archive(3, l -> l);
    var lines = Files.readAllLines(file);
    lines.remove(2);
    Files.writeString(file, String.join("\n", lines) + "\n");
    assertThat(String.join("\n", ArchiveVerifier.verify(file, SERVER.publicKey()).problems()))
        .contains("covers")
        .contains("counts 3 agreements, the file holds 2");
  }

  @Test
  void anotherKeysSignatureIsRefusedWhenTheServerKeyIsGiven() throws Exception {
    Ed25519PrivateKey forger =
        Ed25519PrivateKey.fromSeed(
            new byte[] {
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
              25, 26, 27, 28, 29, 30, 31, 32
            });
    Path file = archive(2, l -> l, forger);
    assertThat(ArchiveVerifier.verify(file, null).problems()).isEmpty(); // it is a valid archive
    assertThat(ArchiveVerifier.verify(file, SERVER.publicKey()).problems())
        .singleElement()
        .asString()
        .contains("not by the expected");
  }

  @Test
  void aManifestWhoseSignatureDoesNotVerifyIsRefused() throws Exception {
    Path file = archive(2, l -> l);
    String text = Files.readString(file).replace("\"agreements\":2", "\"agreements\":1");
    Files.writeString(file, text);
    assertThat(ArchiveVerifier.verify(file, SERVER.publicKey()).problems())
        .anySatisfy(p -> assertThat(p).contains("signature does not verify"));
  }

  @Test
  void anUnfinishedArchiveHasNoManifest() throws Exception {
    Path file = archive(2, l -> l);
    var lines = Files.readAllLines(file);
    lines.removeLast();
    Files.writeString(file, String.join("\n", lines) + "\n");
    assertThat(ArchiveVerifier.verify(file, SERVER.publicKey()).problems())
        .anySatisfy(p -> assertThat(p).contains("no manifest"));
  }

  @Test
  void aDuplicateAndARunningAgreementAreFound() throws Exception {
    Path file =
        archive(
            3,
            line ->
                line.contains("\"a-2\"")
                    ? line.replace("\"a-2\"", "\"a-1\"").replace("\"closed\"", "\"active\"")
                    : line);
    assertThat(String.join("\n", ArchiveVerifier.verify(file, SERVER.publicKey()).problems()))
        .contains("twice")
        .contains("not final");
  }

  private Path archive(int agreements, UnaryOperator<String> edit) throws Exception {
    return archive(agreements, edit, SERVER);
  }

  /** An archive as the server writes it, each record line passed through {@code edit} first. */
  private Path archive(int agreements, UnaryOperator<String> edit, Ed25519PrivateKey key)
      throws Exception {
    Instant started = Instant.parse("2026-02-01T00:00:00Z");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(
        line(Json.write(ArchiveManifest.header("t.jsonl", key.publicKey(), CUTOFF, started))));
    for (int i = 0; i < agreements; i++) {
      out.write(line(edit.apply(Json.write(record("a-" + i)))));
    }
    byte[] records = out.toByteArray();
    ArchiveManifest manifest =
        new ArchiveManifest(
            "t.jsonl",
            key.publicKey(),
            CUTOFF,
            started,
            started.plusSeconds(5),
            agreements,
            records.length,
            "sha256:"
                + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(records)));
    out.write(line(Json.write(manifest.signedLine(key))));
    Path file = dir.resolve("t-" + System.nanoTime() + ".jsonl");
    Files.write(file, out.toByteArray());
    return file;
  }

  private static ObjectNode record(String id) {
    ObjectNode o = Json.object();
    o.put("agreement_id", id);
    o.put("state", "closed");
    o.put("updated_at", "2025-06-01T00:00:00Z");
    ArrayNode events = o.putArray("events");
    Event previous = null;
    for (int seq = 0; seq < 3; seq++) {
      ObjectNode payload = Json.object().put("score", 90);
      previous =
          Event.append(
              previous,
              id,
              "step_" + seq,
              Json.object().put("role", "server"),
              Instant.parse("2025-05-01T00:00:00Z").plusSeconds(seq),
              payload);
      events.add(previous.toJson());
    }
    return o;
  }

  private static byte[] line(String json) {
    return (json + "\n").getBytes(StandardCharsets.UTF_8);
  }
}
