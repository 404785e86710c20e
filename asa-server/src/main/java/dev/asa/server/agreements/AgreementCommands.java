package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.agreement.Eligibility;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDrafts;
import dev.asa.facts.DeliverableFact;
import dev.asa.facts.EscrowFact;
import dev.asa.facts.Fact;
import dev.asa.facts.FactCodec;
import dev.asa.facts.HardeningFact;
import dev.asa.facts.ProvenanceFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.escrow.FundRequest;
import dev.asa.server.pool.EvaluatorAssignments;
import dev.asa.server.reputation.Reputation;
import dev.asa.server.settlement.Closing;
import dev.asa.server.shadow.ShadowSeals;
import dev.asa.server.store.Write;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.ChainHead;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.store.verification.DeliverableStore;
import dev.asa.server.verification.EvaluatorTasks;
import dev.asa.server.verification.VerificationRunner;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.Command;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.Deadlines;
import dev.asa.server.work.Delivery;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.Ids;
import dev.asa.server.work.Outcome;
import dev.asa.server.work.TaskEnds;
import dev.asa.server.work.UnitOfWork;
import dev.asa.server.work.Views;
import dev.asa.shadow.SealRequest;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The write side of the agreements API, one method per call: create, sign, negotiate, fund, stake
 * collateral, deliver, challenge, close, rule, and sealing Shadow Scoring criteria. Each parses its
 * body, lets the core decide inside one {@link UnitOfWork}, and returns the outcome to render.
 */
public final class AgreementCommands {
  private final UnitOfWork work;
  private final DeliverableStore deliverables;
  private final VerificationRunner verifier;
  private final Enforcement enforcement;
  private final Closing closing;
  private final Negotiation negotiation;
  private final SubcontractGuard subcontracts;
  private final EvaluatorAssignments assignments;
  private final Ids ids;
  private final EvaluatorTermsCheck evaluatorTerms;
  private final EvaluatorTasks tasks;
  private final Reputation reputation;
  private final CocChains chains;

  AgreementCommands(
      UnitOfWork work,
      DeliverableStore deliverables,
      VerificationRunner verifier,
      Enforcement enforcement,
      Closing closing,
      Negotiation negotiation,
      SubcontractGuard subcontracts,
      EvaluatorAssignments assignments,
      Ids ids,
      EvaluatorTermsCheck evaluatorTerms,
      EvaluatorTasks tasks,
      Reputation reputation,
      CocChains chains) {
    this.work = work;
    this.deliverables = deliverables;
    this.verifier = verifier;
    this.enforcement = enforcement;
    this.closing = closing;
    this.negotiation = negotiation;
    this.subcontracts = subcontracts;
    this.assignments = assignments;
    this.ids = ids;
    this.evaluatorTerms = evaluatorTerms;
    this.tasks = tasks;
    this.reputation = reputation;
    this.chains = chains;
  }

