package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.AgreementDrafts;
import dev.asa.agreement.ChallengeReason;
import dev.asa.facts.DeliverableFact;
import dev.asa.facts.DisputeFact;
import dev.asa.facts.EscrowFact;
import dev.asa.facts.Fact;
import dev.asa.facts.HardeningFact;
import dev.asa.facts.VerificationFact;
import dev.asa.facts.EscrowStatus;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.agreement.StrictJson;
import dev.asa.agreement.VerificationTerms;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.ChallengeWindow;
import dev.asa.lifecycle.Event;
import dev.asa.lifecycle.EventChain;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.market.MarketData;
import java.math.BigDecimal;
import dev.asa.server.store.AgreementRow;
import dev.asa.server.store.AgreementStore;
import dev.asa.server.store.Commit;
import dev.asa.server.store.EventRecord;
import dev.asa.server.store.IdempotencyRow;
import dev.asa.server.store.Page;
import dev.asa.server.store.VerificationRow;
import dev.asa.server.store.DeliverableRow;
import dev.asa.server.store.JobRow;
import dev.asa.server.verification.EvaluatorPool;
import dev.asa.server.verification.JobRunner;
import dev.asa.server.verification.Jobs;
import dev.asa.server.verification.VerificationRequest;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.evaluators.VerificationEngine.Depth;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.server.store.Write;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The application service for agreements: loads the agreement with its version, lets the core
 * decide, and writes the new row, its chained events and any side records in one transaction.
 * Every public method is one API call; the HTTP layer only parses and renders.
 */
public final class AgreementService {

  private final AgreementStore store;
  private final Clock clock;
  private final VerificationRunner verifier;
  private final SecureRandom random = new SecureRandom();
  private final AgreementCache cache = new AgreementCache(10_000);

  private final String serverKeyId;
  private final Negotiation negotiation;
  private final SubcontractGuard subcontracts;
  private final Enforcement enforcement;
  private final Disputes disputes;
  private final Closing closing;
  private final Set<Ed25519PublicKey> arbiters;
  private final EvaluatorPool evaluators;
  private final JobRunner jobs;

  public AgreementService(AgreementStore store, Clock clock, VerificationRunner verifier, String serverKeyId,
      MarketData market, NegotiationPolicy policy, Set<String> trustedMarketSources,
      Enforcement enforcement, Disputes disputes, Set<Ed25519PublicKey> arbiters) {
    this(store, clock, verifier, serverKeyId, market, policy, trustedMarketSources, enforcement, disputes, arbiters, null, null);
  }

  /**
   * @param evaluators the semantic evaluators for verification at semantic or composite depth;
   *     null when the server runs structural verification only
   * @param jobs runs those slower verifications in the background; null with {@code evaluators}
   */
  public AgreementService(AgreementStore store, Clock clock, VerificationRunner verifier, String serverKeyId,
      MarketData market, NegotiationPolicy policy, Set<String> trustedMarketSources,
      Enforcement enforcement, Disputes disputes, Set<Ed25519PublicKey> arbiters, EvaluatorPool evaluators, JobRunner jobs) {
    this.evaluators = evaluators;
    this.jobs = jobs;
    this.store = store;
    this.clock = clock;
    this.verifier = verifier;
    this.serverKeyId = serverKeyId;
    this.subcontracts = new SubcontractGuard(store);
    this.negotiation = new Negotiation(market, policy, trustedMarketSources, subcontracts);
    this.enforcement = enforcement;
    this.disputes = disputes;
    this.closing = new Closing(enforcement, disputes);
    this.arbiters = Set.copyOf(arbiters);
  }

  /**
   * With the whitepaper's negotiation defaults, no trusted external market source, the built-in
   * ledger (and no webhook URL allowed), disputes left to the operator.
   */
  public AgreementService(AgreementStore store, Clock clock, VerificationRunner verifier, String serverKeyId) {
    this(store, clock, verifier, serverKeyId, new MarketData(store, NegotiationPolicy.DEFAULTS), NegotiationPolicy.DEFAULTS, Set.of(),
        new Enforcement(store, Enforcement.bindings(EscrowConfig.DEFAULTS, store, null)), new Disputes(store, java.util.Map.of()), Set.of());
  }

  // ---- reads ------------------------------------------------------------------------------

  public ObjectNode get(String id, Caller caller) {
    AgreementRow row = loadFor(id, caller, Operation.READ);
    return Views.envelope(cache.of(row), row.version());
  }

  /** The row version, for ETags. */
  public long version(String id, Caller caller) {
    return loadFor(id, caller, Operation.READ).version();
  }

  /** How many store pages one list call may scan for the caller's own agreements. */
  private static final int MAX_PAGES_SCANNED = 10;

  /**
   * The caller's own agreements among those where {@code party} is an identity: only agreements
   * in which the caller's key is the key of a party. A stranger naming someone else's identity
   * gets an empty list, not theirs.
   */
  public ObjectNode list(String party, String cursor, int limit, Caller caller) {
    ArrayNode items = Json.mapper().createArrayNode();
    String next = cursor;
    int scanned = 0;
    do {
      Page<AgreementRow> page = store.listByParty(party, next, limit);
      for (AgreementRow row : page.items()) {
        if (!AccessPolicy.rolesOf(cache.of(row).terms(), caller).isEmpty() && items.size() < limit) {
          items.add(Views.summary(row));
        }
      }
      next = page.nextCursor();
      scanned++;
    } while (next != null && items.size() < limit && scanned < MAX_PAGES_SCANNED);
    ObjectNode out = Json.object();
    out.set("items", items);
    if (next != null) {
      out.put("next_cursor", next);
    } else {
      out.putNull("next_cursor");
    }
    return out;
  }

  public ObjectNode events(String id, Caller caller) {
    loadFor(id, caller, Operation.READ);
    List<Event> events = store.events(id).stream().map(EventLog::toCore).toList();
    ObjectNode out = Json.object();
    out.put("agreement_id", id);
    Optional<String> broken = EventChain.firstBreak(events);
    out.put("chain_valid", broken.isEmpty());
    broken.ifPresent(b -> out.put("chain_error", b));
    ArrayNode list = out.putArray("events");
    events.forEach(e -> list.add(e.toJson()));
    return out;
  }

