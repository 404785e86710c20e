package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where an agreement stands ({@code GET /agreements/{id}/status}): its state, who signed, its
 * deadlines, the latest verdict and where the money is. The deliverable, a dispute and the payment
 * messages are in {@link #json()}.
 *
 * @param id the agreement's id
 * @param state its lifecycle state
 * @param version grows with every change
 * @param agreementHash {@code sha256:...} over the terms
 * @param allowedActions what a caller may ask for next in this state
 * @param signedByClient whether the client's signature is on the current terms
 * @param signedByProvider whether the provider's signature is on the current terms
 * @param expiresAt when the agreement expires, if its terms say
 * @param challengeWindowClosesAt when the challenge window of the latest verification closes, once
 *     there is one
 * @param verdict the latest verification's verdict, once there is one
 * @param payment where the money stands
 * @param json the whole answer, a copy, for members this type does not name
 */
public record AgreementStatus(
    String id,
    State state,
    long version,
    String agreementHash,
    List<String> allowedActions,
    boolean signedByClient,
    boolean signedByProvider,
    Optional<Instant> expiresAt,
    Optional<Instant> challengeWindowClosesAt,
    Optional<Verdict> verdict,
    Payment payment,
    ObjectNode json) {

  private static final String WHAT = "an agreement status";

  /** Checks that nothing is null and keeps a private copy of the JSON. */
  public AgreementStatus {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(agreementHash, "agreementHash");
    allowedActions = List.copyOf(allowedActions);
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(challengeWindowClosesAt, "challengeWindowClosesAt");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(payment, "payment");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * What the latest verification decided (the status's {@code "verification"} member).
   *
   * @param verificationId the result's id; read it whole with {@link
   *     Agreements#verification(String)}
   * @param passed whether the determination is PASS
   * @param composite the composite score, when the criteria have one
   * @param releasePercent the share of the payment released to the provider, 0 to 100
   * @param verifiedAt when it was recorded
   */
  public record Verdict(
      String verificationId,
      boolean passed,
      Optional<BigDecimal> composite,
      BigDecimal releasePercent,
      Instant verifiedAt) {

    /** Checks that nothing is null. */
    public Verdict {
      Objects.requireNonNull(verificationId, "verificationId");
      Objects.requireNonNull(composite, "composite");
      Objects.requireNonNull(releasePercent, "releasePercent");
      Objects.requireNonNull(verifiedAt, "verifiedAt");
    }

    static Verdict from(JsonNode v) {
      String what = "the verification of an agreement status";
      return new Verdict(
          Members.text(v, "verification_id", what),
          "PASS".equals(Members.text(v, "result", what)),
          Members.optionalDecimal(v, "composite"),
          Members.decimal(v, "payment_release_percent", what),
          Members.instant(v, "verified_at", what));
    }
  }

  /**
   * Where the money stands ({@code payment} of the status). Amounts are exact decimals, as written
   * by the server ({@code 8.50}).
   *
   * @param status e.g. {@code not_yet_due}, {@code unfunded}, {@code held}, {@code frozen} (a
   *     dispute), {@code settled}, {@code escrow_disabled}, {@code no_payment_terms}
   * @param amount what the escrow holds in all, when the terms name a payment
   * @param currency its currency code, when the terms name a payment
   * @param releasedToProvider paid to the provider once settled
   * @param refundedToClient returned to the client once settled
   */
  public record Payment(
      String status,
      Optional<BigDecimal> amount,
      Optional<String> currency,
      Optional<BigDecimal> releasedToProvider,
      Optional<BigDecimal> refundedToClient) {

    /** Checks that nothing is null. */
    public Payment {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(releasedToProvider, "releasedToProvider");
      Objects.requireNonNull(refundedToClient, "refundedToClient");
    }

    static Payment from(JsonNode p) {
      return new Payment(
          Members.text(p, "status", "the payment of an agreement status"),
          Members.optionalDecimal(p, "amount"),
          Members.optionalText(p, "currency"),
          Members.optionalDecimal(p, "released_to_provider"),
          Members.optionalDecimal(p, "refunded_to_client"));
    }
  }

  /**
   * Reads a status answer.
   *
   * @param answer the body of {@code GET /agreements/{id}/status}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static AgreementStatus from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    JsonNode signatures = o.path("signatures");
    JsonNode deadlines = o.path("deadlines");
    JsonNode verification = o.path("verification");
    return new AgreementStatus(
        Members.text(o, "agreement_id", WHAT),
        Members.state(o, "state", WHAT),
        Members.integer(o, "version", WHAT),
        Members.text(o, "agreement_hash", WHAT),
        Members.texts(o, "allowed_actions", WHAT),
        signatures.path("client").asBoolean(false),
        signatures.path("provider").asBoolean(false),
        Members.optionalInstant(deadlines, "expires_at"),
        Members.optionalInstant(deadlines, "challenge_window_closes_at"),
        verification.isObject() ? Optional.of(Verdict.from(verification)) : Optional.empty(),
        Payment.from(Members.child(o, "payment", WHAT)),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