  public Outcome create(JsonNode input, Caller caller, IdempotencyTicket ticket) {
    Instant now = work.now();
    if (input != null && input.path("verification").has("shadow_seal")) {
      throw new InvalidDocumentException(
          "/verification/shadow_seal",
          "set by the server when the client seals criteria (POST /agreements/{id}/seal), never by a proposal");
    }
    Agreement agreement = AgreementDrafts.propose(input, now, ids::agreementId);
    AccessPolicy.requireProposer(agreement.terms(), caller);
    enforcement.check(agreement);
    assignments.checkSupported(agreement.terms());
    evaluatorTerms.check(agreement);
    // CoC identities backed by a chain: verified before anything is written (a fetch, outside any
    // transaction), their length and age recorded as a fact.
    ProvenanceFact provenance = chains.atCreation(agreement, now);
    if (!provenance.isEmpty()) {
      agreement = agreement.withFacts(f -> f.withProvenance(provenance));
    }
    Actor actor = work.actorFor(agreement, caller);
    ObjectNode payload = Json.object();
    payload.put("agreement_hash", agreement.hash().toString());
    payload.put("state", State.PROPOSED.name());
    agreement.facts().template().ifPresent(template -> payload.put("template", template));
    List<EventLog.Draft> drafts = new ArrayList<>();
    drafts.add(new EventLog.Draft(EventType.CREATED, actor, payload));
    // Signatures the document arrived with (AgreementDrafts verified them): one SIGNED event
    // each, as a sign call would record, and activation by the same steps as the second sign.
    State reached = State.PROPOSED;
    for (Role role : new Role[] {Role.CLIENT, Role.PROVIDER}) {
      if (agreement.signature(role).isPresent()) {
        boolean last = role == Role.PROVIDER || !agreement.isSignedBy(Role.PROVIDER);
        reached = last ? agreement.state() : State.PROPOSED;
        drafts.add(
            new EventLog.Draft(
                EventType.SIGNED,
                actor,
                signedPayload(agreement, role, agreement.signature(role).get(), reached)));
      }
    }
    List<Write> deadlines = Deadlines.atCreation(agreement);
    if (agreement.state() == State.ACTIVE) {
      // The chains were verified a moment ago: nothing to fetch again.
      Activated activated = activate(agreement, now, null);
      agreement = activated.agreement();
      drafts.addAll(activated.events());
      deadlines = activated.writes();
    }
    List<EventRecord> events = EventLog.chain(agreement.id(), ChainHead.START, drafts, now);
    AgreementRow row = Views.row(agreement, 1, now, now);
    Outcome outcome = new Outcome(201, Views.envelope(agreement, 1));
    List<Write> writes = new ArrayList<>(IdempotencyTicket.writes(ticket, outcome, now));
    writes.addAll(deadlines);
    String parentId = agreement.terms().service().parentAgreementId();
    if (parentId != null) {
      writes.add(new Write.LinkToParent(parentId, agreement.id()));
    }
    Agreement created = agreement;
    return subcontracts.createChild(
        created,
        caller,
        () -> {
          try {
            work.create(row, events, writes);
            work.remember(created.id(), 1, created);
          } catch (DuplicateKeyException e) {
            throw new ConflictException(
                "an agreement with id '"
                    + created.id()
                    + "' already exists; choose another agreement_id or leave it out");
          }
          return outcome;
        });
  }

  public Outcome sign(String id, Command.Sign request, Caller caller, IdempotencyTicket ticket) {
    Role role = request.party();
    Ed25519Signature signature = request.signature();
    Operation op = role == Role.CLIENT ? Operation.SIGN_AS_CLIENT : Operation.SIGN_AS_PROVIDER;
    // A chain behind a party's CoC identity is fetched again when this signature would activate
    // the agreement: before the unit of work, so no network call runs while it decides.
    UnitOfWork.Loaded loaded = work.loadForChange(id, caller, op);
    Agreement before = work.agreement(loaded.row());
    ProvenanceFact refreshed =
        before.isSignedBy(role.counterparty())
                && !before.isSignedBy(role)
                && chains.fetchesAtActivation(before)
            ? chains.atActivation(before, work.now())
            : null;
    return work.mutate(
        // After a fetch over the network, what it decides on is read again.
        refreshed == null ? loaded : work.loadForChange(id, caller, op),
        ticket,
        caller,
        op,
        current -> {
          Agreement a = current.agreement();
          Lifecycle.require(a.state(), Action.SIGN);
          String signedHash = request.agreementHash().orElse(null);
          if (signedHash != null && !signedHash.equals(a.hash().toString())) {
            throw new ConflictException(
                "the terms changed since they were read: the agreement_hash is now "
                    + a.hash()
                    + ", not "
                    + signedHash
                    + "; read the agreement again and sign the new hash");
          }
          if (a.isSignedBy(role)) {
            throw new ConflictException(
                "the " + role.wireName() + " has already signed these terms");
          }
          Agreement signed = a.withSignature(role, signature);
          State next =
              Lifecycle.next(
                  a.state(), Action.SIGN, new Lifecycle.Facts(signed.isFullySigned(), false));
          Agreement result = signed.withState(next);
          List<Write> writes = List.of();
          List<EventLog.Draft> events = new ArrayList<>();
          events.add(
              new EventLog.Draft(
                  EventType.SIGNED, current.actor(), signedPayload(a, role, signature, next)));
          if (next == State.ACTIVE) {
            Activated activated =
                activate(
                    result,
                    current.now(),
                    refreshed != null && a.facts().provenance().equals(before.facts().provenance())
                        ? refreshed
                        : null);
            result = activated.agreement();
            events.addAll(activated.events());
            writes = activated.writes();
          }
          return new Change(result, events, writes, null);
        });
  }

