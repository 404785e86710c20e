package dev.asa.signedrequests;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * Signs and verifies webhooks the Standard Webhooks way (https://www.standardwebhooks.com), with
 * its asymmetric {@code v1a} (Ed25519) scheme: the sender signs {@code id.timestamp.body} and puts
 * {@code v1a,<base64 signature>} in {@value #WEBHOOK_SIGNATURE}. Asymmetric because a receiver then
 * needs only our public key, and cannot forge deliveries from us with what it holds.
 *
 * <p>Replay: the timestamp is signed and must be within a tolerance of the receiver's clock; within
 * that window the receiver deduplicates on {@value #WEBHOOK_ID}, which stays the same across
 * retries of one message.
 */
public final class StandardWebhooks {

  /** The message id, stable across retries; the receiver applies each id at most once. */
  public static final String WEBHOOK_ID = "webhook-id";

  /** When this attempt was signed, in integer seconds since the epoch. */
  public static final String WEBHOOK_TIMESTAMP = "webhook-timestamp";

  /** Space-separated {@code version,base64} entries; we write and read {@code v1a}. */
  public static final String WEBHOOK_SIGNATURE = "webhook-signature";

  /** The version tag of the asymmetric Ed25519 scheme. */
  public static final String VERSION = "v1a";

  /**
   * Longest header we read. Real headers are a few hundred characters; the limit stops a sender
   * from making us split, decode and verify megabytes before we can say no.
   */
  public static final int MAX_HEADER_LENGTH = 4096;

  /**
   * Most signature entries we look at. A sender rotating keys sends two or three; each {@code v1a}
   * entry costs an Ed25519 verification, so the number must be bounded.
   */
  public static final int MAX_SIGNATURES = 16;

  /** Digits in the longest timestamp we parse: enough until the year 33658, and no overflow. */
  private static final int MAX_TIMESTAMP_DIGITS = 12;

  private StandardWebhooks() {}

  /**
   * The {@value #WEBHOOK_SIGNATURE} header value for one delivery attempt: {@code v1a,} followed by
   * the standard (padded) base64 of the Ed25519 signature of the UTF-8 of {@code
   * msgId.timestampSeconds.body}.
   *
   * @throws IllegalArgumentException if {@code msgId} is blank or {@code timestampSeconds} is
   *     negative; the receiver would refuse either
   */
  public static String sign(
      String msgId, long timestampSeconds, String body, Ed25519PrivateKey key) {
    Objects.requireNonNull(msgId, "msgId");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(key, "key");
    if (msgId.isBlank()) {
      throw new IllegalArgumentException(
          "a webhook id must not be blank; use the outbox message id");
    }
    if (timestampSeconds < 0) {
      throw new IllegalArgumentException(
          "a webhook timestamp is seconds since the epoch, got " + timestampSeconds);
    }
    Ed25519Signature signature =
        key.sign(signedContent(msgId, Long.toString(timestampSeconds), body));
    return VERSION + "," + Base64.getEncoder().encodeToString(signature.bytes());
  }

  /**
   * Checks one received webhook: the three headers as received, the body exactly as received.
   * Returns normally only if the timestamp is within {@code tolerance} of {@code now} and some
   * {@code v1a} entry of {@code signatureHeader} is {@code key}'s signature of {@code
   * msgId.timestampHeader.body}. Entries of other versions (such as the symmetric {@code v1}) are
   * ignored, so a sender may send both kinds during a migration.
   *
   * <p>Deduplicating on {@code msgId} is the caller's job: this method has no memory.
   *
   * @throws InvalidWebhookException for anything the sender got wrong, however malformed; it is the
   *     only exception thrown for header or body content, so one {@code catch} answers 401
   * @throws NullPointerException if {@code body}, {@code key}, {@code now} or {@code tolerance} is
   *     null (a missing header may be null)
   * @throws IllegalArgumentException if {@code tolerance} is negative
   */
  public static void verify(
      String msgId,
      String timestampHeader,
      String signatureHeader,
      String body,
      Ed25519PublicKey key,
      Instant now,
      Duration tolerance) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(tolerance, "tolerance");
    if (tolerance.isNegative()) {
      throw new IllegalArgumentException("tolerance must not be negative, got " + tolerance);
    }
    requireHeader(WEBHOOK_ID, msgId);
    requireHeader(WEBHOOK_TIMESTAMP, timestampHeader);
    requireHeader(WEBHOOK_SIGNATURE, signatureHeader);

    long timestamp = parseTimestamp(timestampHeader);
    // Whole seconds against an instant with nanos: compare as Durations so nothing is rounded away.
    Duration skew =
        Duration.ofSeconds(timestamp)
            .minus(Duration.ofSeconds(now.getEpochSecond(), now.getNano()));
    if (skew.abs().compareTo(tolerance) > 0) {
      throw new InvalidWebhookException(
          InvalidWebhookException.Reason.TIMESTAMP_OUT_OF_TOLERANCE,
          WEBHOOK_TIMESTAMP
              + " "
              + timestamp
              + " is "
              + (skew.isNegative()
                  ? skew.negated().toSeconds() + "s in the past"
                  : skew.toSeconds() + "s in the future")
              + ", more than the "
              + tolerance.toSeconds()
              + "s allowed; sign each attempt when it is sent and keep the sender's clock in sync");
    }

    // Count first, so a long list is refused whatever its order, before any verification is paid
    // for.
    List<String> entries = new ArrayList<>();
    for (String entry : signatureHeader.split(" ")) {
      if (!entry.isEmpty()) { // several spaces in a row separate nothing
        entries.add(entry);
      }
    }
    if (entries.size() > MAX_SIGNATURES) {
      throw new InvalidWebhookException(
          InvalidWebhookException.Reason.HEADER_TOO_LARGE,
          WEBHOOK_SIGNATURE
              + " holds "
              + entries.size()
              + " entries, more than the "
              + MAX_SIGNATURES
              + " allowed; send one per active key");
    }

    byte[] content = null;
    int v1aEntries = 0;
    int wellFormed = 0;
    String malformed = null;
    for (String entry : entries) {
      int comma = entry.indexOf(',');
      if (comma < 0 || !entry.substring(0, comma).equals(VERSION)) {
        continue; // another scheme (v1 HMAC, or a future one) that this verifier does not speak
      }
      v1aEntries++;
      Ed25519Signature signature = decodeSignature(entry.substring(comma + 1));
      if (signature == null) {
        if (malformed == null) {
          malformed = entry;
        }
        continue; // a later entry may still be ours, e.g. while the sender rotates keys
      }
      wellFormed++;
      if (content == null) {
        content = signedContent(msgId, timestampHeader, body);
      }
      if (key.verify(content, signature)) {
        return;
      }
    }
    if (v1aEntries == 0) {
      throw new InvalidWebhookException(
          InvalidWebhookException.Reason.NO_V1A_SIGNATURE,
          WEBHOOK_SIGNATURE
              + " has no "
              + VERSION
              + ",<base64> entry (got "
              + RequestAuthException.quote(signatureHeader)
              + "); this receiver accepts only Ed25519 (v1a) signatures");
    }
    if (wellFormed == 0) {
      throw new InvalidWebhookException(
          InvalidWebhookException.Reason.MALFORMED_SIGNATURE,
          WEBHOOK_SIGNATURE
              + " entry "
              + RequestAuthException.quote(malformed)
              + " is not "
              + VERSION
              + ", followed by the standard base64 of a 64-byte Ed25519 signature");
    }
    throw new InvalidWebhookException(
        InvalidWebhookException.Reason.BAD_SIGNATURE,
        "no "
            + VERSION
            + " signature in "
            + WEBHOOK_SIGNATURE
            + " verifies with key "
            + key.toBase64Url()
            + " over "
            + WEBHOOK_ID
            + "."
            + WEBHOOK_TIMESTAMP
            + ".body; sign the body exactly as sent, with the key the receiver was given");
  }

  private static void requireHeader(String name, String value) {
    if (value == null || value.isBlank()) {
      throw new InvalidWebhookException(
          InvalidWebhookException.Reason.MISSING_HEADER,
          "the "
              + name
              + " header is missing or blank; Standard Webhooks requires "
              + WEBHOOK_ID
              + ", "
              + WEBHOOK_TIMESTAMP
              + " and "
              + WEBHOOK_SIGNATURE);
    }
    if (value.length() > MAX_HEADER_LENGTH) {
      throw new InvalidWebhookException(
          InvalidWebhookException.Reason.HEADER_TOO_LARGE,
          "the "
              + name
              + " header is "
              + value.length()
              + " characters, more than the "
              + MAX_HEADER_LENGTH
              + " allowed");
    }
  }

  /**
   * ASCII digits only: {@link Long#parseLong} would also take a sign and non-ASCII digits, and the
   * signed text is the header as sent, so two spellings of one number must not both be valid.
   */
  private static long parseTimestamp(String header) {
    boolean digits = header.length() <= MAX_TIMESTAMP_DIGITS;
    for (int i = 0; digits && i < header.length(); i++) {
      char c = header.charAt(i);
      digits = c >= '0' && c <= '9';
    }
    if (!digits) {
      throw new InvalidWebhookException(
          InvalidWebhookException.Reason.MALFORMED_TIMESTAMP,
          WEBHOOK_TIMESTAMP
              + " must be whole seconds since the epoch in ASCII digits, got "
              + RequestAuthException.quote(header));
    }
    return Long.parseLong(header);
  }

  /** The signature in {@code text}, or null if it is not base64 of exactly 64 bytes. */
  private static Ed25519Signature decodeSignature(String text) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return bytes.length == Ed25519Signature.LENGTH ? new Ed25519Signature(bytes) : null;
  }

  private static byte[] signedContent(String msgId, String timestamp, String body) {
    return (msgId + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A webhook was refused: {@link #reason()} says which rule it broke, for code; {@link
   * #getMessage()} says what the sender should change, for people. Messages quote received text
   * only escaped and shortened, so they are safe to log and to send back in a 401.
   */
  public static final class InvalidWebhookException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a webhook was refused; all of them are the sender's doing (answer 401). */
    public enum Reason {
      /** One of the three headers is absent or blank. */
      MISSING_HEADER,
      /** A header is longer than {@link #MAX_HEADER_LENGTH}, or has too many signature entries. */
      HEADER_TOO_LARGE,
      /** The timestamp is not an integer in ASCII digits. */
      MALFORMED_TIMESTAMP,
      /** The timestamp is further from the receiver's clock than the tolerance. */
      TIMESTAMP_OUT_OF_TOLERANCE,
      /** The signature header has no {@code v1a} entry at all. */
      NO_V1A_SIGNATURE,
      /** No {@code v1a} entry is base64 of 64 bytes. */
      MALFORMED_SIGNATURE,
      /** No {@code v1a} entry verifies with the key over this id, timestamp and body. */
      BAD_SIGNATURE
    }

    private final Reason reason;

    InvalidWebhookException(Reason reason, String message) {
      // No stack trace: an expected answer to a bad delivery, not a bug; garbage should be cheap.
      super(Objects.requireNonNull(message, "message"), null, false, false);
      this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** The rule the webhook broke, stable across versions. */
    public Reason reason() {
      return reason;
    }

    @Override
    public String toString() {
      return "InvalidWebhookException[" + reason + "]: " + getMessage();
    }
  }
}
