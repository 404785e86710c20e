package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.lifecycle.State;
import java.util.List;
import java.util.Objects;

/**
 * An agreement as the server answers it after a read or a change ({@code GET /agreements/{id}},
 * create, sign, negotiate, fund, deliver, challenge, close, ruling): the envelope {@code
 * {agreement_id, state, version, agreement_hash, allowed_actions, agreement}}.
 *
 * @param id the agreement's id ({@code agreement_id})
 * @param state its lifecycle state
 * @param version grows with every change (the {@code ETag})
 * @param agreementHash {@code sha256:...} over the terms: what both parties sign
 * @param allowedActions what a caller may ask for next in this state, e.g. {@code sign}, {@code
 *     deliver}
 * @param document the agreement document itself (terms, signatures, status, metadata), a copy
 * @param json the whole answer as received, a copy, for members this type does not name
 */
public record AgreementView(
    String id,
    State state,
    long version,
    String agreementHash,
    List<String> allowedActions,
    ObjectNode document,
    ObjectNode json) {

  private static final String WHAT = "an agreement envelope";

  /** Checks that nothing is null and keeps private copies of the JSON trees. */
  public AgreementView {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(agreementHash, "agreementHash");
    allowedActions = List.copyOf(allowedActions);
    document = Objects.requireNonNull(document, "document").deepCopy();
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * Reads an envelope.
   *
   * @param answer the body of one of the routes above
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static AgreementView from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new AgreementView(
        Members.text(o, "agreement_id", WHAT),
        Members.state(o, "state", WHAT),
        Members.integer(o, "version", WHAT),
        Members.text(o, "agreement_hash", WHAT),
        Members.texts(o, "allowed_actions", WHAT),
        Members.child(o, "agreement", WHAT),
        o);
  }

  /**
   * The agreement document, a copy: change it freely.
   *
   * @return the {@code agreement} member
   */
  @Override
  public ObjectNode document() {
    return document.deepCopy();
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

  /**
   * Whether the document carries {@code party}'s signature over the current terms.
   *
   * @param party {@link Role#CLIENT} or {@link Role#PROVIDER}
   * @return true once that party signed
   */
  public boolean signedBy(Role party) {
    return document.path("signatures").has(party.wireName());
  }

  /**
   * Whether {@code action} is among {@link #allowedActions()}.
   *
   * @param action an action's wire name, e.g. {@code fund}
   * @return true when the server would consider it in this state
   */
  public boolean allows(String action) {
    return allowedActions.contains(action);
  }
}