  private static ObjectNode signedPayload(
      Agreement a, Role role, Ed25519Signature signature, State next) {
    ObjectNode payload = Json.object();
    payload.put("party", role.wireName());
    payload.put("agreement_hash", a.hash().toString());
    payload.put("signature", signature.toBase64Url());
    payload.put("state", next.name());
    return payload;
  }

  /** An agreement just made ACTIVE, the events its activation adds and the timers it sets. */
  private record Activated(Agreement agreement, List<EventLog.Draft> events, List<Write> writes) {}

  /**
   * What becoming ACTIVE does, whether by the second sign call or by a document that arrives signed
   * by both: the activation time, the unfunded escrow when the terms need funding, the
   * threshold-noise commitment, the pool evaluator for an agreement that names none (never ACTIVE
   * without one), and the timers of {@link Deadlines#atActivation}.
   */
  private Activated activate(Agreement active, Instant activatedAt, ProvenanceFact refreshed) {
    requireEligible(active, activatedAt);
    Agreement result = active.withFacts(f -> f.withActivatedAt(activatedAt));
    if (refreshed != null) {
      result = result.withFacts(f -> f.withProvenance(refreshed));
    } else if (chains.fetchesAtActivation(active)
        && !active.facts().provenance().isEmpty()
        && !active.facts().has(dev.asa.facts.Fact.ACTIVATED_AT)
        && active.facts().provenance().chains().values().stream()
            .allMatch(c -> c.verifiedAt().isBefore(activatedAt))) {
      // Activation by a second signature whose chains were not fetched beforehand (the facts moved
      // under the pre-fetch): refuse rather than activate on a stale verification.
      throw new ConflictException(
          "a party's CoC chain must be verified again as the agreement activates; sign again");
    }
    if (Enforcement.requiresFunding(result.terms())) {
      result = result.withFacts(f -> f.withEscrow(EscrowFact.unfunded()));
    }
    var noise = verifier.releasePolicy().commitment(result);
    if (noise.isPresent()) {
      result = result.withFact(Fact.THRESHOLD_NOISE, noise.get());
    }
    List<EventLog.Draft> events = new ArrayList<>();
    var assigned = assignments.atActivation(result, activatedAt);
    if (assigned.isPresent()) {
      result = assigned.get().agreement();
      events.add(assigned.get().event());
    }
    return new Activated(result, events, Deadlines.atActivation(result, activatedAt));
  }

  /**
   * The parties' history against the terms' {@code eligibility}, at the moment the agreement would
   * become ACTIVE (a record can grow between proposal and signature): a party that falls short is
   * refused with what it lacks, and nothing changes.
   */
  private void requireEligible(Agreement a, Instant now) {
    Eligibility eligibility = a.terms().eligibility();
    if (eligibility.byRole().isEmpty()) {
      return;
    }
    BigDecimal amount =
        a.terms().escrow().paymentTerms().map(p -> p.amount().amount()).orElse(null);
    for (Party party : List.of(a.terms().parties().client(), a.terms().parties().provider())) {
      if (!eligibility.byRole().containsKey(party.role())) {
        continue;
      }
      Eligibility.PartyRecord here =
          reputation != null ? reputation.recordOf(party) : Eligibility.PartyRecord.NONE;
      Optional<Long> chain = a.facts().provenance().of(party.role()).map(c -> c.summary().length());
      Eligibility.PartyRecord record = here.withChainLength(chain);
      eligibility
          .refusal(party.role(), record, amount, now)
          .ifPresent(why -> {
            throw new ConflictException(why);
          });
    }
  }

