package dev.asa.server.work;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import dev.asa.crypto.Digest;
import dev.asa.server.store.verification.DeliverableRow;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A deliverable as submitted: inline {@code content} (its digest computed here, and checked against
 * a {@code content_hash} if one is given) or a {@code content_url} with its {@code content_hash}.
 */
public record Delivery(
    String content, String format, String contentUrl, Digest contentHash, long sizeBytes) {

  /**
   * The deliverable members of {@code b} (content, format, content_url, content_hash); other
   * members are the caller's to check. Errors point below {@code prefix}.
   */
  public static Delivery parse(ObjectNode b, String prefix) {
    String content = StrictJson.failFast().optionalText(b, prefix, "content");
    String format = StrictJson.failFast().optionalText(b, prefix, "format");
    String url = StrictJson.failFast().optionalText(b, prefix, "content_url");
    String hashText = StrictJson.failFast().optionalText(b, prefix, "content_hash");
    Digest declared = null;
    if (hashText != null) {
      try {
        declared = Digest.parse(hashText);
      } catch (IllegalArgumentException e) {
        throw new InvalidDocumentException(prefix + "/content_hash", e.getMessage());
      }
    }
    if (format != null && !format.matches("[a-z][a-z0-9_+.-]{0,31}")) {
      throw new InvalidDocumentException(
          prefix + "/format", "a short lower-case name such as markdown, json, csv or code");
    }
    if (content != null) {
      if (url != null) {
        throw new InvalidDocumentException(
            prefix + "/content_url", "give either content or content_url, not both");
      }
      byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
      Digest actual = Digest.sha256(bytes);
      if (declared != null && !declared.equals(actual)) {
        throw new InvalidDocumentException(
            prefix + "/content_hash",
            "does not match the content: the content hashes to " + actual);
      }
      return new Delivery(content, format, null, actual, bytes.length);
    }
    if (url == null) {
      throw new InvalidDocumentException(
          prefix + "/content",
          "required: the deliverable as \"content\", or \"content_url\" with \"content_hash\"");
    }
    if (declared == null) {
      throw new InvalidDocumentException(
          prefix + "/content_hash",
          "required with content_url: sha256:<hex> of the content's bytes");
    }
    try {
      URI uri = URI.create(url);
      if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw new IllegalArgumentException("not an http(s) URL");
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(
          prefix + "/content_url", "must be an absolute http or https URL");
    }
    return new Delivery(null, format, url, declared, -1);
  }

  public DeliverableRow toRow(String agreementId, int attempt, String effectiveFormat, Instant at) {
    return new DeliverableRow(
        agreementId,
        attempt,
        contentHash.toString(),
        contentUrl,
        effectiveFormat,
        content,
        Math.max(sizeBytes, 0),
        at);
  }
}
