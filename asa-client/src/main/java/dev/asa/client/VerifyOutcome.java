package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.State;
import java.util.Objects;

/**
 * The answer of a verification that finished at once ({@code POST /agreements/{id}/verify}, 200):
 * the agreement's new state and the result.
 *
 * @param agreementId the agreement verified
 * @param state its state after the verification, usually {@code VERIFIED}
 * @param verification the result
 * @param json the whole answer, a copy
 */
public record VerifyOutcome(
    String agreementId, State state, VerificationView verification, ObjectNode json) {

  private static final String WHAT = "a verify answer";

  /** Checks that nothing is null and keeps a private copy of the JSON. */
  public VerifyOutcome {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(verification, "verification");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * Reads a verify answer.
   *
   * @param answer the body of {@code POST /agreements/{id}/verify}
   * @return the view
   * @throws IllegalArgumentException if the answer is a verification job still running (the
   *     semantic and composite depths answer one: follow it with {@link
   *     AsaClient#awaitVerification}) or lacks a member named above
   */
  public static VerifyOutcome from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    if (AsaClient.isPending(o)) {
      throw new IllegalArgumentException(
          "the server runs this verification as job "
              + o.path("verification_id").asText("?")
              + " (status "
              + o.path("status").asText()
              + "), so it has no result yet; follow it with AsaClient.awaitVerification");
    }
    return new VerifyOutcome(
        Members.text(o, "agreement_id", WHAT),
        Members.state(o, "state", WHAT),
        VerificationView.from(Members.child(o, "verification", WHAT)),
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