  public Outcome negotiate(
      String id, Command.Negotiate request, Caller caller, IdempotencyTicket ticket) {
    return work.mutate(
        id,
        ticket,
        caller,
        Operation.NEGOTIATE,
        current -> {
          Change change =
              negotiation.apply(
                  current.agreement(), request, current.now(), current.actor(), ids::negotiationId);
          // Terms moved by negotiation are held to what this server can honour, as at creation.
          if (change != null) {
            evaluatorTerms.check(change.next());
          }
          return change;
        });
  }

  /**
   * {@code POST /agreements/{id}/fund}: the client's money is held in the agreement's escrow
   * (through its binding), and the provider's delivery clock starts.
   */
  public Outcome fund(String id, FundRequest request, Caller caller, IdempotencyTicket ticket) {
    return work.mutate(
        id,
        ticket,
        caller,
        Operation.FUND,
        current -> {
          Agreement a = current.agreement();
          Lifecycle.require(a.state(), Action.FUND);
          if (Enforcement.isFunded(a)) {
            throw new ConflictException(
                "agreement "
                    + id
                    + " is already funded (at "
                    + a.facts().fundedAt().orElseThrow()
                    + ")");
          }
          Enforcement.Funding step = enforcement.fund(a, request, current.now());
          Agreement result = a.withFacts(f -> f.withEscrow(step.escrow()));
          List<Write> writes = new ArrayList<>(step.writes());
          writes.addAll(Deadlines.atFunding(result, current.now()));
          ObjectNode payload = FactCodec.write(step.escrow());
          payload.put("state", a.state().name());
          return new Change(
              result,
              List.of(new EventLog.Draft(EventType.FUNDED, current.actor(), payload)),
              writes,
              null);
        });
  }

  /**
   * {@code POST /agreements/{id}/collateral}: the provider stakes the collateral its terms ask for
   * ({@code escrow.collateral}), held beside the escrow until the agreement ends; delivery waits
   * for it. Before or after the client funds, but only while ACTIVE: once delivered the stake would
   * no longer bond anything.
   */
  public Outcome stakeCollateral(
      String id, Command.Stake request, Caller caller, IdempotencyTicket ticket) {
    return work.mutate(
        id,
        ticket,
        caller,
        Operation.STAKE_COLLATERAL,
        current -> {
          Agreement a = current.agreement();
          Lifecycle.require(a.state(), Action.STAKE_COLLATERAL);
          if (!Enforcement.requiresCollateral(a.terms())) {
            throw new ConflictException(
                "agreement "
                    + id
                    + " takes no collateral: its terms have no escrow.collateral, so there is"
                    + " nothing to stake");
          }
          if (Enforcement.isStaked(a)) {
            throw new ConflictException(
                "the collateral of agreement "
                    + id
                    + " is already staked (at "
                    + a.facts().collateral().orElseThrow().stakedAt()
                    + ")");
          }
          Enforcement.Bond step = enforcement.stake(a, request.bindingPayload(), current.now());
          Agreement result = a.withFacts(f -> f.withCollateral(step.collateral()));
          ObjectNode payload = FactCodec.write(step.collateral());
          payload.put("state", a.state().name());
          return new Change(
              result,
              List.of(new EventLog.Draft(EventType.COLLATERAL_STAKED, current.actor(), payload)),
              step.writes(),
              null);
        });
  }

