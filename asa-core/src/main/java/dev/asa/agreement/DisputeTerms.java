package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where disputes go (e.g. {@code ajp}), when one is filed automatically, and what its package
 * holds. Every member does something: an automatic-filing condition the server does not know, or
 * evidence it cannot file, is refused when the terms are read ({@link SemanticRules}), never
 * accepted and ignored.
 *
 * @param autoFileOn the condition that files a dispute automatically, or null for none; the one
 *     known is {@link #BELOW_THRESHOLD}
 * @param threshold the composite score under which {@link #BELOW_THRESHOLD} files; null without one
 * @param evidenceIncludes {@code evidence_includes} as written; empty when the terms leave it out
 */
public record DisputeTerms(
    String protocol, String autoFileOn, BigDecimal threshold, List<String> evidenceIncludes) {

  /**
   * The whitepaper's condition (section 4.1): the verification's composite score is under {@code
   * threshold}.
   */
  public static final String BELOW_THRESHOLD = "verification_failure_below_threshold";

  /** The automatic-filing conditions this implementation fires. */
  public static final List<String> AUTO_FILE_CONDITIONS = List.of(BELOW_THRESHOLD);

  /**
   * What a dispute package can hold: the whitepaper's three (section 4.1's {@code
   * evidence_includes} and the DISPUTED state: the agreement document, the deliverable's content
   * hash, the verification result) and the digests of the agreement's event log, the trail of how
   * it got there.
   */
  public enum Evidence {
    AGREEMENT,
    DELIVERABLE_HASH,
    VERIFICATION_RESULT,
    EVENT_LOG;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Evidence> fromWire(String name) {
      return Arrays.stream(values()).filter(e -> e.wireName().equals(name)).findFirst();
    }

    /** The names, for messages. */
    public static String names() {
      return String.join(", ", Arrays.stream(values()).map(Evidence::wireName).toList());
    }
  }

  public DisputeTerms {
    evidenceIncludes = List.copyOf(evidenceIncludes);
  }

  /**
   * What a filed package holds: exactly the items {@code evidence_includes} names, in its order, or
   * every item when the terms name none.
   */
  public List<Evidence> evidence() {
    if (evidenceIncludes.isEmpty()) {
      return List.of(Evidence.values());
    }
    List<Evidence> out = new ArrayList<>();
    for (String name : evidenceIncludes) {
      // Validated terms name only known items, once each; a stored document is not re-validated.
      Evidence.fromWire(name).filter(e -> !out.contains(e)).ifPresent(out::add);
    }
    return out;
  }

  /** Whether a verification with this composite score files a dispute automatically. */
  public boolean autoFiles(BigDecimal composite) {
    return BELOW_THRESHOLD.equals(autoFileOn)
        && threshold != null
        && composite != null
        && composite.compareTo(threshold) < 0;
  }
}
