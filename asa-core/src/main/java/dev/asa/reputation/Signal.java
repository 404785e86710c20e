package dev.asa.reputation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Role;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One ARP v2 signal (the Agent Rating Protocol's section 3.2 schema: {@code signal_type}, {@code
 * signal_id}, {@code source}, {@code value}, {@code confidence}, {@code window}, {@code
 * sample_size}, {@code timestamp}), plus two members ARP's schema leaves out and a signal cannot do
 * without: {@code subject}, the identity it is about ({@code scheme}, {@code value}, and {@code
 * key}, the Ed25519 key the record belongs to, since an identity is a label anyone may write), and
 * {@code role}, the role it was earned in. Both sit inside the signed object, so that a signal
 * about one agent cannot be presented as being about another (ARP readers that do not know them
 * ignore them).
 *
 * <p>Numbers. ARP writes values and confidences as floats on a 0-100 scale (a rate of 95.5% is
 * {@code 95.5}). Here they are exact decimals: rates and means rounded half-even to two decimals,
 * confidence to four, and they become JSON numbers only at the boundary. Two decimals survive the
 * trip through a double, so the canonical (JCS) form that is signed is the same number a reader
 * parses; a foreign value is read from its JSON text, never through a double.
 *
 * @param subjectKey the key (base64url) the subject's record belongs to; null when the issuer does
 *     not say
 * @param value on ARP's 0-100 scale for rates and scores; a plain count for counts
 * @param confidence 0 to 1, how much the figure rests on (ARP: {@code 1 - 1/(1 + 0.1 n)})
 * @param window how far back the figure looks, as ARP writes it ({@code 365d})
 */
public record Signal(
    String signalType,
    String signalId,
    String source,
    Identity subject,
    String subjectKey,
    Role role,
    BigDecimal value,
    BigDecimal confidence,
    String window,
    long sampleSize,
    Instant timestamp) {

  public Signal {
    Objects.requireNonNull(signalType, "signalType");
    Objects.requireNonNull(signalId, "signalId");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(confidence, "confidence");
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(timestamp, "timestamp");
    if (sampleSize < 0) {
      throw new IllegalArgumentException("a sample size is not negative");
    }
    if (confidence.signum() < 0 || confidence.compareTo(BigDecimal.ONE) > 0) {
      throw new IllegalArgumentException("a confidence lies between 0 and 1");
    }
    // ARP timestamps are to the second; so is what is signed.
    timestamp = timestamp.truncatedTo(ChronoUnit.SECONDS);
  }

  /** The signal as published, without its {@code verification}: what is signed. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("signal_type", signalType);
    o.put("signal_id", signalId);
    o.put("source", source);
    ObjectNode s = o.putObject("subject");
    s.put("scheme", subject.scheme());
    s.put("value", subject.value());
    if (subjectKey != null) {
      s.put("key", subjectKey);
    }
    o.put("role", role.wireName());
    o.put("value", plain(value));
    o.put("confidence", plain(confidence));
    o.put("window", window);
    o.put("sample_size", sampleSize);
    o.put("timestamp", timestamp.toString());
    return o;
  }

  /**
   * A decimal as a JSON number without trailing zeros or exponent ({@code 100}, not {@code 1E+2}
   * nor {@code 100.00}): the spelling JCS gives it, so the text sent is the text signed.
   */
  public static BigDecimal plain(BigDecimal d) {
    BigDecimal stripped = d.stripTrailingZeros();
    return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
  }
}