  public Outcome deliver(
      String id, Command.Deliver request, Caller caller, IdempotencyTicket ticket) {
    Delivery delivery = request.delivery();
    return work.mutate(
        id,
        ticket,
        caller,
        Operation.DELIVER,
        current -> {
          Agreement a = current.agreement();
          boolean redelivery = ShadowSeals.hardeningOpen(a);
          State next =
              redelivery
                  ? Lifecycle.next(a.state(), Action.REDELIVER, Lifecycle.Facts.hardening(true))
                  : Lifecycle.next(a.state(), Action.DELIVER, Lifecycle.Facts.NONE);
          if (Enforcement.requiresFunding(a.terms()) && !Enforcement.isFunded(a)) {
            throw new ConflictException(
                "the client has not funded the escrow of agreement "
                    + id
                    + " yet; deliver once it is funded (GET /agreements/"
                    + id
                    + "/escrow shows its status)");
          }
          if (Enforcement.requiresCollateral(a.terms()) && !Enforcement.isStaked(a)) {
            var c = a.terms().escrow().collateralTerms().orElseThrow().amount();
            throw new ConflictException(
                "the provider has not staked the collateral of agreement "
                    + id
                    + " ("
                    + c
                    + ", escrow.collateral) yet; stake it (POST /agreements/"
                    + id
                    + "/collateral) before delivering");
          }
          if (!redelivery) { // a re-delivery replaces content the rail has already seen
            enforcement.checkDelivery(a, delivery.contentHash());
          }
          String format =
              delivery.format() != null
                  ? delivery.format()
                  : a.terms().service().deliverableFormat();
          DeliverableFact delivered =
              new DeliverableFact(
                  current.now(),
                  delivery.contentHash().toString(),
                  delivery.sizeBytes(),
                  format,
                  delivery.contentUrl(),
                  redelivery);
          Agreement result = a.withState(next).withFacts(f -> f.withDeliverable(delivered));
          int attempt = 1;
          if (redelivery) { // the one re-delivery a shadow hardening cycle allows
            attempt = deliverables.latest(id).map(d -> d.attempt() + 1).orElse(1);
            HardeningFact cycle = a.facts().hardening().orElseThrow().redelivered(current.now());
            result = result.withFacts(f -> f.withHardening(cycle));
          }
          ObjectNode payload = FactCodec.write(delivered);
          payload.put("state", next.name());
          List<Write> writes = new ArrayList<>();
          DeliverableRow row = delivery.toRow(id, attempt, format, current.now());
          if (redelivery) {
            // The delivery it replaces is no longer judged: its tasks end with it.
            writes.add(TaskEnds.redelivered(id, attempt, current.now()));
          }
          writes.add(new Write.PutDeliverable(row));
          writes.addAll(Deadlines.atDelivery(result, current.now()));
          writes.addAll(
              tasks.issue(
                  result, row, Deadlines.evaluatorDeadline(result).orElseThrow(), current.now()));
          return new Change(
              result,
              List.of(new EventLog.Draft(EventType.DELIVERED, current.actor(), payload)),
              writes,
              null);
        });
  }

  public Outcome close(String id, Caller caller, IdempotencyTicket ticket) {
    return work.mutate(
        id,
        ticket,
        caller,
        Operation.CLOSE,
        current -> {
          Agreement a = current.agreement();
          boolean open = Deadlines.window(a).map(w -> w.isOpenAt(current.now())).orElse(false);
          Lifecycle.next(
              a.state(),
              Action.CLOSE,
              new Lifecycle.Facts(false, open)); // refuses while the window is open
          return closing.onResult(a, current.now(), current.actor());
        });
  }

  /**
   * {@code POST /agreements/{id}/seal}: the client seals acceptance criteria before anyone signs.
   */
  public Outcome seal(String id, Command.Seal command, Caller caller, IdempotencyTicket ticket) {
    SealRequest request = command.request();
    Agreement before = work.agreement(work.loadFor(id, caller, Operation.READ));
    if (!AccessPolicy.rolesOf(before, caller).contains(Role.CLIENT)) {
      throw AccessDeniedException.forbidden(
          "only the client of agreement " + id + " seals acceptance criteria");
    }
    return work.mutate(
        id,
        ticket,
        caller,
        Operation.NEGOTIATE,
        current ->
            verifier
                .shadow()
                .seal(current.agreement(), request, caller, current.actor(), current.now()));
  }

  /** {@code POST /shadow/seals}: a standalone seal for any signed caller. */
  public Outcome sealStandalone(Command.Seal request, Caller caller, IdempotencyTicket ticket) {
    return verifier.standaloneSeals().sealStandalone(request.request(), caller, ticket, work.now());
  }

  /**
   * {@code POST /shadow/seals/{id}/validate}: the sealer validates work against its standalone
   * seal.
   */
  public Outcome validateStandalone(
      String sealId, Command.Validate delivered, Caller caller, IdempotencyTicket ticket) {
    return verifier
        .standaloneSeals()
        .validateStandalone(sealId, delivered, caller, ticket, work.now());
  }
}
