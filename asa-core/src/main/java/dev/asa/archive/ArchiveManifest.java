package dev.asa.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * What an archive holds, signed by the server that wrote it: the last line of the file, {@code
 * {"manifest": {...}, "signature": "<base64url Ed25519 over JCS(manifest)>"}}.
 *
 * @param serverKey the key that signs (also named in the header line)
 * @param closedBefore the cutoff: every agreement in the file ended before it
 * @param agreements how many agreement lines the file holds
 * @param recordsBytes the length of everything before the manifest line (header included)
 * @param recordsSha256 the digest of those bytes, {@code sha256:<hex>}
 */
public record ArchiveManifest(
    String name,
    Ed25519PublicKey serverKey,
    Instant closedBefore,
    Instant startedAt,
    Instant completedAt,
    long agreements,
    long recordsBytes,
    String recordsSha256) {

  /** The format's version, in the header ({@code asa_archive}) and the manifest. */
  public static final int FORMAT = 1;

  public ArchiveManifest {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(serverKey, "serverKey");
    Objects.requireNonNull(closedBefore, "closedBefore");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(completedAt, "completedAt");
    Objects.requireNonNull(recordsSha256, "recordsSha256");
    if (agreements < 0 || recordsBytes < 0) {
      throw new IllegalArgumentException("counts are never negative");
    }
  }

  /** The first line of an archive: what it is, before anything is in it. */
  public static ObjectNode header(
      String name, Ed25519PublicKey serverKey, Instant closedBefore, Instant startedAt) {
    ObjectNode o = Json.object();
    o.put("asa_archive", FORMAT);
    o.put("name", name);
    o.put("server_key", serverKey.toBase64Url());
    o.put("closed_before", closedBefore.toString());
    o.put("started_at", startedAt.toString());
    return o;
  }

  public ObjectNode toJson() {
    ObjectNode o = header(name, serverKey, closedBefore, startedAt);
    o.put("completed_at", completedAt.toString());
    o.put("agreements", agreements);
    o.put("records_bytes", recordsBytes);
    o.put("records_sha256", recordsSha256);
    return o;
  }

  /** The manifest line, signed: what the file ends with. */
  public ObjectNode signedLine(Ed25519PrivateKey key) {
    if (!key.publicKey().equals(serverKey)) {
      throw new IllegalArgumentException("the manifest names another key than the one signing");
    }
    ObjectNode line = Json.object();
    ObjectNode manifest = toJson();
    line.set("manifest", manifest);
    line.put("signature", key.sign(Jcs.canonicalize(manifest)).toBase64Url());
    return line;
  }

  /**
   * Reads a manifest line and checks its signature under the key it names.
   *
   * @throws IllegalArgumentException naming what is missing, unreadable or does not verify
   */
  public static ArchiveManifest fromSignedLine(JsonNode line) {
    JsonNode m = line.path("manifest");
    if (!m.isObject()) {
      throw new IllegalArgumentException("the last line holds no manifest");
    }
    if (m.path("asa_archive").asInt() != FORMAT) {
      throw new IllegalArgumentException(
          "manifest.asa_archive is " + m.path("asa_archive") + ", not " + FORMAT);
    }
    Ed25519PublicKey key = Ed25519PublicKey.fromBase64Url(text(m, "server_key"));
    Ed25519Signature signature = Ed25519Signature.fromBase64Url(line.path("signature").asText(""));
    if (!key.verify(Jcs.canonicalize(m), signature)) {
      throw new IllegalArgumentException(
          "the manifest's signature does not verify under " + key.toBase64Url());
    }
    try {
      return new ArchiveManifest(
          text(m, "name"),
          key,
          Instant.parse(text(m, "closed_before")),
          Instant.parse(text(m, "started_at")),
          Instant.parse(text(m, "completed_at")),
          m.path("agreements").asLong(-1),
          m.path("records_bytes").asLong(-1),
          text(m, "records_sha256"));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("a manifest time is unreadable: " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode m, String member) {
    JsonNode v = m.path(member);
    if (!v.isTextual()) {
      throw new IllegalArgumentException("manifest." + member + " is missing");
    }
    return v.asText();
  }
}