  /**
   * The latest verification result of an agreement. Who may read it follows the agreement's
   * {@code verification.result_visibility}: {@code public} answers anyone (signed or not);
   * {@code parties} and {@code parties_and_arp} answer the parties and the evaluator.
   *
   * @param caller null for an unsigned request
   */
  /** Refuses (404 for strangers) a caller who may not read the agreement. */
  public void requireReader(String id, Caller caller) {
    loadFor(id, caller, Operation.READ);
  }

  public ObjectNode verification(String id, Caller caller) {
    AgreementRow row = load(id);
    Agreement a = cache.of(row);
    if (a.terms().verification().resultVisibility() != VerificationTerms.Visibility.PUBLIC) {
      if (caller == null) {
        // Exactly the answer for a missing agreement: an unsigned probe must not learn which ids exist.
        throw notFound(id);
      }
      AccessPolicy.require(a.terms(), caller, Operation.READ);
    }
    List<VerificationRow> rows = store.verificationsForAgreement(id);
    if (rows.isEmpty()) {
      throw new NotFoundException("agreement " + id + " has no verification result yet");
    }
    return (ObjectNode) Json.parseTrusted(rows.get(rows.size() - 1).result());
  }

  public ObjectNode status(String id, Caller caller) {
    AgreementRow row = loadFor(id, caller, Operation.READ);
    Agreement a = cache.of(row);
    ObjectNode status = Views.status(a, row.version(), clock.instant());
    if (!store.outboxOf(id).isEmpty()) {
      status.with("payment").set("messages", enforcement.view(a).path("messages"));
    }
    return status;
  }

  /** {@code GET /agreements/{id}/escrow}: balance, transfers and payment messages of the agreement. */
  public ObjectNode escrow(String id, Caller caller) {
    AgreementRow row = loadFor(id, caller, Operation.READ);
    return enforcement.view(cache.of(row));
  }

  /**
   * {@code GET /accounts/{key}}: a key's ledger account. Only the key itself (or the operator) may
   * read it: balances say who was paid what.
   */
  public ObjectNode account(String key, int limit, Caller caller) {
    try {
      Ed25519PublicKey.fromBase64Url(key);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/key", "an account is named by a base64url Ed25519 public key: " + e.getMessage());
    }
    boolean own = caller instanceof Caller.Key k && (k.keyId().equals(key) || k.operator());
    if (!own) {
      throw AccessDeniedException.forbidden("an account is readable by its own key and the operator only; sign with the key " + key);
    }
    return enforcement.account(key, limit);
  }

  // ---- writes -----------------------------------------------------------------------------

