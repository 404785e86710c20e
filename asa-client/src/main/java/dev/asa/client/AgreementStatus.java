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
 * deadlines, what was delivered, the latest verdict, a dispute and its ruling, and where the money
 * is. The collateral and the payment messages are in {@link #json()}.
 *
 * @param id the agreement's id
 * @param state its lifecycle state
 * @param version grows with every change
 * @param agreementHash {@code sha256:...} over the terms
 * @param allowedActions what a caller may ask for next in this state
 * @param signedByClient whether the client's signature is on the current terms
 * @param signedByProvider whether the provider's signature is on the current terms
 * @param judgedBy who gives the verdict, when the server says
 * @param activatedAt when the second signature made it {@code ACTIVE}, once it did
 * @param expiresAt when the agreement expires, if its terms say
 * @param challengeWindowClosesAt when the challenge window of the latest verification closes, once
 *     there is one
 * @param challengeWindowOpen whether that window is open now
 * @param delivery the latest deliverable, once there is one
 * @param verdict the latest verification's verdict, once there is one
 * @param dispute the dispute, once a party filed one
 * @param ruling the ruling that closed a dispute, once there is one
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
    Optional<JudgedBy> judgedBy,
    Optional<Instant> activatedAt,
    Optional<Instant> expiresAt,
    Optional<Instant> challengeWindowClosesAt,
    boolean challengeWindowOpen,
    Optional<Delivery> delivery,
    Optional<Verdict> verdict,
    Optional<Dispute> dispute,
    Optional<Ruling> ruling,
    Payment payment,
    ObjectNode json) {

  private static final String WHAT = "an agreement status";

  /** Checks that nothing is null and keeps a private copy of the JSON. */
  public AgreementStatus {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(agreementHash, "agreementHash");
    allowedActions = List.copyOf(allowedActions);
    Objects.requireNonNull(judgedBy, "judgedBy");
    Objects.requireNonNull(activatedAt, "activatedAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(challengeWindowClosesAt, "challengeWindowClosesAt");
    Objects.requireNonNull(delivery, "delivery");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(dispute, "dispute");
    Objects.requireNonNull(ruling, "ruling");
    Objects.requireNonNull(payment, "payment");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * What the latest verification decided (the status's {@code "verification"} member).
   *
   * @param verificationId the result's id; read it whole with {@link
   *     Agreements#verification(String)}
   * @param result the determination as the server words it, {@code PASS} or {@code FAIL}
   * @param passed whether the determination is PASS
   * @param composite the composite score, when the criteria have one
   * @param releasePercent the share of the payment released to the provider, 0 to 100
   * @param verifiedAt when it was recorded
   */
  public record Verdict(
      String verificationId,
      String result,
      boolean passed,
      Optional<BigDecimal> composite,
      BigDecimal releasePercent,
      Instant verifiedAt) {

    /** Checks that nothing is null. */
    public Verdict {
      Objects.requireNonNull(verificationId, "verificationId");
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(composite, "composite");
      Objects.requireNonNull(releasePercent, "releasePercent");
      Objects.requireNonNull(verifiedAt, "verifiedAt");
    }

    static Verdict from(JsonNode v) {
      String what = "the verification of an agreement status";
      String result = Members.text(v, "result", what);
      return new Verdict(
          Members.text(v, "verification_id", what),
          result,
          "PASS".equals(result),
          Members.optionalDecimal(v, "composite"),
          Members.decimal(v, "payment_release_percent", what),
          Members.instant(v, "verified_at", what));
    }
  }

  /**
   * Who gives the verdict ({@code judged_by}): the server's built-in evaluator, or another judge.
   *
   * @param builtin whether asking the server's built-in evaluator to verify can succeed
   * @param because why, in a sentence for people
   */
  public record JudgedBy(boolean builtin, String because) {

    /** Checks that nothing is null. */
    public JudgedBy {
      Objects.requireNonNull(because, "because");
    }

    static JudgedBy from(JsonNode j) {
      String what = "the judged_by of an agreement status";
      return new JudgedBy(j.path("builtin").asBoolean(false), Members.text(j, "because", what));
    }
  }

  /**
   * The latest deliverable ({@code deliverable}): what was delivered and when; the content itself
   * is not part of the status.
   *
   * @param deliveredAt when it was delivered
   * @param contentHash {@code sha256:...} over the content
   * @param sizeBytes its size, when known
   * @param format its format, e.g. {@code markdown}, when stated
   */
  public record Delivery(
      Instant deliveredAt, String contentHash, Optional<Long> sizeBytes, Optional<String> format) {

    /** Checks that nothing is null. */
    public Delivery {
      Objects.requireNonNull(deliveredAt, "deliveredAt");
      Objects.requireNonNull(contentHash, "contentHash");
      Objects.requireNonNull(sizeBytes, "sizeBytes");
      Objects.requireNonNull(format, "format");
    }

    static Delivery from(JsonNode d) {
      String what = "the deliverable of an agreement status";
      return new Delivery(
          Members.instant(d, "delivered_at", what),
          Members.text(d, "content_hash", what),
          Members.optionalInteger(d, "size_bytes"),
          Members.optionalText(d, "format"));
    }
  }

  /**
   * A dispute ({@code dispute}), as the party's challenge or the server's own escalation recorded
   * it. Its time is kept as recorded, since a dispute may come from outside this server.
   *
   * @param filedBy who filed it, {@code client} or {@code provider}, when the record says
   * @param filedAt when it was filed, as recorded (an RFC 3339 time)
   * @param reasonCode why, e.g. {@code quality_below_agreed_slo}
   */
  public record Dispute(Optional<String> filedBy, String filedAt, String reasonCode) {

    /** Checks that nothing is null. */
    public Dispute {
      Objects.requireNonNull(filedBy, "filedBy");
      Objects.requireNonNull(filedAt, "filedAt");
      Objects.requireNonNull(reasonCode, "reasonCode");
    }

    /** Its filer is {@code filed_by}, or the older {@code party}. */
    static Dispute from(JsonNode d) {
      String what = "the dispute of an agreement status";
      return new Dispute(
          Members.optionalText(d, "filed_by")
              .or(() -> Members.optionalText(d, "party"))
              .filter(by -> !by.isBlank()),
          Members.text(d, "filed_at", what),
          Members.text(d, "reason_code", what));
    }
  }

  /**
   * The ruling that closed a dispute ({@code ruling}). Its time is kept as recorded, since a ruling
   * may come from an outside arbiter.
   *
   * @param releasePercent the share of the payment released to the provider, 0 to 100
   * @param ruledBy who ruled, e.g. {@code arbiter}
   * @param ruledAt when, as recorded (an RFC 3339 time)
   * @param reason why; empty when the ruling gives no reason
   */
  public record Ruling(BigDecimal releasePercent, String ruledBy, String ruledAt, String reason) {

    /** Checks that nothing is null. */
    public Ruling {
      Objects.requireNonNull(releasePercent, "releasePercent");
      Objects.requireNonNull(ruledBy, "ruledBy");
      Objects.requireNonNull(ruledAt, "ruledAt");
      Objects.requireNonNull(reason, "reason");
    }

    static Ruling from(JsonNode r) {
      String what = "the ruling of an agreement status";
      return new Ruling(
          Members.decimal(r, "release_percent", what),
          Members.text(r, "ruled_by", what),
          Members.text(r, "ruled_at", what),
          Members.optionalText(r, "reason").orElse(""));
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
    return new AgreementStatus(
        Members.text(o, "agreement_id", WHAT),
        Members.state(o, "state", WHAT),
        Members.integer(o, "version", WHAT),
        Members.text(o, "agreement_hash", WHAT),
        Members.texts(o, "allowed_actions", WHAT),
        signatures.path("client").asBoolean(false),
        signatures.path("provider").asBoolean(false),
        Members.optionalChild(o, "judged_by").map(JudgedBy::from),
        Members.optionalInstant(o, "activated_at"),
        Members.optionalInstant(deadlines, "expires_at"),
        Members.optionalInstant(deadlines, "challenge_window_closes_at"),
        deadlines.path("challenge_window_open").asBoolean(false),
        Members.optionalChild(o, "deliverable").map(Delivery::from),
        Members.optionalChild(o, "verification").map(Verdict::from),
        Members.optionalChild(o, "dispute").map(Dispute::from),
        Members.optionalChild(o, "ruling").map(Ruling::from),
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
