package dev.asa.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.lifecycle.EventChain;
import dev.asa.lifecycle.State;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks an archive file from its bytes alone, trusting nothing the server says: the manifest's
 * signature, the digest and length of everything it covers, the count, and every agreement's event
 * chain recomputed from its events (each event's digest and each link), each agreement in a final
 * state that began before the cutoff, no agreement twice.
 *
 * <p>Reads the file line by line (an archive of a million agreements is a few GB): memory holds one
 * line and the set of ids.
 */
public final class ArchiveVerifier {

  /** At most this many problems are listed; a broken file would otherwise list every line. */
  static final int MAX_PROBLEMS = 20;

  private ArchiveVerifier() {}

  /**
   * What a check found.
   *
   * @param manifest the file's manifest, when its last line held one that verifies
   * @param agreements the agreement lines read
   * @param events the events recomputed across them
   * @param problems empty when the archive verifies; otherwise the first {@link #MAX_PROBLEMS}
   */
  public record Report(
      Optional<ArchiveManifest> manifest, long agreements, long events, List<String> problems) {
    public Report {
      problems = List.copyOf(problems);
    }

    public boolean verifies() {
      return problems.isEmpty();
    }
  }

  /**
   * Verifies the file.
   *
   * @param expectedKey the server key the archive must be signed by, or null to accept the key it
   *     names (then compare that key with the server's {@code /.well-known/asa/server-key})
   */
  public static Report verify(Path file, Ed25519PublicKey expectedKey) throws IOException {
    long size = Files.size(file);
    long manifestStart = lastLineStart(file, size);
    List<String> problems = new ArrayList<>();
    ArchiveManifest manifest = null;
    try {
      manifest = readManifest(file, manifestStart, size);
      if (expectedKey != null && !expectedKey.equals(manifest.serverKey())) {
        problems.add(
            "the archive is signed by "
                + manifest.serverKey().toBase64Url()
                + ", not by the expected "
                + expectedKey.toBase64Url());
      }
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    MessageDigest sha256 = sha256();
    long agreements = 0;
    long events = 0;
    long lineNumber = 0;
    Set<String> ids = new HashSet<>();
    try (InputStream in = Files.newInputStream(file)) {
      LineReader lines = new LineReader(in, manifestStart);
      byte[] line;
      while ((line = lines.next()) != null) {
        lineNumber++;
        sha256.update(line);
        JsonNode record = parse(line, lineNumber, problems);
        if (record == null) {
          continue;
        }
        if (lineNumber == 1) {
          checkHeader(record, manifest, problems);
          continue;
        }
        agreements++;
        events += record.path("events").size();
        checkAgreement(record, lineNumber, manifest, ids, problems);
      }
    }
    if (manifest != null) {
      String digest = "sha256:" + java.util.HexFormat.of().formatHex(sha256.digest());
      if (manifest.recordsBytes() != manifestStart) {
        problems.add(
            "the manifest covers "
                + manifest.recordsBytes()
                + " bytes, the file holds "
                + manifestStart
                + " before it");
      } else if (!manifest.recordsSha256().equals(digest)) {
        problems.add("the records' digest is " + digest + ", the manifest says otherwise");
      }
      if (manifest.agreements() != agreements) {
        problems.add(
            "the manifest counts "
                + manifest.agreements()
                + " agreements, the file holds "
                + agreements);
      }
    }
    return new Report(
        Optional.ofNullable(manifest),
        agreements,
        events,
        problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS)));
  }

  private static void checkHeader(
      JsonNode header, ArchiveManifest manifest, List<String> problems) {
    if (header.path("asa_archive").asInt() != ArchiveManifest.FORMAT) {
      problems.add("line 1 is not an archive header (asa_archive " + ArchiveManifest.FORMAT + ")");
      return;
    }
    if (manifest != null
        && !ArchiveManifest.header(
                manifest.name(),
                manifest.serverKey(),
                manifest.closedBefore(),
                manifest.startedAt())
            .equals(header)) {
      problems.add("line 1, the header, does not match the manifest");
    }
  }

  private static void checkAgreement(
      JsonNode record,
      long lineNumber,
      ArchiveManifest manifest,
      Set<String> ids,
      List<String> problems) {
    String id = record.path("agreement_id").asText("");
    String where = "line " + lineNumber + " (agreement " + id + ")";
    if (id.isEmpty()) {
      problems.add("line " + lineNumber + " names no agreement_id");
      return;
    }
    if (!ids.add(id)) {
      problems.add(where + ": the agreement is in the archive twice");
    }
    if (record.path("events").isEmpty()) {
      problems.add(where + ": no events");
    }
    EventChain.firstBreak(record).ifPresent(b -> problems.add(where + ": " + b));
    try {
      State state = State.fromWire(record.path("state").asText());
      if (!state.isFinal()) {
        problems.add(where + ": state " + state.wireName() + " is not final");
      }
    } catch (IllegalArgumentException e) {
      problems.add(where + ": " + e.getMessage());
    }
    if (manifest != null) {
      try {
        Instant ended = Instant.parse(record.path("updated_at").asText());
        if (!ended.isBefore(manifest.closedBefore())) {
          problems.add(where + ": ended at " + ended + ", not before the cutoff");
        }
      } catch (java.time.format.DateTimeParseException e) {
        problems.add(where + ": updated_at is unreadable");
      }
    }
  }

  private static JsonNode parse(byte[] line, long lineNumber, List<String> problems) {
    try {
      return Json.parse(line);
    } catch (JsonProcessingException e) {
      problems.add("line " + lineNumber + " is not JSON: " + e.getOriginalMessage());
      return null;
    }
  }

  private static ArchiveManifest readManifest(Path file, long start, long size) throws IOException {
    if (size - start > 1 << 20) {
      throw new IllegalArgumentException("the last line is too long to be a manifest");
    }
    byte[] bytes = new byte[(int) (size - start)];
    try (var channel = java.nio.channels.FileChannel.open(file)) {
      var buffer = java.nio.ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, start + buffer.position()) < 0) {
          break;
        }
      }
    }
    try {
      return ArchiveManifest.fromSignedLine(Json.parse(bytes));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "the last line is not a manifest (an archive a run did not finish?): "
              + e.getOriginalMessage(),
          e);
    }
  }

  /** Where the last line begins (the file ends with a newline after it). */
  private static long lastLineStart(Path file, long size) throws IOException {
    try (var channel = java.nio.channels.FileChannel.open(file)) {
      long end = size - 1; // the final newline
      var one = java.nio.ByteBuffer.allocate(1);
      for (long p = end - 1; p >= 0; p--) {
        one.clear();
        channel.read(one, p);
        if (one.get(0) == '\n') {
          return p + 1;
        }
      }
      return 0;
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }

  /** Lines as raw bytes (newline included: the digest covers it), up to a limit. */
  private static final class LineReader {
    private final InputStream in;
    private long remaining;

    LineReader(InputStream in, long limit) {
      this.in = new java.io.BufferedInputStream(in, 1 << 16);
      this.remaining = limit;
    }

    byte[] next() throws IOException {
      if (remaining <= 0) {
        return null;
      }
      var out = new java.io.ByteArrayOutputStream();
      int b;
      while (remaining > 0 && (b = in.read()) >= 0) {
        remaining--;
        out.write(b);
        if (b == '\n') {
          break;
        }
      }
      return out.size() == 0 ? null : out.toByteArray();
    }
  }
}