  public Outcome create(JsonNode input, Caller caller, IdempotencyTicket ticket) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    if (input != null && input.path("verification").has("shadow_seal")) {
      throw new InvalidDocumentException("/verification/shadow_seal",
          "set by the server when the client seals criteria (POST /agreements/{id}/seal), never by a proposal");
    }
    Agreement agreement = AgreementDrafts.propose(input, now, this::newAgreementId);
    AccessPolicy.requireProposer(agreement.terms(), caller);
    enforcement.check(agreement);
    Actor actor = actorFor(agreement, caller);
    ObjectNode payload = Json.object();
    payload.put("agreement_hash", agreement.hash().toString());
    payload.put("state", State.PROPOSED.name());
    agreement.facts().template().ifPresent(template -> payload.put("template", template));
    List<EventRecord> events =
        EventLog.chain(agreement.id(), null, List.of(new EventLog.Draft(EventType.CREATED, actor, payload)), now);
    AgreementRow row = Views.row(agreement, 1, now, now);
    Outcome outcome = new Outcome(201, Views.envelope(agreement, 1));
    List<Write> writes = new ArrayList<>(idempotencyWrites(ticket, outcome, now));
    writes.addAll(Deadlines.atCreation(agreement));
    String parentId = agreement.terms().service().parentAgreementId();
    if (parentId != null) {
      writes.add(new Write.LinkToParent(parentId, agreement.id()));
    }
    return subcontracts.createChild(agreement, caller, () -> {
      try {
        store.create(row, events, writes);
        cache.remember(agreement.id(), 1, agreement);
      } catch (dev.asa.server.store.DuplicateKeyException e) {
        throw new ConflictException("an agreement with id '" + agreement.id() + "' already exists; choose another agreement_id or leave it out");
      }
      return outcome;
    });
  }

  public Outcome sign(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    ObjectNode b = StrictJson.failFast().object(body, "", "a sign request");
    StrictJson.failFast().allowOnly(b, "", "party", "signature", "agreement_hash");
    String signedHash = StrictJson.failFast().optionalText(b, "", "agreement_hash");
    Role role = signingRole(StrictJson.failFast().text(b, "", "party", "\"client\" or \"provider\""));
    JsonNode sig = b.get("signature");
    if (!(sig instanceof ObjectNode sigObject)) {
      throw new InvalidDocumentException("/signature", "required: {\"scheme\": \"ed25519\", \"value\": \"<base64url signature>\"}");
    }
    String scheme = StrictJson.failFast().text(sigObject, "/signature", "scheme", "\"ed25519\"");
    if (!scheme.equals("ed25519")) {
      throw new InvalidDocumentException("/signature/scheme", "unsupported scheme '" + scheme + "'; only ed25519 is accepted");
    }
    Ed25519Signature signature;
    try {
      signature = Ed25519Signature.fromBase64Url(StrictJson.failFast().text(sigObject, "/signature", "value", "base64url of the 64-byte signature"));
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/signature/value", e.getMessage());
    }
    Operation op = role == Role.CLIENT ? Operation.SIGN_AS_CLIENT : Operation.SIGN_AS_PROVIDER;
    return mutate(id, ticket, caller, op, current -> {
      Agreement a = current.agreement();
      Lifecycle.require(a.state(), Action.SIGN);
      if (signedHash != null && !signedHash.equals(a.hash().toString())) {
        throw new ConflictException("the terms changed since they were read: the agreement_hash is now "
            + a.hash() + ", not " + signedHash + "; read the agreement again and sign the new hash");
      }
      if (a.isSignedBy(role)) {
        throw new ConflictException("the " + role.wireName() + " has already signed these terms");
      }
      Agreement signed = a.withSignature(role, signature);
      State next = Lifecycle.next(a.state(), Action.SIGN, new Lifecycle.Facts(signed.isFullySigned(), false));
      Agreement result = signed.withState(next);
      ObjectNode payload = Json.object();
      payload.put("party", role.wireName());
      payload.put("agreement_hash", a.hash().toString());
      payload.put("signature", signature.toBase64Url());
      payload.put("state", next.name());
      List<Write> writes = List.of();
      if (next == State.ACTIVE) {
        Instant activatedAt = current.now();
        result = result.withFacts(f -> f.withActivatedAt(activatedAt));
        if (Enforcement.requiresFunding(result.terms())) {
          result = result.withFacts(f -> f.withEscrow(EscrowFact.unfunded()));
        }
        var noise = verifier.releasePolicy().commitment(result);
        if (noise.isPresent()) {
          result = result.withFact(Fact.THRESHOLD_NOISE, noise.get());
        }
        writes = Deadlines.atActivation(result, current.now());
      }
      return new Change(result, List.of(new EventLog.Draft(EventType.SIGNED, current.actor(), payload)), writes, null);
    });
  }

  public Outcome negotiate(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    return mutate(id, ticket, caller, Operation.NEGOTIATE,
        current -> negotiation.apply(current.agreement(), body, current.now(), current.actor(), this::newNegotiationId));
  }

  /**
   * A durable timer fired. Each kind re-checks the agreement before acting, so that firing twice,
   * or after the situation changed, does nothing.
   */
  public void fireTimer(dev.asa.server.store.TimerRow timer) {
    String id = timer.agreementId();
    switch (TimerKind.fromWire(timer.kind())) {
      case NEGOTIATION_TIMEOUT -> mutate(id, null, Caller.SERVER, Operation.NEGOTIATE,
          current -> negotiation.timeOut(current.agreement(), current.now(), current.actor()));
      case EXPIRES_AT -> onExpiry(timer);
      case CLIENT_FUNDING_TIMEOUT -> mutate(id, null, Caller.SERVER, Operation.FUND, current -> {
        Agreement a = current.agreement();
        return a.state() == State.ACTIVE && !Enforcement.isFunded(a)
            ? closing.onTimeout(a, BigDecimal.ZERO, TimerKind.CLIENT_FUNDING_TIMEOUT.wireName(), current.now(), current.actor())
            : null;
      });
      case PROVIDER_DELIVERY_TIMEOUT -> mutate(id, null, Caller.SERVER, Operation.DELIVER, current -> {
        Agreement a = current.agreement();
        return a.state() == State.ACTIVE
            ? closing.onTimeout(a, BigDecimal.ZERO, TimerKind.PROVIDER_DELIVERY_TIMEOUT.wireName(), current.now(), current.actor())
            : null;
      });
      case EVALUATOR_TIMEOUT -> mutate(id, null, Caller.SERVER, Operation.TRIGGER_VERIFICATION,
          current -> current.agreement().state() == State.DELIVERED ? evaluatorTimedOut(current) : null);
      case CHALLENGE_WINDOW -> mutate(id, null, Caller.SERVER, Operation.CLOSE, current -> {
        Agreement a = current.agreement();
        boolean open = window(a).map(w -> w.isOpenAt(current.now())).orElse(false);
        return a.state() == State.VERIFIED && !open ? closing.onResult(a, current.now(), current.actor()) : null;
      });
    }
  }

  /**
   * {@code expires_at} passed: an agreement not yet signed, or signed but not delivered, expires
   * (held money goes back to the client). If the terms moved the date since the timer was set, the
   * timer is set again for the new date.
   */
  private void onExpiry(dev.asa.server.store.TimerRow timer) {
    mutate(timer.agreementId(), null, Caller.SERVER, Operation.READ, current -> {
      Agreement a = current.agreement();
      Instant expiresAt = a.terms().expiry().orElse(null);
      if (expiresAt == null) {
        return null;
      }
      if (current.now().isBefore(expiresAt)) {
        // The terms moved the date since the timer was set: set it again, as part of this unit of work.
        return new Change(a, List.of(), Deadlines.atCreation(a), null);
      }
      return switch (a.state()) {
        case PROPOSED, NEGOTIATING, ACTIVE ->
            closing.onTimeout(a, BigDecimal.ZERO, TimerKind.EXPIRES_AT.wireName(), current.now(), current.actor());
        default -> null;
      };
    });
  }

  /**
   * The evaluator gave no result in time (section 8.3). {@code hold_for_backup_evaluator}: the
   * server's built-in evaluator, a different and always available one, scores the deliverable; if
   * it cannot score every dimension honestly, the case goes to a ruling with the money frozen. The
   * other actions settle by their fixed split and end the agreement as EXPIRED.
   */
  private Change evaluatorTimedOut(Current current) {
    Agreement a = current.agreement();
    var action = a.terms().escrow().deadMansSwitch().timeoutAction();
    ObjectNode payload = Json.object();
    payload.put("timeout_action", action.name().toLowerCase(java.util.Locale.ROOT));
    payload.put("evaluator_timeout_seconds", a.terms().evaluatorDeadlineSeconds());
    EventLog.Draft timedOut = new EventLog.Draft(EventType.EVALUATOR_TIMED_OUT, current.actor(), payload);
    Change outcome = switch (action) {
      case HOLD_FOR_BACKUP_EVALUATOR -> backupEvaluation(current);
      case SPLIT_50_50 -> closing.onTimeout(a, BigDecimal.valueOf(50), "evaluator_timeout_split_50_50", current.now(), current.actor());
      case RETURN_TO_CLIENT -> closing.onTimeout(a, BigDecimal.ZERO, "evaluator_timeout_return_to_client", current.now(), current.actor());
      case RELEASE_TO_PROVIDER -> closing.onTimeout(a, BigDecimal.valueOf(100), "evaluator_timeout_release_to_provider", current.now(), current.actor());
    };
    List<EventLog.Draft> events = new ArrayList<>();
    events.add(timedOut);
    events.addAll(outcome.events());
    return new Change(outcome.next(), events, outcome.writes(), outcome.response());
  }

  private Change backupEvaluation(Current current) {
    Agreement a = current.agreement();
    Actor backup = Actor.server(serverKeyId);
    try {
      Change verified = verifier.verify(a, VerificationRunner.SubmittedResult.parse(null), backup, current.now(), this::newVerificationId);
      Agreement assigned = verified.next().withFact(Fact.EVALUATOR_ASSIGNMENT, Json.object()
          .put("backup", "builtin").put("assigned_at", current.now().toString()).put("outcome", "verified"));
      return enforceResult(new Change(assigned, verified.events(), verified.writes(), verified.response()), current.now());
    } catch (InvalidDocumentException e) {
      State next = Lifecycle.next(a.state(), Action.ESCALATE, Lifecycle.Facts.NONE);
      Disputes.Filing filing = disputes.file(a, "evaluator_timeout", "server", current.now());
      ObjectNode assignment = Json.object().put("backup", "builtin").put("assigned_at", current.now().toString())
          .put("outcome", "unable").put("reason", e.getMessage());
      Agreement result = Enforcement.withEscrowStatus(
          a.withState(next).withFact(Fact.EVALUATOR_ASSIGNMENT, assignment).withFacts(f -> f.withDispute(filing.fact())),
          EscrowStatus.FROZEN);
      ObjectNode payload = assignment.deepCopy();
      payload.set("dispute", filing.fact().toJson());
      payload.put("state", next.name());
      return new Change(result, List.of(new EventLog.Draft(EventType.ESCALATED, backup, payload)),
          filing.message().map(List::of).orElse(List.of()), null);
    }
  }

  /**
   * An evaluator's result after its deadline is refused, whether or not the timer has run yet: the
   * dead-man's switch decides from the deadline, not from when a poller got round to it. The
   * timeout action runs now (once: it re-checks the state), then the caller hears why.
   */
  private void refuseLateResult(String id, Caller caller) {
    Agreement a = cache.of(loadFor(id, caller, Operation.SUBMIT_VERIFICATION_RESULT));
    Optional<Instant> deadline = Deadlines.evaluatorDeadline(a);
    Instant now = clock.instant();
    if (a.state() != State.DELIVERED || deadline.isEmpty() || now.isBefore(deadline.get())) {
      return;
    }
    mutate(id, null, Caller.SERVER, Operation.TRIGGER_VERIFICATION, current -> current.agreement().state() == State.DELIVERED
        ? evaluatorTimedOut(current) : null);
    throw new ConflictException("the evaluator's deadline for agreement " + id + " passed at " + deadline.get()
        + " (evaluator_timeout_seconds after delivery): the result is refused and the timeout action ("
        + a.terms().escrow().deadMansSwitch().timeoutAction().name().toLowerCase(java.util.Locale.ROOT) + ") has run");
  }

  /**
   * {@code GET /agreements/{id}/negotiation}: the rounds as a readable transcript, from the event
   * log (each message with its party, rationale, and the before and after of every term).
   */
  public ObjectNode negotiationTranscript(String id, Caller caller) {
    loadFor(id, caller, Operation.READ);
    ObjectNode out = Json.object();
    out.put("agreement_id", id);
    ArrayNode rounds = out.putArray("rounds");
    for (EventRecord r : store.events(id)) {
      if (r.type().equals(EventType.NEGOTIATED.wireName()) || r.type().equals(EventType.ACCEPTED.wireName())
          || r.type().equals(EventType.REJECTED.wireName())) {
        ObjectNode round = (ObjectNode) Json.parseTrusted(r.payload());
        round.put("at", r.at().toString());
        round.put("event", r.type());
        rounds.add(round);
      }
    }
    Agreement a = cache.of(load(id));
    out.set("state", Json.mapper().getNodeFactory().textNode(a.state().name()));
    if (a.facts().has(Fact.NEGOTIATION)) {
      out.set("negotiation", a.facts().get(Fact.NEGOTIATION));
    }
    return out;
  }

  /**
   * {@code POST /agreements/{id}/fund}: the client's money is held in the agreement's escrow
   * (through its binding), and the provider's delivery clock starts.
   */
  public Outcome fund(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    ObjectNode b = body == null || body.isNull() || body.isMissingNode() ? Json.object() : StrictJson.failFast().object(body, "", "a fund request");
    return mutate(id, ticket, caller, Operation.FUND, current -> {
      Agreement a = current.agreement();
      Lifecycle.require(a.state(), Action.FUND);
      if (Enforcement.isFunded(a)) {
        throw new ConflictException("agreement " + id + " is already funded (at " + a.facts().fundedAt().orElseThrow() + ")");
      }
      Enforcement.Funding step = enforcement.fund(a, b, current.now());
      Agreement result = a.withFacts(f -> f.withEscrow(step.escrow()));
      List<Write> writes = new ArrayList<>(step.writes());
      writes.addAll(Deadlines.atFunding(result, current.now()));
      ObjectNode payload = step.escrow().toJson();
      payload.put("state", a.state().name());
      return new Change(result, List.of(new EventLog.Draft(EventType.FUNDED, current.actor(), payload)), writes, null);
    });
  }

  public Outcome deliver(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    Delivery delivery = Delivery.parse(body);
    return mutate(id, ticket, caller, Operation.DELIVER, current -> {
      Agreement a = current.agreement();
      boolean redelivery = hardeningOpen(a);
      State next = redelivery
          ? Lifecycle.next(a.state(), Action.REDELIVER, Lifecycle.Facts.hardening(true))
          : Lifecycle.next(a.state(), Action.DELIVER, Lifecycle.Facts.NONE);
      if (Enforcement.requiresFunding(a.terms()) && !Enforcement.isFunded(a)) {
        throw new ConflictException("the client has not funded the escrow of agreement " + id
            + " yet; deliver once it is funded (GET /agreements/" + id + "/escrow shows its status)");
      }
      String format = delivery.format() != null ? delivery.format() : a.terms().service().deliverableFormat();
      DeliverableFact delivered = new DeliverableFact(current.now(), delivery.contentHash().toString(),
          delivery.sizeBytes(), format, delivery.contentUrl(), redelivery);
      Agreement result = a.withState(next).withFacts(f -> f.withDeliverable(delivered));
      int attempt = 1;
      if (redelivery) { // the one re-delivery a shadow hardening cycle allows
        attempt = store.latestDeliverable(id).map(d -> d.attempt() + 1).orElse(1);
        HardeningFact cycle = a.facts().hardening().orElseThrow().redelivered(current.now());
        result = result.withFacts(f -> f.withHardening(cycle));
      }
      ObjectNode payload = delivered.toJson();
      payload.put("state", next.name());
      List<Write> writes = new ArrayList<>();
      writes.add(new Write.PutDeliverable(delivery.toRow(id, attempt, format, current.now())));
      writes.addAll(Deadlines.atDelivery(result, current.now()));
      return new Change(result, List.of(new EventLog.Draft(EventType.DELIVERED, current.actor(), payload)), writes, null);
    });
  }

  public Outcome verify(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    requireNoPendingRedelivery(id, caller);
    VerificationRequest.Config config = VerificationRunner.SubmittedResult.config(body);
    VerificationRunner.SubmittedResult submitted = VerificationRunner.SubmittedResult.parse(body);
    // The server's engine runs when asked to, or by the agreement's own depth when nobody submits scores.
    if (config != null || (submitted.isEmpty() && store.find(id).map(r -> depthOf(cache.of(r)) != Depth.STRUCTURAL).orElse(false))) {
      return verifyByEngine(id, config == null ? VerificationRequest.Config.DEFAULTS : config, caller, ticket);
    }
    // Submitting scores is the evaluator's; asking the server's built-in evaluator to run is any party's.
    Operation op = submitted.isEmpty() ? Operation.TRIGGER_VERIFICATION : Operation.SUBMIT_VERIFICATION_RESULT;
    if (!submitted.isEmpty()) {
      refuseLateResult(id, caller);
    }
    return mutate(id, ticket, caller, op, current -> enforceResult(verifier.verify(
        current.agreement(), submitted, submitted.isEmpty() ? Actor.server(serverKeyId) : current.actor(),
        current.now(), this::newVerificationId), current.now()));
  }

  /** The agreement's own verification depth ({@code verification.depth}); structural when it names none. */
  private static Depth depthOf(Agreement a) {
    String depth = a.terms().verification().depth();
    return depth == null ? Depth.STRUCTURAL : Depth.fromWire(depth);
  }

  /**
   * Verification by the server's engine at the depth asked for (or the agreement's). Structural
   * depth answers at once; semantic and composite depth start a background job and answer 202 with
   * where to follow it. Asking again for the same deliverable finds the job already started (or
   * finished) instead of starting another; after a failed job, asking again starts a new one.
   *
   * @param expectedHash when not null, the digest the caller's copy of the deliverable has: a
   *     different digest from the one recorded at delivery is refused (a deliverable swap)
   */
  public Outcome verifyByEngine(String id, VerificationRequest.Config config, Caller caller, IdempotencyTicket ticket) {
    return verifyByEngine(id, config, null, caller, ticket);
  }

  public Outcome verifyByEngine(String id, VerificationRequest.Config config, dev.asa.crypto.Digest expectedHash, Caller caller,
      IdempotencyTicket ticket) {
    requireNoPendingRedelivery(id, caller);
    AgreementRow row = loadFor(id, caller, Operation.TRIGGER_VERIFICATION);
    Agreement agreement = cache.of(row);
    Depth fallback = depthOf(agreement);
    if (evaluators == null && (config.depth() != null ? config.depth() : fallback) != Depth.STRUCTURAL) {
      throw new ConflictException("this server runs no semantic evaluator; verify at structural depth or submit an evaluator_result");
    }
    VerificationEngine.Plan plan = evaluators == null ? VerificationEngine.Plan.structural() : evaluators.plan(config, fallback);
    if (agreement.state() == State.DELIVERED && expectedHash != null) {
      DeliverableRow delivered = verifier.deliverableToVerify(agreement);
      if (!delivered.contentHash().equals(expectedHash.toString())) {
        throw new ConflictException("the deliverable sent (" + expectedHash + ") is not the one delivered for agreement " + id
            + " (" + delivered.contentHash() + "); a verification judges only what was delivered");
      }
    }
    if (plan.depth() == Depth.STRUCTURAL) {
      return mutate(id, ticket, caller, Operation.TRIGGER_VERIFICATION, current -> enforceResult(verifier.verify(
          current.agreement(), VerificationRunner.SubmittedResult.parse(null), Actor.server(serverKeyId), current.now(),
          this::newVerificationId), current.now()));
    }
    Optional<DeliverableRow> latest = store.latestDeliverable(id);
    Optional<JobRow> existing = latest.flatMap(d -> Jobs.latestAttempt(store, Jobs.agreementKey(id, d.contentHash())));
    if (existing.isPresent() && existing.get().status() == JobRow.Status.COMPLETED) {
      // A replay after the fact: the result already recorded, not a second verification.
      ObjectNode response = Json.object();
      response.put("agreement_id", id);
      response.put("state", agreement.state().name());
      response.set("verification", Json.parseTrusted(store.verification(existing.get().id()).orElseThrow().result()));
      return new Outcome(200, response);
    }
    if (existing.isPresent() && existing.get().status() != JobRow.Status.FAILED) {
      return new Outcome(202, Jobs.describe(existing.get()));
    }
    Lifecycle.next(agreement.state(), Action.VERIFY, Lifecycle.Facts.NONE);
    DeliverableRow delivered = verifier.deliverableToVerify(agreement);
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    long timeout = config.timeoutSeconds() != null ? config.timeoutSeconds() : agreement.terms().verification().evaluatorTimeoutSeconds();
    int attempt = Jobs.nextAttempt(existing);
    ObjectNode request = Json.object();
    request.put("agreement_id", id);
    request.set("verification_config", Jobs.configJson(config, plan));
    JobRow job = new JobRow(newVerificationId(), Jobs.attemptKey(Jobs.agreementKey(id, delivered.contentHash()), attempt), id, delivered.contentHash(),
        caller.describe(), Json.write(request), null, JobRow.Status.QUEUED, "queued", 0, 1, null, now, now, now.plusSeconds(timeout));
    Outcome outcome = mutate(id, ticket, caller, Operation.TRIGGER_VERIFICATION, current -> {
      Lifecycle.next(current.agreement().state(), Action.VERIFY, Lifecycle.Facts.NONE);
      ObjectNode payload = Json.object();
      payload.put("verification_id", job.id());
      payload.put("deliverable_hash", job.deliverableHash());
      payload.set("verification_config", request.path("verification_config"));
      return new Change(current.agreement(), List.of(new EventLog.Draft(EventType.VERIFICATION_REQUESTED, current.actor(), payload)),
          List.of(new Write.PutJob(job)), Jobs.describe(job), 202);
    });
    startJob(job, plan);
    return outcome;
  }

  /** Resumes an agreement's job found unfinished at startup. */
  public void resumeJob(JobRow job) {
    JsonNode request = Json.parseTrusted(job.request());
    VerificationRequest.Config config = VerificationRequest.parseConfig(request.path("verification_config"));
    AgreementRow row = store.find(job.agreementId()).orElseThrow();
    startJob(job, evaluators.plan(config, depthOf(cache.of(row))));
  }

  private void startJob(JobRow job, VerificationEngine.Plan plan) {
    jobs.submit(job, progress -> runJob(job, plan, progress), message -> Jobs.fail(store, job.id(), message, clock.instant()));
  }

  private void runJob(JobRow job, VerificationEngine.Plan plan, dev.asa.evaluators.Progress progress) throws Exception {
    Agreement a = cache.of(load(job.agreementId()));
    if (a.state() != State.DELIVERED) {
      throw new ConflictException("agreement " + a.id() + " is " + a.state() + " now, no longer waiting for verification");
    }
    DeliverableRow row = verifier.deliverableToVerify(a);
    if (!row.contentHash().equals(job.deliverableHash())) {
      throw new ConflictException("agreement " + a.id() + " has a newer deliverable than the one this job was asked to verify");
    }
    VerificationRunner.Assessed assessed = verifier.assess(a, row, verifier.content(row), plan, progress);
    mutate(a.id(), null, Caller.SERVER, Operation.TRIGGER_VERIFICATION, current -> {
      Agreement now = current.agreement();
      if (now.state() != State.DELIVERED) {
        throw new ConflictException("agreement " + now.id() + " moved on to " + now.state() + " while it was being verified");
      }
      return enforceResult(verifier.record(now, assessed, Actor.server(serverKeyId), current.now(), job.id(),
          List.of(new Write.FinishJob(job.id(), JobRow.Status.COMPLETED, null, current.now()))), current.now());
    });
  }

  /**
   * After verification: with a challenge window, a timer enforces the result when it closes;
   * pessimistic verification enforces it at once.
   */
  private Change enforceResult(Change verified, Instant now) {
    Agreement a = verified.next();
    if (a.state() == State.DELIVERED) { // a shadow hardening cycle opened: nothing to enforce yet
      return verified;
    }
    VerificationFact recorded = a.facts().verification().orElseThrow();
    String shadowGate = recorded.shadowGate();
    if (shadowGate.equals(dev.asa.shadow.Gate.QUARANTINE.wire()) || shadowGate.equals(dev.asa.shadow.Gate.BLOCKED.wire())) {
      return quarantine(verified, shadowGate, now);
    }
    List<Write> writes = new ArrayList<>(verified.writes());
    if (a.terms().verification().strategy() != VerificationTerms.Strategy.PESSIMISTIC) {
      Instant closesAt = recorded.challengeWindowClosesAt();
      writes.addAll(Deadlines.atVerification(a, closesAt));
      return new Change(a, verified.events(), writes, verified.response());
    }
    Change closed = closing.onResult(a, now, Actor.server(serverKeyId));
    List<EventLog.Draft> events = new ArrayList<>(verified.events());
    events.addAll(closed.events());
    writes.addAll(closed.writes());
    ObjectNode response = ((ObjectNode) verified.response()).deepCopy();
    response.put("state", closed.next().state().name());
    return new Change(closed.next(), events, writes, response);
  }

  /**
   * The shadow gate held the payment: a score of 31 to 50% (quarantine), or a seal that does not
   * verify (blocked). The result stays recorded; the agreement goes to DISPUTED with the money
   * frozen, through the same filing as a challenge, with the shadow report as evidence; a ruling
   * settles it.
   */
  private Change quarantine(Change verified, String gate, Instant now) {
    Agreement a = verified.next();
    State next = Lifecycle.next(a.state(), Action.QUARANTINE, Lifecycle.Facts.NONE);
    String reason = gate.equals(dev.asa.shadow.Gate.BLOCKED.wire()) ? "shadow_seal_broken" : "shadow_score_quarantine";
    Disputes.Filing filing = disputes.file(a, reason, "server", now);
    DisputeFact dispute = filing.fact();
    JsonNode report = verified.response() == null ? null : verified.response().path("verification").path("shadow_score");
    if (report != null && !report.isMissingNode()) {
      ObjectNode evidence = Json.object();
      evidence.set("shadow_score", report);
      dispute = dispute.withEvidence(evidence);
    }
    DisputeFact filed = dispute;
    Agreement result = Enforcement.withEscrowStatus(a.withState(next).withFacts(f -> f.withDispute(filed)), EscrowStatus.FROZEN);
    ObjectNode payload = Json.object();
    payload.put("gate", gate);
    payload.put("reason_code", reason);
    payload.set("dispute", filing.fact().toJson());
    payload.put("state", next.name());
    List<EventLog.Draft> events = new ArrayList<>(verified.events());
    events.add(new EventLog.Draft(EventType.QUARANTINED, Actor.server(serverKeyId), payload));
    List<Write> writes = new ArrayList<>(verified.writes());
    filing.message().ifPresent(writes::add);
    ObjectNode response = ((ObjectNode) verified.response()).deepCopy();
    response.put("state", next.name());
    return new Change(result, events, writes, response);
  }

  // ---- sealed Shadow Scoring criteria -----------------------------------------------------

  /** {@code POST /agreements/{id}/seal}: the client seals acceptance criteria before anyone signs. */
  public Outcome seal(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    dev.asa.shadow.SealRequest request = dev.asa.shadow.SealRequest.parse(body);
    Agreement before = cache.of(loadFor(id, caller, Operation.READ));
    if (!AccessPolicy.rolesOf(before.terms(), caller).contains(Role.CLIENT)) {
      throw AccessDeniedException.forbidden("only the client of agreement " + id + " seals acceptance criteria");
    }
    return mutate(id, ticket, caller, Operation.NEGOTIATE,
        current -> verifier.shadow().seal(current.agreement(), request, caller, current.actor(), current.now()));
  }

  /** {@code GET /agreements/{id}/seal}: the sealed envelope, for its sealer (and the operator) before the reveal, any party after. */
  public ObjectNode sealOf(String id, Caller caller) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    return verifier.shadow().read(cache.of(load(id)), caller, "GET /agreements/" + id + "/seal", now);
  }

  /** {@code GET /agreements/{id}/hardening}: the failure messages of an open hardening cycle. */
  public ObjectNode hardening(String id, Caller caller) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    return verifier.shadow().hardeningMessages(cache.of(load(id)), caller, "GET /agreements/" + id + "/hardening", now);
  }

  /** {@code POST /shadow/seals}: a standalone seal for any signed caller. */
  public Outcome sealStandalone(JsonNode body, Caller caller, IdempotencyTicket ticket) {
    return verifier.shadow().sealStandalone(body, caller, ticket, clock.instant().truncatedTo(ChronoUnit.MILLIS));
  }

  /** {@code POST /shadow/seals/{id}/validate}: the sealer validates work against its standalone seal. */
  public Outcome validateStandalone(String sealId, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    return verifier.shadow().validateStandalone(sealId, body, caller, ticket, clock.instant().truncatedTo(ChronoUnit.MILLIS));
  }

  /** {@code GET /shadow/seals/{id}/report}: the latest report of a standalone seal, for its sealer. */
  public ObjectNode standaloneReport(String sealId, Caller caller) {
    return verifier.shadow().standaloneReport(sealId, caller);
  }

  /** Whether a shadow hardening cycle waits for the provider's re-delivery. */
  static boolean hardeningOpen(Agreement a) {
    return a.state() == State.DELIVERED
        && a.facts().hardeningOpen();
  }

  /**
   * While a hardening cycle waits for the provider's re-delivery, only the provider (declining to
   * re-deliver) may have the delivery verified as it is; the server's evaluator deadline also ends it.
   */
  private void requireNoPendingRedelivery(String id, Caller caller) {
    Optional<AgreementRow> row = store.find(id);
    if (row.isEmpty()) {
      return; // the call itself answers 404
    }
    Agreement a = cache.of(row.get());
    var roles = AccessPolicy.rolesOf(a.terms(), caller);
    if (hardeningOpen(a) && !roles.isEmpty() && !roles.contains(Role.PROVIDER)) {
      throw new ConflictException("agreement " + id + " waits for the provider's re-delivery (a shadow hardening cycle is open);"
          + " it is verified after the re-delivery, or when the provider asks for verification as delivered");
    }
  }

  public Outcome challenge(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    ObjectNode b = StrictJson.failFast().object(body, "", "a challenge");
    StrictJson.failFast().allowOnly(b, "", "party", "reason_code");
    String claimed = StrictJson.failFast().optionalText(b, "", "party");
    String code = StrictJson.failFast().text(b, "", "reason_code", "one of " + ChallengeReason.allWireNames());
    ChallengeReason reason;
    try {
      reason = ChallengeReason.fromWire(code);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/reason_code", e.getMessage());
    }
    return mutate(id, ticket, caller, Operation.CHALLENGE, current -> {
      Agreement a = current.agreement();
      requireClaimMatches(claimed, current.actor());
      boolean open = window(a).map(w -> w.isOpenAt(current.now())).orElse(false);
      State next = Lifecycle.next(a.state(), Action.CHALLENGE, new Lifecycle.Facts(false, open));
      ObjectNode payload = Json.object();
      payload.put("party", current.actor().role());
      payload.put("reason_code", reason.wireName());
      payload.put("state", next.name());
      Disputes.Filing filing = disputes.file(a, reason.wireName(), current.actor().role(), current.now());
      payload.set("dispute", filing.fact().toJson());
      Agreement result = Enforcement.withEscrowStatus(a.withState(next).withFacts(f -> f.withDispute(filing.fact())),
          EscrowStatus.FROZEN);
      return new Change(result, List.of(new EventLog.Draft(EventType.CHALLENGED, current.actor(), payload)),
          filing.message().map(List::of).orElse(List.of()), null);
    });
  }

  public Outcome close(String id, Caller caller, IdempotencyTicket ticket) {
    return mutate(id, ticket, caller, Operation.CLOSE, current -> {
      Agreement a = current.agreement();
      boolean open = window(a).map(w -> w.isOpenAt(current.now())).orElse(false);
      Lifecycle.next(a.state(), Action.CLOSE, new Lifecycle.Facts(false, open)); // refuses while the window is open
      return closing.onResult(a, current.now(), current.actor());
    });
  }

  /**
   * {@code POST /agreements/{id}/ruling}: the operator, or an arbiter the operator configured,
   * settles a dispute with a release percentage and a reason; the agreement closes.
   */
  public Outcome rule(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    ObjectNode b = StrictJson.failFast().object(body, "", "a ruling");
    StrictJson.failFast().allowOnly(b, "", "release_percent", "reason");
    JsonNode p = b.get("release_percent");
    if (p == null || !p.isNumber() || p.decimalValue().signum() < 0 || p.decimalValue().compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new InvalidDocumentException("/release_percent", "required: a number from 0 to 100, the share released to the provider");
    }
    if (p.decimalValue().scale() > 2) {
      throw new InvalidDocumentException("/release_percent", "at most two decimals");
    }
    String reason = StrictJson.failFast().text(b, "", "reason", "the reason for the ruling, kept in the record");
    if (reason.isBlank() || reason.length() > 2000) {
      throw new InvalidDocumentException("/reason", "a non-blank text of at most 2000 characters");
    }
    // An arbiter is a stranger to the agreement's parties; it holds ruling authority by configuration.
    Caller ruler = caller instanceof Caller.Key k && arbiters.contains(k.key()) ? new Caller.Key(k.key(), true) : caller;
    return mutate(id, ticket, ruler, Operation.RULE, current -> {
      // No one judges their own case: a key that is a party's or the evaluator's here never rules on it.
      var roles = AccessPolicy.rolesOf(current.agreement().terms(), caller);
      if (!roles.isEmpty()) {
        throw AccessDeniedException.forbidden("the " + roles.iterator().next().wireName() + " of agreement " + id
            + " may not rule on its dispute, whatever its arbiter or operator standing; another arbiter rules");
      }
      Lifecycle.require(current.agreement().state(), Action.RULE);
      Actor actor = new Actor(caller instanceof Caller.Key k && k.operator() ? "operator" : "arbiter",
          current.actor().keyId(), true);
      return closing.onRuling(current.agreement(), p.decimalValue(), reason, current.now(), actor);
    });
  }

  // ---- plumbing ---------------------------------------------------------------------------

  /** The loaded agreement a decision is made on. */
  record Current(AgreementRow row, Agreement agreement, Event lastEvent, Instant now, Actor actor) {}

  /**
   * What a decision produced: the next agreement, the events that explain it, side writes, and an
   * optional response body (null: the agreement envelope).
   */
  record Change(Agreement next, List<EventLog.Draft> events, List<Write> writes, JsonNode response, int status) {
    Change(Agreement next, List<EventLog.Draft> events, List<Write> writes, JsonNode response) {
      this(next, events, writes, response, 200);
    }
  }

  interface Decision {
    Change decide(Current current);
  }

  private Outcome mutate(String id, IdempotencyTicket ticket, Caller caller, Operation op, Decision decision) {
    AgreementRow row = loadFor(id, caller, op);
    Agreement agreement = cache.of(row);
    Event last = store.lastEvent(id).map(EventLog::toCore).orElse(null);
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Change change = decision.decide(new Current(row, agreement, last, now, actorFor(agreement, caller)));
    if (change == null) { // nothing to do (e.g. a timer whose reason has passed)
      return new Outcome(200, Views.envelope(agreement, row.version()));
    }
    long version = row.version() + 1;
    AgreementRow updated = Views.row(change.next(), version, row.createdAt(), now);
    List<EventRecord> events = EventLog.chain(id, last, change.events(), now);
    JsonNode body = change.response() != null ? change.response() : Views.envelope(change.next(), version);
    Outcome outcome = new Outcome(change.status(), body);
    List<Write> writes = new ArrayList<>(change.writes());
    writes.addAll(idempotencyWrites(ticket, outcome, now));
    try {
      store.commit(new Commit(updated, row.version(), events, writes));
    } catch (dev.asa.server.store.StaleVersionException e) {
      throw new ConflictException("agreement " + id + " changed while this request was processed; read it again and retry");
    } catch (dev.asa.server.store.DuplicateKeyException e) {
      throw new ConflictException("a concurrent request changed agreement " + id + " first; read it again and retry");
    } catch (dev.asa.server.store.LedgerRefusedException e) {
      throw new ConflictException(e.getMessage());
    }
    cache.remember(id, version, change.next());
    return outcome;
  }

  /** The write that remembers a POST's answer for its Idempotency-Key, if it has one. */
  public static List<Write> idempotencyWrites(IdempotencyTicket ticket, Outcome outcome, Instant now) {
    if (ticket == null) {
      return List.of();
    }
    return List.of(new Write.PutIdempotency(new IdempotencyRow(
        ticket.scope(), ticket.key(), ticket.requestHash(), outcome.status(), Json.write(outcome.body()), now)));
  }

  private AgreementRow load(String id) {
    return store.find(id).orElseThrow(() -> notFound(id));
  }

  private static NotFoundException notFound(String id) {
    return new NotFoundException("no agreement with id '" + id + "'");
  }

  /** Loads the agreement and applies the access policy: strangers see "not found", like for a missing id. */
  private AgreementRow loadFor(String id, Caller caller, Operation op) {
    AgreementRow row = load(id);
    AccessPolicy.require(cache.of(row).terms(), caller, op);
    return row;
  }

  /** The event-log actor for a caller: the role its key holds here (one at most: keys are distinct). */
  private Actor actorFor(Agreement a, Caller caller) {
    return switch (caller) {
      case Caller.Server s -> Actor.server(serverKeyId);
      case Caller.Key k -> {
        var roles = AccessPolicy.rolesOf(a.terms(), caller);
        String role = roles.isEmpty() ? (k.operator() ? "operator" : "stranger") : roles.iterator().next().wireName();
        yield Actor.verified(role, k.keyId());
      }
    };
  }

  /** A body may name the party it acts as; it must be the one the caller's key is. */
  static void requireClaimMatches(String claimed, Actor actor) {
    if (claimed != null && !claimed.equals(actor.role())) {
      throw AccessDeniedException.forbidden(
          "the request says it acts as the " + claimed + ", but it is signed by the " + actor.role() + "'s key");
    }
  }

  static Optional<ChallengeWindow> window(Agreement a) {
    return a.facts().verifiedAt().map(at -> ChallengeWindow.after(at, a.terms().verification()));
  }

  private static Role signingRole(String party) {
    return switch (party) {
      case "client" -> Role.CLIENT;
      case "provider" -> Role.PROVIDER;
      default -> throw new InvalidDocumentException("/party", "must be \"client\" or \"provider\", not '" + party + "'");
    };
  }

  private String newAgreementId() {
    return "asa-" + LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC) + "-" + randomHex(8);
  }

  private String newNegotiationId() {
    return "neg-" + randomHex(8);
  }

  private String newVerificationId() {
    return "ver-" + LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC) + "-" + randomHex(8);
  }

  private String randomHex(int bytes) {
    byte[] b = new byte[bytes];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
