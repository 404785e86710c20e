package dev.asa.evaluators;

import dev.asa.crypto.Digest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

/**
 * What the provider delivered.
 *
 * @param content the deliverable as text
 * @param format markdown, text, json, code, csv, html, yaml, xml or other; null when undeclared
 * @param contentHash the digest the provider bound the delivery to
 * @param deliveredAt when the delivery was received
 */
public record Deliverable(String content, String format, Digest contentHash, Instant deliveredAt) {

  public Deliverable {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(contentHash, "contentHash");
    Objects.requireNonNull(deliveredAt, "deliveredAt");
  }

  /** A deliverable whose hash is the SHA-256 of its content in UTF-8. */
  public static Deliverable of(String content, String format, Instant deliveredAt) {
    return new Deliverable(content, format, hashOf(content), deliveredAt);
  }

  /** Whether {@code contentHash} is the SHA-256 of the content in UTF-8. */
  public boolean contentMatchesHash() {
    return hashOf(content).equals(contentHash);
  }

  private static Digest hashOf(String content) {
    return Digest.sha256(content.getBytes(StandardCharsets.UTF_8));
  }
}
