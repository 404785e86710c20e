package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A verification result (whitepaper section 5.2), as {@code GET /agreements/{id}/verification},
 * {@code GET /verifications/{id}} and a verify answer give it: the determination, the composite and
 * one entry per dimension. Gates, shadow metrics, the evaluator and the evidence trail are in
 * {@link #json()}.
 *
 * <p>Named {@code VerificationView} rather than {@code VerificationResult} so that it never has to
 * be told apart from asa-core's {@code dev.asa.scoring.VerificationResult}, which is the server's
 * own, complete model.
 *
 * @param verificationId the result's id
 * @param agreementId the agreement it belongs to; empty for a standalone verification
 * @param passed whether the determination is PASS
 * @param releasePercent the share of the payment released to the provider, 0 to 100
 * @param confidence each dimension's confidence averaged by its weight, when there is one
 * @param notes the determination's notes; empty when it has none
 * @param composite the composite score against its threshold
 * @param dimensions one entry per quality dimension, in the criteria's order
 * @param json the whole result, a copy, for members this type does not name
 */
public record VerificationView(
    String verificationId,
    Optional<String> agreementId,
    boolean passed,
    BigDecimal releasePercent,
    Optional<BigDecimal> confidence,
    String notes,
    Composite composite,
    List<Dimension> dimensions,
    ObjectNode json) {

  private static final String WHAT = "a verification result";

  /** Checks that nothing is null and keeps private copies. */
  public VerificationView {
    Objects.requireNonNull(verificationId, "verificationId");
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(releasePercent, "releasePercent");
    Objects.requireNonNull(confidence, "confidence");
    Objects.requireNonNull(notes, "notes");
    Objects.requireNonNull(composite, "composite");
    dimensions = List.copyOf(dimensions);
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The composite score ({@code composite}).
   *
   * @param score the weighted score, 0 to 100
   * @param threshold what it had to reach
   * @param passed whether it did
   * @param method how the dimensions were combined, e.g. {@code weighted_average}; empty if not
   *     stated
   */
  public record Composite(
      BigDecimal score, BigDecimal threshold, boolean passed, Optional<String> method) {

    /** Checks that nothing is null. */
    public Composite {
      Objects.requireNonNull(score, "score");
      Objects.requireNonNull(threshold, "threshold");
      Objects.requireNonNull(method, "method");
    }
  }

  /**
   * One quality dimension of the result.
   *
   * @param name the dimension's name, e.g. {@code accuracy}
   * @param score its score; empty when nobody evaluated it (then {@link #evidence()} says why)
   * @param sloMet whether the score meets the dimension's SLO; false when it was not evaluated
   * @param evidence what the evaluator gave as evidence, or why the dimension was not evaluated;
   *     empty when there is none
   */
  public record Dimension(
      String name, Optional<BigDecimal> score, boolean sloMet, String evidence) {

    /** Checks that nothing is null. */
    public Dimension {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(score, "score");
      Objects.requireNonNull(evidence, "evidence");
    }

    /**
     * Whether the dimension has a score. A dimension that was not evaluated did not miss its SLO:
     * nobody looked at it.
     *
     * @return true when {@link #score()} is present
     */
    public boolean evaluated() {
      return score.isPresent();
    }
  }

  /**
   * Reads a result.
   *
   * @param result a section 5.2 result
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind (a
   *     verification job still running has no {@code determination}); the message names it
   */
  public static VerificationView from(JsonNode result) {
    ObjectNode o = Members.object(result, WHAT);
    if (AsaClient.isPending(o)) {
      throw new IllegalArgumentException(
          "verification "
              + o.path("verification_id").asText("?")
              + " is still "
              + o.path("status").asText()
              + ", so there is no result to read yet; wait for it with"
              + " AsaClient.awaitVerification");
    }
    ObjectNode determination = Members.child(o, "determination", WHAT);
    ObjectNode composite = Members.child(o, "composite", WHAT);
    String what = WHAT + "'s composite";
    List<Dimension> dimensions =
        Members.objects(o, "dimensions", WHAT).stream()
            .map(d ->
                new Dimension(
                    Members.text(d, "name", "a dimension of " + WHAT),
                    Members.optionalDecimal(d, "score"),
                    d.path("slo_met").asBoolean(false),
                    Members.optionalText(d, "evidence").orElse("")))
            .toList();
    return new VerificationView(
        Members.text(o, "verification_id", WHAT),
        Members.optionalText(o, "agreement_id"),
        "PASS".equals(Members.text(determination, "result", WHAT + "'s determination")),
        Members.decimal(determination, "payment_release_percent", WHAT + "'s determination"),
        Members.optionalDecimal(determination, "confidence"),
        Members.optionalText(determination, "notes").orElse(""),
        new Composite(
            Members.decimal(composite, "score", what),
            Members.decimal(composite, "threshold", what),
            Members.bool(composite, "passed", what),
            Members.optionalText(composite, "method")),
        dimensions,
        o);
  }

  /**
   * The dimension called {@code name}.
   *
   * @param name a dimension's name, e.g. {@code accuracy}
   * @return it, or empty when the result has no such dimension
   */
  public Optional<Dimension> dimension(String name) {
    return dimensions.stream().filter(d -> d.name().equals(name)).findFirst();
  }

  /**
   * The whole result, a copy: change it freely.
   *
   * @return the result as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
