package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agreement routes with typed answers: one party's view of its agreements, acting with the key
 * of the {@link AsaClient} it came from ({@link AsaClient#agreements()}), and the reads around them
 * (the templates agreements start from, the market median prices they are negotiated against, the
 * reputation and the ledger account their parties build up).
 *
 * <pre>{@code
 * Agreements client = AsaClient.connect(server, clientKey).agreements();
 * AgreementView created = client.create(AgreementBuilder.template("general")...build());
 * client.sign(created.id(), Role.CLIENT);
 * AgreementStatus status = client.status(created.id());
 * }</pre>
 *
 * <p>Every method throws {@link AsaApiException} when the server refuses the request ({@link
 * AsaApiException#status()} 4xx or 5xx, with the problem's {@link AsaApiException#kind()} and
 * {@link AsaApiException#detail()}), when it cannot be reached or does not answer in time (status
 * 0, {@link AsaApiException#isUnreachable()}), and when its answer is not what the route answers
 * (an answer without a member the typed view needs: the message names the member). The untyped
 * {@link AsaClient} methods remain for routes and members these views do not cover; every view
 * keeps the whole answer in its {@code json()}.
 */
public final class Agreements {

  private final AsaClient asa;
  private final Ed25519PrivateKey key; // null: unsigned, public routes only

  Agreements(AsaClient asa, Ed25519PrivateKey key) {
    this.asa = asa;
    this.key = key;
  }

  /**
   * Proposes a new agreement ({@code POST /agreements}); the signing key must be the one in {@code
   * parties.client}.
   *
   * @param doc the document, e.g. from {@link AgreementBuilder}; may be partial and name a {@code
   *     template}
   * @return the created agreement, {@code PROPOSED}
   * @throws AsaApiException e.g. 422 {@code invalid-document} with one field error per problem, 403
   *     when the key is not the client's
   */
  public AgreementView create(JsonNode doc) {
    return create(doc, null);
  }

  /**
   * As {@link #create(JsonNode)}; a repeat with the same key and body replays the first answer.
   *
   * @param doc the document
   * @param idempotencyKey the {@code Idempotency-Key}; null for none
   * @return the created agreement
   * @throws AsaApiException as for {@link #create(JsonNode)}, and 422 when the idempotency key was
   *     used with another body
   */
  public AgreementView create(JsonNode doc, String idempotencyKey) {
    return typed(
        "POST /agreements", () -> asa.createAgreement(doc, idempotencyKey), AgreementView::from);
  }

  /**
   * Reads an agreement ({@code GET /agreements/{id}}).
   *
   * @param id the agreement's id
   * @return the agreement, its state, version, hash and allowed actions
   * @throws AsaApiException 404 when there is no such agreement or this key takes no part in it
   */
  public AgreementView get(String id) {
    return typed("GET /agreements/" + id, () -> asa.agreement(id), AgreementView::from);
  }

  /**
   * Where an agreement stands ({@code GET /agreements/{id}/status}).
   *
   * @param id the agreement's id
   * @return state, signatures, deadlines, the latest verdict and the payment
   * @throws AsaApiException 404 when there is no such agreement or this key takes no part in it
   */
  public AgreementStatus status(String id) {
    return typed("GET /agreements/" + id + "/status", () -> asa.status(id), AgreementStatus::from);
  }

  /**
   * Signs the agreement's current terms as {@code role} with this client's own key: reads the
   * {@code agreement_hash}, signs it here (the private key never leaves this process) and posts the
   * signature naming that hash, so terms that changed in between give 409 rather than a signature
   * over terms never read. The second signature makes the agreement {@code ACTIVE}.
   *
   * @param id the agreement's id
   * @param role {@link Role#CLIENT} or {@link Role#PROVIDER}: the slot this key holds
   * @return the agreement after the signature
   * @throws IllegalArgumentException if {@code role} is the evaluator (it judges, it does not sign)
   * @throws IllegalStateException if this client has no key
   * @throws AsaApiException 403 when the key is not that party's, 409 when the terms moved or the
   *     state does not allow signing
   */
  public AgreementView sign(String id, Role role) {
    Ed25519PrivateKey signingKey = requireKey("sign");
    return typed(
        "POST /agreements/" + id + "/sign",
        () -> asa.sign(id, role, signingKey),
        AgreementView::from);
  }

  /**
   * Funds the escrow with the agreement's amount ({@code POST /agreements/{id}/fund}, the client's
   * call; the ledger and http_callback bindings need nothing more).
   *
   * @param id the agreement's id
   * @return the agreement after funding
   * @throws AsaApiException 403 when the key is not the client's, 409 when it is not {@code ACTIVE}
   *     or is funded already, 503 when the payment system is unavailable
   */
  public AgreementView fund(String id) {
    return typed("POST /agreements/" + id + "/fund", () -> asa.fund(id), AgreementView::from);
  }

  /**
   * Stakes the collateral the terms ask for ({@code POST /agreements/{id}/collateral}, the
   * provider's call, before delivering; the ledger binding needs nothing more).
   *
   * @param id the agreement's id
   * @return the agreement after staking
   * @throws AsaApiException 403 when the key is not the provider's, 409 when the terms ask for no
   *     collateral, it is staked already or the agreement is not {@code ACTIVE}
   */
  public AgreementView stakeCollateral(String id) {
    return typed(
        "POST /agreements/" + id + "/collateral",
        () -> asa.stakeCollateral(id),
        AgreementView::from);
  }

  /**
   * Delivers inline content ({@code POST /agreements/{id}/deliver}, the provider's call).
   *
   * @param id the agreement's id
   * @param content the deliverable
   * @param format e.g. {@code markdown}, {@code json}; null for the agreement's deliverable format
   * @return the agreement, {@code DELIVERED}
   * @throws AsaApiException 403 when the key is not the provider's, 409 when the escrow is not
   *     funded yet, the collateral not staked, or the state does not allow delivery, 422 when the
   *     content is not of its format
   */
  public AgreementView deliver(String id, String content, String format) {
    return typed(
        "POST /agreements/" + id + "/deliver",
        () -> asa.deliver(id, content, format),
        AgreementView::from);
  }

  /**
   * Submits the evaluator's scores ({@code POST /agreements/{id}/verify} with an {@code
   * evaluator_result}, the evaluator's call); the server adds what it measures itself (format,
   * timeliness) and decides.
   *
   * @param id the agreement's id
   * @param scores the evaluator's scores
   * @return the agreement's new state and the result
   * @throws AsaApiException 403 when the key is not the evaluator's, 409 when the agreement is not
   *     {@code DELIVERED} or its evaluator answers through its work queue, 422 naming the pointer
   *     of a score that does not fit the criteria
   */
  public VerifyOutcome verify(String id, EvaluatorScores scores) {
    Objects.requireNonNull(scores, "scores");
    return typed(
        "POST /agreements/" + id + "/verify",
        () -> asa.verify(id, scores.toJson()),
        VerifyOutcome::from);
  }

  /**
   * Asks the server's own evaluators to verify ({@code POST /agreements/{id}/verify} without
   * scores) at the depth the terms set. When the server runs it as a job (semantic and composite
   * depth), waits for the job, up to the client's request timeout.
   *
   * @param id the agreement's id
   * @return the agreement's new state and the result
   * @throws AsaApiException 409 when the agreement is not {@code DELIVERED}; 422 when the job
   *     failed, saying why; status 0 when the job did not finish in time
   */
  public VerifyOutcome verify(String id) {
    ObjectNode answer = asa.verify(id);
    if (!AsaClient.isPending(answer)) {
      return typed("POST /agreements/" + id + "/verify", () -> answer, VerifyOutcome::from);
    }
    ObjectNode result =
        asa.awaitVerification(
            answer.path("verification_id").asText(), asa.requestTimeout(), progress -> {});
    VerificationView verification =
        typed(
            "GET /verifications/" + answer.path("verification_id").asText(),
            () -> result,
            VerificationView::from);
    AgreementView after = get(id);
    ObjectNode outcome = Json.object();
    outcome.put("agreement_id", after.id());
    outcome.put("state", after.state().name());
    outcome.set("verification", result);
    return new VerifyOutcome(after.id(), after.state(), verification, outcome);
  }

  /**
   * The latest verification result of an agreement ({@code GET /agreements/{id}/verification}).
   *
   * @param id the agreement's id
   * @return the result
   * @throws AsaApiException 404 when it has none yet, or this key may not read it
   */
  public VerificationView verification(String id) {
    return typed(
        "GET /agreements/" + id + "/verification",
        () -> asa.verification(id),
        VerificationView::from);
  }

  /**
   * The agreement's escrow ({@code GET /agreements/{id}/escrow}).
   *
   * @param id the agreement's id
   * @return status, balances and transfers
   * @throws AsaApiException 404 when there is no such agreement or this key takes no part in it
   */
  public EscrowView escrow(String id) {
    return typed("GET /agreements/" + id + "/escrow", () -> asa.escrow(id), EscrowView::from);
  }

  /**
   * The agreement's event log ({@code GET /agreements/{id}/events}); check its chain with {@link
   * EventLog#firstBreak()}.
   *
   * @param id the agreement's id
   * @return its events, oldest first
   * @throws AsaApiException 404 when there is no such agreement or this key takes no part in it
   */
  public EventLog events(String id) {
    return typed("GET /agreements/" + id + "/events", () -> asa.events(id), EventLog::from);
  }

  /**
   * The negotiation as a transcript ({@code GET /agreements/{id}/negotiation}): every counter,
   * acceptance and rejection, each changed term before and after.
   *
   * @param id the agreement's id
   * @return the rounds, oldest first
   * @throws AsaApiException 404 when there is no such agreement or this key takes no part in it
   */
  public NegotiationTranscript negotiation(String id) {
    return typed(
        "GET /agreements/" + id + "/negotiation",
        () -> asa.negotiation(id),
        NegotiationTranscript::from);
  }

  /**
   * The service templates an agreement can start from ({@code GET /templates}); public.
   *
   * @return every template, in the server's order
   * @throws AsaApiException when the server cannot be reached (status 0)
   */
  public List<TemplateView> templates() {
    return typed("GET /templates", asa::templates, TemplateView::listFrom);
  }

  /**
   * One service template ({@code GET /templates/{type}}); public.
   *
   * @param type the service type, e.g. {@code general}
   * @return the template
   * @throws AsaApiException 404 naming the templates there are, for a type without one
   */
  public TemplateView template(String type) {
    return typed("GET /templates/" + type, () -> asa.template(type), TemplateView::from);
  }

  /**
   * The market median prices of a service type ({@code GET /market/{service_type}}), from the
   * server's closed agreements: what negotiations of that type are price-flagged against.
   *
   * @param serviceType a service type, e.g. {@code general}
   * @return one median per currency with enough distinct pairs, or why there is none
   * @throws AsaApiException 400 or 422 for a service type the server cannot read
   */
  public MarketView market(String serviceType) {
    return typed("GET /market/" + serviceType, () -> asa.market(serviceType), MarketView::from);
  }

  /**
   * The reputation an identity earned on the server ({@code GET /reputation}), as ARP signals the
   * server signed, the trusted issuers' signals and the combined figures; public. Only agreements
   * whose {@code result_visibility} is {@code parties_and_arp} or {@code public} count.
   *
   * @param scheme the identity's scheme, e.g. {@code did} or {@code api_key}
   * @param value the identity's value, e.g. a {@code did:key}
   * @return the reputation; an identity with no history has no signals
   * @throws AsaApiException 422 for a scheme or value the server cannot read
   */
  public ReputationView reputation(String scheme, String value) {
    return typed("GET /reputation", () -> asa.reputation(scheme, value), ReputationView::from);
  }

  /**
   * A key's ledger account ({@code GET /accounts/{key}}): its balances and newest entries.
   *
   * @param key a public key, base64url or did:key: this client's own, unless it is the operator
   * @return the account
   * @throws AsaApiException 403 when this key is neither that key nor the operator's
   */
  public AccountView account(String key) {
    return typed("GET /accounts/" + key, () -> asa.account(key), AccountView::from);
  }

  /**
   * Contests the verification result inside the challenge window ({@code POST
   * /agreements/{id}/challenge}).
   *
   * @param id the agreement's id
   * @param role the slot this key holds, client or provider
   * @param reasonCode e.g. {@code quality_below_agreed_slo}, {@code evaluator_error}
   * @return the agreement, {@code DISPUTED}
   * @throws AsaApiException 409 when the window is closed or the state does not allow it
   */
  public AgreementView challenge(String id, Role role, String reasonCode) {
    return typed(
        "POST /agreements/" + id + "/challenge",
        () -> asa.challenge(id, role, reasonCode),
        AgreementView::from);
  }

  /**
   * Closes a verified agreement once its challenge window has passed, settling the payment ({@code
   * POST /agreements/{id}/close}); the server also closes it by itself when the window ends.
   *
   * @param id the agreement's id
   * @return the agreement, {@code CLOSED}
   * @throws AsaApiException 409 while the window is open
   */
  public AgreementView close(String id) {
    return typed("POST /agreements/" + id + "/close", () -> asa.close(id), AgreementView::from);
  }

  /**
   * One page of the agreements in which {@code party} takes part and this key holds a party's key
   * ({@code GET /agreements?party=}), newest first.
   *
   * @param party an identity value, e.g. a {@code did:key}
   * @param cursor the previous page's {@link AgreementPage#nextCursor()}, or null for the first
   * @param limit the page size; 0 or less lets the server choose
   * @return the page
   * @throws AsaApiException 400 for a bad cursor or limit
   */
  public AgreementPage list(String party, String cursor, int limit) {
    return typed("GET /agreements", () -> asa.list(party, cursor, limit), AgreementPage::from);
  }

  /**
   * As {@link #list(String, String, int)}, keeping the agreements the filter keeps; with the
   * operator's key {@code party} may be null for every agreement. A page may hold fewer items than
   * {@code limit} and still have a next cursor.
   *
   * @param party an identity value, or null (the operator key only)
   * @param filter what to narrow to, {@link ListFilter#NONE} for nothing
   * @param cursor the previous page's {@link AgreementPage#nextCursor()}, or null for the first
   * @param limit the page size; 0 or less lets the server choose
   * @return the page
   * @throws AsaApiException 400 naming a parameter whose value the server cannot use
   */
  public AgreementPage list(String party, ListFilter filter, String cursor, int limit) {
    return typed(
        "GET /agreements", () -> asa.list(party, filter, cursor, limit), AgreementPage::from);
  }

  private Ed25519PrivateKey requireKey(String what) {
    if (key == null) {
      throw new IllegalStateException(
          "cannot "
              + what
              + " without a key; connect with AsaClient.connect(server, key) or"
              + " asa.withKey(key)");
    }
    return key;
  }

  private <T> T typed(String route, Supplier<ObjectNode> call, Function<JsonNode, T> from) {
    return AsaClient.typed(route, call, from);
  }
}
