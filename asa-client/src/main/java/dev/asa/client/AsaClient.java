package dev.asa.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.signedrequests.RequestSigner;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The ASA HTTP API as Java calls: one method per endpoint, JSON in and out as Jackson trees. For
 * typed answers use {@link #agreements()} (agreements, their templates, market medians, reputations
 * and ledger accounts: {@link AgreementView}, {@link AgreementStatus}, {@link VerificationView},
 * {@link EscrowView}, {@link NegotiationTranscript}, {@link TemplateView}, ...), {@link
 * #evaluatorQueue()} (an evaluator's work), {@link #registry()} (the evaluator registry: {@link
 * EvaluatorView}) and {@link #admin()} (the operator's routes: {@link ServerHealth}, {@link
 * CanarySet}, {@link ArchiveView}).
 *
 * <p>Every method that calls the server throws {@link AsaApiException}: for an answer outside 2xx,
 * carrying the server's problem document ({@link AsaApiException#status()}, {@link
 * AsaApiException#kind()} such as {@code invalid-document}, {@link AsaApiException#detail()}, the
 * field {@link AsaApiException#errors()}); for a server that cannot be reached, does not answer in
 * time or is interrupted (status 0, {@link AsaApiException#isUnreachable()}, the I/O failure as its
 * cause); and for a 2xx answer that is not a JSON object. Nothing is retried behind the caller's
 * back: a retried mutation is only safe with an idempotency key, and only the caller knows whether
 * it wants one.
 *
 * <p>Instances are immutable and thread-safe; {@link #withKey} makes another one that shares the
 * connections.
 *
 * <pre>{@code
 * AsaClient asa = AsaClient.connect(URI.create("http://127.0.0.1:8080"), clientKey);
 * ObjectNode created = asa.createAgreement(AgreementBuilder.template("general")...build());
 * asa.sign(created.get("agreement_id").asText(), Role.CLIENT, clientKey);
 * }</pre>
 */
public final class AsaClient {

  /** How long to wait for a connection to the server. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** Generous, because verification may wait for an evaluator model on the server side. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(2);

  private static final String USER_AGENT = "asa-client/0.1";

  private final URI server;
  private final HttpClient http;
  private final Duration requestTimeout;
  private final RequestSigner signer; // null: requests go unsigned (public routes only)
  private final Ed25519PrivateKey key; // the signer's key, for Agreements.sign; null with no signer

  private AsaClient(
      URI server,
      HttpClient http,
      Duration requestTimeout,
      RequestSigner signer,
      Ed25519PrivateKey key) {
    this.server = server;
    this.http = http;
    this.requestTimeout = requestTimeout;
    this.signer = signer;
    this.key = key;
  }

  /**
   * A client that signs every request with {@code key} (RFC 9421, as the server requires for all
   * but its public routes). Shares this client's connections.
   *
   * @param key the caller's Ed25519 key: the server knows the caller by its public key
   * @return a new client; this one is unchanged
   */
  public AsaClient withKey(Ed25519PrivateKey key) {
    return withKey(key, Clock.systemUTC());
  }

  /**
   * As {@link #withKey(Ed25519PrivateKey)}, stamping signatures with {@code clock}'s time (the
   * server refuses a {@code created} more than 300 s from its own clock; tests that move the
   * server's clock sign with the same one).
   *
   * @param key the caller's Ed25519 key
   * @param clock the time written into each signature's {@code created}
   * @return a new client; this one is unchanged
   */
  public AsaClient withKey(Ed25519PrivateKey key, Clock clock) {
    return new AsaClient(
        server,
        http,
        requestTimeout,
        new RequestSigner(Objects.requireNonNull(key, "key"), clock, new SecureRandom()),
        key);
  }

  /**
   * A client for {@code server} that signs every request with {@code key}. Does not connect yet.
   *
   * @param server the server's address, e.g. {@code http://127.0.0.1:8080}
   * @param key the caller's Ed25519 key
   * @return the client
   * @throws IllegalArgumentException if {@code server} is not an http(s) URL with a host
   */
  public static AsaClient connect(URI server, Ed25519PrivateKey key) {
    return connect(server).withKey(key);
  }

  /**
   * A client for the server at {@code server} that signs nothing (public routes only, until {@link
   * #withKey}). Does not connect yet.
   *
   * @param server the server's address, e.g. {@code http://127.0.0.1:8080}
   * @return the client
   * @throws IllegalArgumentException if {@code server} is not an http(s) URL with a host
   */
  public static AsaClient connect(URI server) {
    return connect(server, DEFAULT_REQUEST_TIMEOUT);
  }

  /**
   * As {@link #connect(URI)}, waiting up to {@code requestTimeout} for each answer (default {@link
   * #DEFAULT_REQUEST_TIMEOUT}).
   *
   * @param server the server's address
   * @param requestTimeout how long to wait for one answer; past it a call fails with status 0
   * @return the client
   * @throws IllegalArgumentException if {@code server} is not an http(s) URL with a host
   */
  public static AsaClient connect(URI server, Duration requestTimeout) {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(DEFAULT_CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    return new AsaClient(
        baseUri(server),
        http,
        Objects.requireNonNull(requestTimeout, "requestTimeout"),
        null,
        null);
  }

  /**
   * The server's base address.
   *
   * @return the address, without a trailing slash
   */
  public URI server() {
    return server;
  }

  /**
   * The agreement routes with typed answers, acting with this client's key.
   *
   * @return a view of the agreement routes; cheap, make one whenever convenient
   */
  public Agreements agreements() {
    return new Agreements(this, key);
  }

  /**
   * The evaluator work queue with typed answers, acting with this client's key (the evaluator's).
   *
   * @return a view of the work-queue routes; cheap, make one whenever convenient
   */
  public EvaluatorQueue evaluatorQueue() {
    return new EvaluatorQueue(this);
  }

  /**
   * The evaluator registry with typed answers, acting with this client's key: an evaluator
   * registers itself, anyone who signs reads the registry, the operator suspends and reinstates.
   *
   * @return a view of the registry routes; cheap, make one whenever convenient
   */
  public EvaluatorRegistry registry() {
    return new EvaluatorRegistry(this);
  }

  /**
   * The operator's routes with typed answers, acting with this client's key (the operator's).
   *
   * @return a view of the admin routes; cheap, make one whenever convenient
   */
  public Admin admin() {
    return new Admin(this);
  }

  /**
   * Calls a route and reads its answer into a typed view; an answer without what the view needs
   * becomes an {@link AsaApiException} naming the route, since the caller can do nothing about it
   * but look.
   */
  static <T> T typed(
      String route,
      java.util.function.Supplier<ObjectNode> call,
      java.util.function.Function<JsonNode, T> from) {
    ObjectNode answer = call.get();
    try {
      return from.apply(answer);
    } catch (IllegalArgumentException e) {
      throw AsaApiException.unusable(route, answer, e);
    }
  }

  /** How long a call waits for its answer. */
  Duration requestTimeout() {
    return requestTimeout;
  }

  // ---- reads ------------------------------------------------------------------------------

  /**
   * {@code GET /health}: whether the server is alive.
   *
   * @return {@code {"status": "ok"}}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode health() {
    return get("/health");
  }

  /**
   * {@code GET /ready}: whether the server can serve (database reachable, migrations applied).
   *
   * @return {@code {"status": "ready", "checks": {...}}}
   * @throws AsaApiException 503 {@code not-ready} when it is not, the problem's {@code checks}
   *     naming the failing check; status 0 when it cannot be reached
   */
  public ObjectNode ready() {
    return get("/ready");
  }

  /**
   * {@code GET /version}: which build answers.
   *
   * @return {@code {version, build_time, java, protocol_versions}}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode version() {
    return get("/version");
  }

  /**
   * {@code GET /.well-known/asa/server-key}: the server's own key, which signs its evaluator's
   * results.
   *
   * @return {@code {"scheme": "ed25519", "value"}}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode serverKey() {
    return get("/.well-known/asa/server-key");
  }

  /**
   * {@code GET /openapi.json}: the OpenAPI 3.1 description of the server's HTTP API.
   *
   * @return the OpenAPI document
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode openApi() {
    return get("/openapi.json");
  }

  /**
   * {@code GET /templates}: the service templates.
   *
   * @return {@code {"templates": [...]}} (typed: {@link Agreements#templates})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode templates() {
    return get("/templates");
  }

  /**
   * {@code GET /templates/{type}}: one service template.
   *
   * @param type the service type, e.g. {@code general}
   * @return the template: its defaults (typed: {@link Agreements#template})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode template(String type) {
    return get("/templates/" + segment(type));
  }

  /**
   * The JSON Schema of agreement documents of {@code asa_version} {@code version}.
   *
   * @param version an {@code asa_version}, e.g. {@code 1.0.0}
   * @return the JSON Schema
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode schema(String version) {
    return get("/schemas/asa/" + segment(version) + "/agreement.json");
  }

  /**
   * The envelope {@code {agreement_id, state, version, agreement_hash, allowed_actions,
   * agreement}}.
   *
   * @param id the agreement's id
   * @return the envelope
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode agreement(String id) {
    return get(agreementPath(id));
  }

  /**
   * {@code GET /agreements/{id}/status}: where the agreement stands.
   *
   * @param id the agreement's id
   * @return state, signatures, deadlines, deliverable, verification and payment (typed: {@link
   *     Agreements#status})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode status(String id) {
    return get(agreementPath(id) + "/status");
  }

  /**
   * {@code {agreement_id, state, rounds: [...], negotiation}}: the negotiation as a transcript.
   *
   * @param id the agreement's id
   * @return the transcript (typed: {@link Agreements#negotiation})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode negotiation(String id) {
    return get(agreementPath(id) + "/negotiation");
  }

  /**
   * The market median price of a service type, from the server's closed agreements (when it has
   * enough).
   *
   * @param serviceType a service type, e.g. {@code general}
   * @return {@code {service_type, medians, ...}} (typed: {@link Agreements#market})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode market(String serviceType) {
    return get("/market/" + segment(serviceType));
  }

  /**
   * The reputation an identity earned on this server, as ARP v2 signals the server signed, with the
   * signals of trusted issuers and the combined figures (whitepaper 9.2); public, so readable
   * unsigned. An identity with no history has an empty {@code signals} list.
   *
   * @param scheme the identity scheme, e.g. {@code did}
   * @param value the identity, e.g. {@code did:key:z6Mk...}
   * @return {@code {identity, signals, foreign_signals, combined, issuer, window, computed_at}}
   *     (typed: {@link Agreements#reputation})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode reputation(String scheme, String value) {
    return get("/reputation?scheme=" + query(scheme) + "&value=" + query(value));
  }

  /**
   * Hands the server signed ARP signals from an issuer it trusts ({@code --arp-trust}); refused
   * whole (422 naming the signal and member) when any does not verify.
   *
   * @param signals {@code {"signals": [...]}}
   * @return {@code {signals: [{signal_id, issuer, status}], kept}}
   */
  public ObjectNode postReputationSignals(JsonNode signals) {
    return send("POST", "/reputation/signals", signals, null);
  }

  /**
   * The latest verification result (section 5.2); readable unsigned when the agreement made it
   * public.
   *
   * @param id the agreement's id
   * @return the result (typed: {@link Agreements#verification})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode verification(String id) {
    return get(agreementPath(id) + "/verification");
  }

  /**
   * {@code {agreement_id, chain_valid, events: [...]}}, oldest first.
   *
   * @param id the agreement's id
   * @return the log and whether its chain verifies
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode events(String id) {
    return get(agreementPath(id) + "/events");
  }

  /**
   * One page of the agreements in which {@code party} (an identity value) takes part.
   *
   * @param cursor the {@code next_cursor} of the previous page, or null for the first page
   * @param limit page size; 0 or less lets the server choose
   * @param party an identity value, e.g. the {@code did:key} of a party
   * @return {@code {items: [...], next_cursor}} (typed: {@link Agreements#list})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode list(String party, String cursor, int limit) {
    return list(Objects.requireNonNull(party, "party"), ListFilter.NONE, cursor, limit);
  }

  /**
   * One page of the agreements in which {@code party} takes part that the filter keeps; with the
   * operator's key, {@code party} may be null for every agreement. A page may hold fewer items than
   * {@code limit} (even none) and still have a {@code next_cursor}: follow it.
   *
   * @param party an identity value, or null (the operator key only) for every agreement
   * @param filter what to narrow to, {@link ListFilter#NONE} for nothing
   * @param cursor the {@code next_cursor} of the previous page, or null for the first page
   * @param limit page size; 0 or less lets the server choose
   * @return {@code {items: [...], next_cursor}}; each item carries {@code amount} and {@code
   *     currency} (null without payment terms)
   * @throws AsaApiException 400 naming the parameter whose value the server cannot use
   */
  public ObjectNode list(String party, ListFilter filter, String cursor, int limit) {
    StringBuilder q = new StringBuilder();
    if (party != null) {
      q.append("&party=").append(query(party));
    }
    q.append(filter.query(true));
    if (cursor != null) {
      q.append("&cursor=").append(query(cursor));
    }
    if (limit > 0) {
      q.append("&limit=").append(limit);
    }
    return get(withQuery("/agreements", q));
  }

  /**
   * How many agreements the listing with this party and filter would hold, by state ({@code GET
   * /agreements/counts}; the filter's state is not sent).
   *
   * @param party an identity value, or null (the operator key only) for every agreement
   * @param filter what to narrow to, {@link ListFilter#NONE} for nothing
   * @return {@code {counts: {STATE: n, ...}, total, complete}}; {@code complete} is false when a
   *     party's count stopped after 5,000 agreements
   * @throws AsaApiException 400 naming the parameter whose value the server cannot use
   */
  public ObjectNode counts(String party, ListFilter filter) {
    StringBuilder q = new StringBuilder();
    if (party != null) {
      q.append("&party=").append(query(party));
    }
    q.append(filter.query(false));
    return get(withQuery("/agreements/counts", q));
  }

  /**
   * {@code path}, then {@code ?} and the parameters (each given as {@code &name=value}), if any.
   */
  private static String withQuery(String path, CharSequence parameters) {
    return parameters.isEmpty()
        ? path
        : path + "?" + parameters.subSequence(1, parameters.length());
  }

  // ---- writes -----------------------------------------------------------------------------

  /**
   * Proposes a new agreement; {@code doc} may be partial and name a {@code template}.
   *
   * @param doc the agreement document, e.g. from {@link AgreementBuilder}; may be partial and name
   *     a {@code template}
   * @return the envelope of the new agreement (201)
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode createAgreement(JsonNode doc) {
    return createAgreement(doc, null);
  }

  /**
   * As {@link #createAgreement(JsonNode)}; a repeat with the same key and body replays the first
   * answer.
   *
   * @param doc the agreement document, e.g. from {@link AgreementBuilder}; may be partial and name
   *     a {@code template}
   * @param idempotencyKey the {@code Idempotency-Key}, or null for none
   * @return the envelope of the new agreement (201)
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode createAgreement(JsonNode doc, String idempotencyKey) {
    return send("POST", "/agreements", Objects.requireNonNull(doc, "doc"), idempotencyKey);
  }

  /**
   * Sends a negotiation message: {@code {party, action, proposed_changes?, ...}}.
   *
   * @param id the agreement's id
   * @param message the negotiation message
   * @return the envelope after the message
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode negotiate(String id, JsonNode message) {
    return send(
        "PATCH",
        agreementPath(id) + "/negotiate",
        Objects.requireNonNull(message, "message"),
        null);
  }

  /**
   * Signs the agreement's current terms as {@code role}: reads its {@code agreement_hash}, signs it
   * here (the private key never leaves this process) and posts the signature.
   *
   * @param id the agreement's id
   * @param role {@link Role#CLIENT} or {@link Role#PROVIDER}
   * @param key the key to sign with: the private key never leaves this process
   * @return the envelope after the signature
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode sign(String id, Role role, Ed25519PrivateKey key) {
    RequestBodies.signingParty(role); // refuses the evaluator before anything is sent
    ObjectNode envelope = agreement(id);
    JsonNode hash = envelope.path("agreement_hash");
    if (!hash.isTextual()) {
      throw AsaApiException.unreadable(
          "GET",
          resolve(agreementPath(id)),
          200,
          Json.write(envelope),
          "its answer has no agreement_hash");
    }
    return sign(id, role, key, hash.asText());
  }

  /**
   * Signs exactly {@code agreementHash}, the terms the caller read, as {@code role}: the signature
   * is made here over that hash and posted naming it, so if the terms have moved since, the server
   * answers 409 and nothing is signed.
   *
   * @param id the agreement's id
   * @param role {@link Role#CLIENT} or {@link Role#PROVIDER}
   * @param key the key to sign with: the private key never leaves this process
   * @param agreementHash the {@code agreement_hash} read, e.g. {@code sha256:...}
   * @return the envelope after the signature
   * @throws AsaApiException 409 when the terms are no longer {@code agreementHash}; otherwise when
   *     the server refuses the request (4xx, 5xx) or cannot be reached (status 0)
   */
  public ObjectNode sign(String id, Role role, Ed25519PrivateKey key, String agreementHash) {
    String party = RequestBodies.signingParty(role);
    String signature =
        RequestBodies.signatureOver(Objects.requireNonNull(agreementHash, "agreementHash"), key)
            .toBase64Url();
    // Naming the hash lets the server answer 409 "terms changed" if they moved since the read.
    return send(
        "POST",
        agreementPath(id) + "/sign",
        RequestBodies.sign(party, signature).put("agreement_hash", agreementHash),
        null);
  }

  /**
   * Posts a signature made elsewhere, e.g. by a hardware key.
   *
   * @param id the agreement's id
   * @param party an identity value, e.g. the {@code did:key} of a party
   * @param signatureBase64Url an Ed25519 signature over the UTF-8 bytes of the {@code
   *     agreement_hash}, base64url
   * @return the envelope after the signature
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode signRaw(String id, String party, String signatureBase64Url) {
    return send(
        "POST", agreementPath(id) + "/sign", RequestBodies.sign(party, signatureBase64Url), null);
  }

  /**
   * Delivers inline content; {@code format} may be null to use the agreement's deliverable_format.
   *
   * @param id the agreement's id
   * @param content the deliverable's text
   * @param format e.g. {@code markdown} or {@code json}; null for the agreement's deliverable
   *     format
   * @return the envelope, {@code DELIVERED}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode deliver(String id, String content, String format) {
    return send(
        "POST", agreementPath(id) + "/deliver", RequestBodies.deliver(content, format), null);
  }

  /**
   * Delivers by reference: the server fetches {@code url} when it verifies and checks the digest.
   *
   * @param id the agreement's id
   * @param url where the server fetches the deliverable
   * @param hash the deliverable's SHA-256 digest
   * @return the envelope, {@code DELIVERED}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode deliverByUrl(String id, String url, Digest hash) {
    return send(
        "POST", agreementPath(id) + "/deliver", RequestBodies.deliverByUrl(url, hash), null);
  }

  /**
   * Asks the server to verify with what it can measure by itself.
   *
   * @param id the agreement's id
   * @return {@code {agreement_id, state, verification}}, or the job (202) at semantic or composite
   *     depth
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode verify(String id) {
    return verify(id, null);
  }

  /**
   * Verifies with the assigned evaluator's scores: {@code {dimensions: [{name, score, evidence}],
   * checks, model, confidence}}.
   *
   * @param id the agreement's id
   * @param evaluatorResult the evaluator's scores (see {@link EvaluatorScores#toJson()}); null to
   *     let the server score what it can
   * @return {@code {agreement_id, state, verification}}, or the job (202) at semantic or composite
   *     depth
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode verify(String id, JsonNode evaluatorResult) {
    return send("POST", agreementPath(id) + "/verify", RequestBodies.verify(evaluatorResult), null);
  }

  /**
   * Asks the server's own evaluators to verify at the depth of {@code verificationConfig} ({@code
   * {depth, evaluator_type, evaluators, evaluator_timeout_seconds, evaluator_config}}). Structural
   * depth answers with the verified agreement; semantic and composite depth answer with the job
   * ({@code status} queued or running): follow it with {@link #awaitVerification}.
   *
   * @param id the agreement's id
   * @param verificationConfig {@code {depth, evaluator_type, evaluators, evaluator_timeout_seconds,
   *     evaluator_config}}
   * @return {@code {agreement_id, state, verification}}, or the job
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode verifyWith(String id, JsonNode verificationConfig) {
    ObjectNode body = Json.object();
    body.set("verification_config", verificationConfig);
    return send("POST", agreementPath(id) + "/verify", body, null);
  }

  /**
   * {@code POST /verifications}: a Verification Request (section 5.1), with or without an
   * agreement. Answers the result (section 5.2) or, for a slow verification, the job ({@code
   * status} queued or running).
   *
   * @param request a section 5.1 Verification Request
   * @return the result, or the job
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode requestVerification(JsonNode request) {
    return send("POST", "/verifications", request, null);
  }

  /**
   * {@code GET /verifications/{id}}: the result, or the job while it runs.
   *
   * @param verificationId the verification's id
   * @return the result, or the job while it runs
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode verificationResult(String verificationId) {
    return get("/verifications/" + segment(verificationId));
  }

  /**
   * {@code GET /verifications/{id}/status}: the job's status and progress.
   *
   * @param verificationId the verification's id
   * @return the job
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode verificationStatus(String verificationId) {
    return get("/verifications/" + segment(verificationId) + "/status");
  }

  /**
   * Whether an answer of {@link #verificationResult} is a job still running rather than a result.
   *
   * @param answer an answer of {@link #verificationResult}
   * @return true while the job is queued or running
   */
  public static boolean isPending(JsonNode answer) {
    String status = answer.path("status").asText("");
    return status.equals("queued") || status.equals("running");
  }

  /**
   * Polls {@code GET /verifications/{id}} until the result is there (or the job failed: an {@link
   * AsaApiException} with status 422 says why), calling {@code onProgress} with each job status
   * seen.
   *
   * @param verificationId the verification's id
   * @param timeout how long to wait in all
   * @param onProgress called with the job each time it is seen still running
   * @return the result
   * @throws AsaApiException 422 when the job failed (its detail says why); status 0 when it did not
   *     finish within {@code timeout} or the wait was interrupted; as any call otherwise
   */
  public ObjectNode awaitVerification(
      String verificationId, Duration timeout, java.util.function.Consumer<JsonNode> onProgress) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      ObjectNode answer = verificationResult(verificationId);
      if (!isPending(answer)) {
        return answer;
      }
      onProgress.accept(answer);
      if (System.nanoTime() > deadline) {
        throw AsaApiException.unreachable(
            resolve("/verifications/" + verificationId),
            "the verification did not finish within " + timeout.toSeconds() + " s",
            null);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw AsaApiException.unreachable(
            resolve("/verifications/" + verificationId), "interrupted while waiting", e);
      }
    }
  }

  /**
   * Contests the verification result during the challenge window; {@code reasonCode} e.g. {@code
   * evaluator_error}.
   *
   * @param id the agreement's id
   * @param role {@link Role#CLIENT} or {@link Role#PROVIDER}
   * @param reasonCode e.g. {@code quality_below_agreed_slo} or {@code evaluator_error}
   * @return the envelope, {@code DISPUTED}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode challenge(String id, Role role, String reasonCode) {
    return send(
        "POST", agreementPath(id) + "/challenge", RequestBodies.challenge(role, reasonCode), null);
  }

  /**
   * Closes a verified agreement once its challenge window has passed, settling the payment.
   *
   * @param id the agreement's id
   * @return the envelope, {@code CLOSED}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode close(String id) {
    return send("POST", agreementPath(id) + "/close", null, null);
  }

  /**
   * Funds the escrow with the agreement's amount (the client's call); a ledger or http_callback
   * binding needs no body.
   *
   * @param id the agreement's id
   * @return the envelope after funding
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode fund(String id) {
    return fund(id, null);
  }

  /**
   * Funds the escrow with a binding-specific body, e.g. {@code {"x402": <PaymentPayload>}}.
   *
   * @param id the agreement's id
   * @param body the binding's body, e.g. {@code {"x402": <PaymentPayload>}}; null for none
   * @return the envelope after funding
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode fund(String id, JsonNode body) {
    return send("POST", agreementPath(id) + "/fund", body, null);
  }

  /**
   * Stakes the collateral the terms ask for ({@code escrow.collateral}, the provider's call, before
   * delivering); a ledger escrow needs no body.
   *
   * @param id the agreement's id
   * @return the envelope after staking, with {@code agreement.metadata.collateral}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode stakeCollateral(String id) {
    return stakeCollateral(id, null);
  }

  /**
   * Stakes the collateral with a binding-specific body (none for the ledger binding).
   *
   * @param id the agreement's id
   * @param body the binding's body; null for none
   * @return the envelope after staking
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode stakeCollateral(String id, JsonNode body) {
    return send("POST", agreementPath(id) + "/collateral", body, null);
  }

  /**
   * Seals Shadow Scoring criteria into the agreement (the client's call, before anyone signs).
   *
   * @param id the agreement's id
   * @param body {@code {criteria, scale?, sealer?}}
   * @return the seal: id, commitment, signed statement (201)
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode seal(String id, com.fasterxml.jackson.databind.JsonNode body) {
    return send("POST", agreementPath(id) + "/seal", body, null);
  }

  /**
   * The sealed envelope: for the sealer before the reveal, for any party after it.
   *
   * @param id the agreement's id
   * @return the sealed envelope
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode sealOf(String id) {
    return get(agreementPath(id) + "/seal");
  }

  /**
   * A standalone seal ({@code POST /shadow/seals}): answers the seal id, commitment and signed
   * statement.
   *
   * @param body {@code {criteria, scale?}}
   * @return the seal id, commitment and signed statement
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode sealStandalone(JsonNode body) {
    return send("POST", "/shadow/seals", body, null);
  }

  /**
   * Validates {@code content} against a standalone seal (the sealer's call).
   *
   * @param sealId the standalone seal's id
   * @param content the deliverable's text
   * @param format e.g. {@code markdown} or {@code json}; null for the agreement's deliverable
   *     format
   * @return the report and the gate
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode validateSeal(String sealId, String content, String format) {
    ObjectNode body = Json.object().put("content", content);
    if (format != null) body.put("format", format);
    return send("POST", "/shadow/seals/" + sealId + "/validate", body, null);
  }

  /**
   * The latest report of a standalone seal.
   *
   * @param sealId the standalone seal's id
   * @return the latest report
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode sealReport(String sealId) {
    return get("/shadow/seals/" + sealId + "/report");
  }

  /**
   * The failure messages of an open shadow hardening cycle.
   *
   * @param id the agreement's id
   * @return the failure messages (opaque ids)
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode hardening(String id) {
    return get(agreementPath(id) + "/hardening");
  }

  /**
   * The verification trail a dispute body asks for (whitepaper 9.3): every result, who judged, the
   * dispute and ruling, the events and the ledger; the canary outcomes too for the operator or an
   * arbiter. A party sees its own parts.
   *
   * @param id the agreement's id
   * @return {@code {view, verifications, events, ledger, ...}}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode forensics(String id) {
    return get(agreementPath(id) + "/forensics");
  }

  /**
   * The entry to append to the caller's own CoC chain once the agreement is verified, ruled or
   * closed: {@code {"type": "anchor", "data": "<hashes only>"}}.
   *
   * @param id the agreement's id
   * @return the anchor entry's {@code type} and {@code data}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode anchor(String id) {
    return get(agreementPath(id) + "/anchor");
  }

  /**
   * Shows the caller's CoC chain, now holding the anchor entry, to have the anchoring recorded.
   *
   * @param id the agreement's id
   * @param body {@code {"chain_url": "https://..."}} or {@code {"chain": [entries...]}}
   * @return the agreement, with an {@code anchored} event in its log
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode recordAnchor(String id, JsonNode body) {
    return send("POST", agreementPath(id) + "/anchor", Objects.requireNonNull(body, "body"), null);
  }

  /**
   * The escrow's status, balance, transfers and payment messages.
   *
   * @param id the agreement's id
   * @return status, balance, transfers and payment messages (typed: {@link Agreements#escrow})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode escrow(String id) {
    return get(agreementPath(id) + "/escrow");
  }

  /**
   * A key's ledger account: balances and newest entries (readable by that key and the operator).
   *
   * @param key a key, base64url or did:key (the caller's own, unless it is the operator)
   * @return {@code {account, balances, complete, entries}} (typed: {@link Agreements#account})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode account(String key) {
    return get("/accounts/" + URLEncoder.encode(key, StandardCharsets.UTF_8));
  }

  /**
   * Rules on a dispute (the operator or a configured arbiter): {@code releasePercent} to the
   * provider.
   *
   * @param id the agreement's id
   * @param releasePercent the share released to the provider, 0 to 100
   * @param reason why, in words
   * @return the envelope after the ruling
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode rule(String id, java.math.BigDecimal releasePercent, String reason) {
    ObjectNode body = Json.object();
    body.put("release_percent", releasePercent);
    body.put("reason", reason);
    return send("POST", agreementPath(id) + "/ruling", body, null);
  }

  /**
   * Settles a dispute by the Agent Justice Protocol's decision on the claim this server filed (its
   * section 6.6 {@code ArbitrationDecision}): the provider keeps the share it was not found at
   * fault for. The operator's or an arbiter's call, as {@link #rule}.
   *
   * @param id the agreement's id
   * @param decision the AJP decision; its {@code claim_id} must be the filed claim's
   * @return the envelope, {@code CLOSED}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode ruleByAjpDecision(String id, JsonNode decision) {
    ObjectNode body = Json.object();
    body.set("ajp_decision", decision);
    return send("POST", agreementPath(id) + "/ruling", body, null);
  }

  // ---- the evaluator registry -------------------------------------------------------------

  /**
   * Registers the evaluator whose key signs this client's requests: {@code {identity, display_name,
   * organization?, lineage?, service_types, model?, price_usd?, domains?}} (see {@link
   * #evaluatorRegistration}). Answers the registered evaluator (201): active, with an empty track
   * record, not yet qualified.
   *
   * @param registration the registration, e.g. from {@link #evaluatorRegistration}
   * @return the registered evaluator (typed: {@link EvaluatorRegistry#register})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode registerEvaluator(JsonNode registration) {
    return send("POST", "/evaluators", Objects.requireNonNull(registration, "registration"), null);
  }

  /**
   * The body of {@link #registerEvaluator} with its required members; add {@code organization},
   * {@code lineage}, {@code model}, {@code price_usd} and {@code domains} as needed.
   *
   * @param identityScheme the evaluator's identity scheme, e.g. {@code api_key}
   * @param identityValue the evaluator's identity value
   * @param displayName the name shown in the registry
   * @param serviceTypes the service types it judges
   * @return a new body, free to change
   */
  public static ObjectNode evaluatorRegistration(
      String identityScheme,
      String identityValue,
      String displayName,
      java.util.List<String> serviceTypes) {
    return RequestBodies.evaluatorRegistration(
        identityScheme, identityValue, displayName, serviceTypes);
  }

  /**
   * One page of the registry in key order: {@code {"evaluators": [...], "next_cursor"?}}, each with
   * its track record and whether it qualifies now.
   *
   * @param serviceType only evaluators of this service type; null for all
   * @param cursor the {@code next_cursor} of the previous page, or null for the first page
   * @param limit page size; 0 or less lets the server choose
   * @return the page (typed: {@link EvaluatorRegistry#list})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode evaluators(String serviceType, String cursor, int limit) {
    java.util.List<String> query = new java.util.ArrayList<>();
    if (serviceType != null) {
      query.add("service_type=" + query(serviceType));
    }
    if (cursor != null) {
      query.add("cursor=" + query(cursor));
    }
    if (limit > 0) {
      query.add("limit=" + limit);
    }
    return get("/evaluators" + (query.isEmpty() ? "" : "?" + String.join("&", query)));
  }

  /**
   * A registered evaluator by its key (base64url or did:key): profile, standing, track record,
   * {@code qualified} and, when not, {@code why}.
   *
   * @param key the evaluator's key, base64url or did:key
   * @return the evaluator (typed: {@link EvaluatorRegistry#get})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode evaluator(String key) {
    return get(evaluatorPath(key));
  }

  /**
   * Suspends an evaluator (the operator's call): it is never assigned until reinstated.
   *
   * @param key the evaluator's key, base64url or did:key
   * @param reason why, in words
   * @return the evaluator (typed: {@link EvaluatorRegistry#suspend})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode suspendEvaluator(String key, String reason) {
    return send(
        "POST",
        evaluatorPath(key) + "/suspend",
        RequestBodies.suspension(Objects.requireNonNull(reason, "reason")),
        null);
  }

  /**
   * Lifts an evaluator's suspension (the operator's call).
   *
   * @param key the evaluator's key, base64url or did:key
   * @return the evaluator (typed: {@link EvaluatorRegistry#reinstate})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode reinstateEvaluator(String key) {
    return send("POST", evaluatorPath(key) + "/reinstate", null, null);
  }

  /**
   * Replaces the server's canary set (the operator's call) with {@code canaries}, a JSON array of
   * canaries as in a canary file. Answers what is in force: count, service types, digest.
   *
   * @param canaries a JSON array of canaries
   * @return the canary set in force (typed: {@link Admin#loadCanaries})
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode loadCanaries(JsonNode canaries) {
    return send("PUT", "/admin/canaries", Objects.requireNonNull(canaries, "canaries"), null);
  }

  /**
   * {@code GET /evaluator/tasks}: the calling evaluator's open tasks, soonest due first ({@code
   * {"tasks": [{task_id, service_type, request, deliverable, criteria, dimensions, deadline}]}}).
   * Real work and canaries look alike; answer each the same way.
   *
   * @return the open tasks
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode evaluatorTasks() {
    return get("/evaluator/tasks");
  }

  /**
   * {@code POST /evaluator/tasks/{task_id}/result}: answers one task with an {@code
   * evaluator_result} ({@code {dimensions: [{name, score, evidence}], ...}}, a score for every
   * dimension of the task). Answers {@code {"status": "received"}}; the verdict follows on the
   * agreement once the evaluator's tasks of that delivery are all answered.
   *
   * @param taskId the task's id ({@code task_id})
   * @param evaluatorResult the evaluator's scores (see {@link EvaluatorScores#toJson()}); null to
   *     let the server score what it can
   * @return {@code {task_id, status, received_at}}
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode answerTask(String taskId, JsonNode evaluatorResult) {
    ObjectNode body = Json.object();
    body.set("evaluator_result", Objects.requireNonNull(evaluatorResult, "evaluatorResult"));
    return send(
        "POST",
        "/evaluator/tasks/" + segment(Objects.requireNonNull(taskId, "taskId")) + "/result",
        body,
        null);
  }

  /**
   * The configuration in force (the operator's call).
   *
   * @return the configuration
   * @throws AsaApiException when the server refuses the request (4xx, 5xx) or cannot be reached
   *     (status 0)
   */
  public ObjectNode adminConfig() {
    return get("/admin/config");
  }

  /**
   * {@code POST /admin/archive}: begins moving the agreements that ended before {@code
   * closedBefore} out of the hot store into an archive file on the server (the operator's call).
   * The run goes on in the background; follow it with {@link #archive(String)}.
   *
   * @param closedBefore a date ({@code 2026-01-01}, its first instant UTC) or an RFC 3339 time
   * @return the archive as begun: {@code {name, status, closed_before, agreements, bytes, ...}}
   *     (typed: {@link Admin#startArchive})
   * @throws AsaApiException 409 while another run is in progress, 422 for a bad or future cutoff
   */
  public ObjectNode startArchive(String closedBefore) {
    ObjectNode body = Json.object();
    body.put("closed_before", Objects.requireNonNull(closedBefore, "closedBefore"));
    return send("POST", "/admin/archive", body, null);
  }

  /**
   * {@code GET /admin/archives/{name}}: an archive run's progress ({@code status} "writing" or
   * "complete", {@code agreements} moved so far) and, once complete, its file's digest.
   *
   * @param name the archive's name, as {@link #startArchive} answered it
   * @return the archive (typed: {@link Admin#archive})
   * @throws AsaApiException 404 for an unknown name
   */
  public ObjectNode archive(String name) {
    return get("/admin/archives/" + segment(Objects.requireNonNull(name, "name")));
  }

  /**
   * {@code GET /admin/archives/{name}/file}: downloads a complete archive into {@code out} (written
   * beside it first and moved into place whole, so {@code out} never holds half a file).
   *
   * @param name the archive's name
   * @param out where the file goes
   * @return how many bytes were written
   * @throws AsaApiException 409 while the archive is still being written, 404 for an unknown name
   */
  public long downloadArchive(String name, java.nio.file.Path out) {
    String path = "/admin/archives/" + segment(Objects.requireNonNull(name, "name")) + "/file";
    HttpRequest.Builder request =
        HttpRequest.newBuilder(resolve(path))
            .timeout(java.time.Duration.ofHours(1))
            .header("Accept", "application/x-ndjson, application/problem+json")
            .header("User-Agent", USER_AGENT)
            .GET();
    signIfKeyed(request, "GET", resolve(path), null);
    java.nio.file.Path partial = out.resolveSibling(out.getFileName() + ".partial");
    HttpResponse<java.nio.file.Path> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofFile(partial));
    } catch (IOException e) {
      throw AsaApiException.unreachable(resolve(path), describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw AsaApiException.unreachable(resolve(path), "interrupted while downloading", e);
    }
    try {
      if (response.statusCode() != 200) {
        String problem = java.nio.file.Files.readString(partial, StandardCharsets.UTF_8);
        java.nio.file.Files.deleteIfExists(partial);
        throw AsaApiException.fromResponse("GET", resolve(path), response.statusCode(), problem);
      }
      java.nio.file.Files.move(
          partial,
          out,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return java.nio.file.Files.size(out);
    } catch (IOException e) {
      throw AsaApiException.unreachable(
          resolve(path), "cannot write " + out + ": " + describe(e), e);
    }
  }

  /**
   * {@code GET /admin/health}: the operator's summary (agreements by state with their amounts, the
   * ledger's totals, verification jobs, outbox, timers, requests).
   *
   * @return the summary (typed: {@link Admin#health})
   * @throws AsaApiException 403 unless this client signs with the operator key
   */
  public ObjectNode adminHealth() {
    return get("/admin/health");
  }

  static String evaluatorPath(String key) {
    return "/evaluators/" + segment(Objects.requireNonNull(key, "key"));
  }

  // ---- plumbing ---------------------------------------------------------------------------

  private ObjectNode get(String path) {
    HttpRequest.Builder request = request(path).GET();
    signIfKeyed(request, "GET", resolve(path), null);
    return exchange(request.build());
  }

  private ObjectNode send(String method, String path, JsonNode body, String idempotencyKey) {
    HttpRequest.Builder request = request(path);
    byte[] bytes = body == null ? null : Json.writeBytes(body);
    if (bytes == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofByteArray(bytes));
    }
    signIfKeyed(request, method, resolve(path), bytes);
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    return exchange(request.build());
  }

  /**
   * Adds Content-Digest, Signature-Input and Signature over exactly the bytes that will be sent.
   */
  private void signIfKeyed(HttpRequest.Builder request, String method, URI uri, byte[] body) {
    if (signer != null) {
      signer.sign(method, uri, body).asMap().forEach(request::header);
    }
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(resolve(path))
        .timeout(requestTimeout)
        .header("Accept", "application/json, application/problem+json")
        .header("User-Agent", USER_AGENT);
  }

  private ObjectNode exchange(HttpRequest request) {
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpConnectTimeoutException e) {
      throw AsaApiException.unreachable(
          request.uri(), "no connection within " + DEFAULT_CONNECT_TIMEOUT.toSeconds() + " s", e);
    } catch (HttpTimeoutException e) {
      throw AsaApiException.unreachable(
          request.uri(), "no answer within " + requestTimeout.toSeconds() + " s", e);
    } catch (ConnectException e) {
      throw AsaApiException.unreachable(request.uri(), "connection refused", e);
    } catch (IOException e) {
      throw AsaApiException.unreachable(request.uri(), describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw AsaApiException.unreachable(
          request.uri(), "interrupted while waiting for the answer", e);
    }
    return read(request.method(), request.uri(), response.statusCode(), response.body());
  }

  /** The body of a 2xx answer as an object; anything else becomes an {@link AsaApiException}. */
  static ObjectNode read(String method, URI uri, int status, String body) {
    if (status < 200 || status > 299) {
      throw AsaApiException.fromResponse(method, uri, status, body);
    }
    if (body.isEmpty()) {
      return Json.object();
    }
    try {
      if (Json.parse(body) instanceof ObjectNode object) {
        return object;
      }
    } catch (JsonProcessingException e) {
      // fall through: not JSON
    }
    throw AsaApiException.unreadable(
        method,
        uri,
        status,
        body,
        "the body is not a JSON object: " + AsaApiException.abbreviate(body));
  }

  private URI resolve(String path) {
    return URI.create(server + path);
  }

  static String agreementPath(String id) {
    return "/agreements/" + segment(Objects.requireNonNull(id, "id"));
  }

  /** Percent-encodes one path segment (RFC 3986 unreserved characters stay as they are). */
  static String segment(String value) {
    if (value.isEmpty()) {
      throw new IllegalArgumentException("an empty value cannot name a resource");
    }
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String query(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** Accepts {@code http://host:port} with or without a trailing slash or a path prefix. */
  static URI baseUri(URI server) {
    Objects.requireNonNull(server, "server");
    String scheme = server.getScheme();
    if (!("http".equals(scheme) || "https".equals(scheme)) || server.getHost() == null) {
      throw new IllegalArgumentException(
          "the server address must be an http(s) URL such as http://127.0.0.1:8080, not '"
              + server
              + "'");
    }
    String text = server.toString();
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    return URI.create(text);
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}
