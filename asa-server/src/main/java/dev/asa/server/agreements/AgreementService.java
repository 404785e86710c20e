package dev.asa.server.agreements;

import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.market.MarketData;
import dev.asa.server.pool.AssignmentConfig;
import dev.asa.server.pool.EvaluatorAssignments;
import dev.asa.server.pool.EvaluatorRegistry;
import dev.asa.server.pool.PoolSource;
import dev.asa.server.reputation.Reputation;
import dev.asa.server.reputation.ReputationFeed;
import dev.asa.server.settlement.Closing;
import dev.asa.server.settlement.ResultEnforcement;
import dev.asa.server.store.Store;
import dev.asa.server.verification.EngineVerifications;
import dev.asa.server.verification.EvaluatorQueue;
import dev.asa.server.verification.EvaluatorTasks;
import dev.asa.server.verification.EvaluatorTimeouts;
import dev.asa.server.verification.TaskSettlement;
import dev.asa.server.verification.VerificationFlow;
import dev.asa.server.verification.VerificationRunner;
import dev.asa.server.verification.engine.JobRunner;
import dev.asa.server.verification.engine.OfferedEvaluators;
import dev.asa.server.work.Ids;
import dev.asa.server.work.UnitOfWork;
import java.time.Clock;
import java.util.Map;
import java.util.Set;

/**
 * The agreements application, composed once: its reads ({@link #queries}), its commands ({@link
 * #commands}), verification from request to enforcement ({@link #verifications}) and the durable
 * timers' handlers ({@link #timers}), all sharing one {@link UnitOfWork} over the agreements. Each
 * part is a use case of its own, given the stores it reads; this class only wires them.
 */
public final class AgreementService {

  private final AgreementQueries queries;
  private final AgreementCommands commands;
  private final DisputeCommands disputeCommands;
  private final VerificationFlow verifications;
  private final EngineVerifications engine;
  private final TimerHandlers timers;
  private final EvaluatorQueue queue;
  private final Forensics forensics;
  private final Anchoring anchoring;

  /**
   * @param evaluators the semantic evaluators for verification at semantic or composite depth; null
   *     when the server runs structural verification only
   * @param jobs runs those slower verifications in the background; null with {@code evaluators}
   * @param assignment the evaluator pool agreements that name no evaluator are assigned from, and
   *     the default rotation
   * @param registry the evaluator registry: pool, qualification policy and canary set
   */
  public AgreementService(
      Store store,
      Clock clock,
      VerificationRunner verifier,
      String serverKeyId,
      MarketData market,
      NegotiationPolicy policy,
      Set<String> trustedMarketSources,
      Enforcement enforcement,
      Disputes disputes,
      Set<Ed25519PublicKey> arbiters,
      OfferedEvaluators evaluators,
      JobRunner jobs,
      AssignmentConfig assignment,
      EvaluatorRegistry registry) {
    this(
        store,
        clock,
        verifier,
        serverKeyId,
        market,
        policy,
        trustedMarketSources,
        enforcement,
        disputes,
        arbiters,
        evaluators,
        jobs,
        assignment,
        registry,
        ReputationFeed.LOCAL,
        null);
  }

  /** As the full constructor, with CoC chains accepted inline only (no chain_url fetched). */
  public AgreementService(
      Store store,
      Clock clock,
      VerificationRunner verifier,
      String serverKeyId,
      MarketData market,
      NegotiationPolicy policy,
      Set<String> trustedMarketSources,
      Enforcement enforcement,
      Disputes disputes,
      Set<Ed25519PublicKey> arbiters,
      OfferedEvaluators evaluators,
      JobRunner jobs,
      AssignmentConfig assignment,
      EvaluatorRegistry registry,
      ReputationFeed reputation,
      Reputation reputations) {
    this(
        store,
        clock,
        verifier,
        serverKeyId,
        market,
        policy,
        trustedMarketSources,
        enforcement,
        disputes,
        arbiters,
        evaluators,
        jobs,
        assignment,
        registry,
        reputation,
        reputations,
        CocChains.inlineOnly());
  }

  /**
   * @param reputation what an agreement's end records for reputation (and pushes to ARP)
   * @param reputations the figures {@code depth_by_reputation} reads; null: every provider is
   *     without a record
   * @param chains fetches and verifies the CoC chains behind parties' {@code coc} identities
   */
  public AgreementService(
      Store store,
      Clock clock,
      VerificationRunner verifier,
      String serverKeyId,
      MarketData market,
      NegotiationPolicy policy,
      Set<String> trustedMarketSources,
      Enforcement enforcement,
      Disputes disputes,
      Set<Ed25519PublicKey> arbiters,
      OfferedEvaluators evaluators,
      JobRunner jobs,
      AssignmentConfig assignment,
      EvaluatorRegistry registry,
      ReputationFeed reputation,
      Reputation reputations,
      CocChains chains) {
    UnitOfWork work =
        new UnitOfWork(
            store.agreements(),
            store.events(),
            store.writes(),
            clock,
            serverKeyId,
            reputation,
            store.archives());
    Ids ids = new Ids(clock);
    SubcontractGuard subcontracts = new SubcontractGuard(store.agreements());
    Negotiation negotiation = new Negotiation(market, policy, trustedMarketSources, subcontracts);
    Closing closing = new Closing(enforcement, disputes);
    PoolSource poolSource = assignment.pool().orElseGet(() -> PoolSource.of(registry));
    EvaluatorAssignments assignments =
        new EvaluatorAssignments(assignment, poolSource, verifier.assignmentSeeds(), serverKeyId);
    EvaluatorTasks tasks =
        new EvaluatorTasks(
            store.tasks(), registry::canaries, verifier.canarySchedule(), poolSource, ids);
    this.disputeCommands = new DisputeCommands(work, disputes, closing, arbiters);
    this.forensics =
        new Forensics(
            work, store.events(), store.verifications(), store.tasks(), enforcement, arbiters);
    this.queries =
        new AgreementQueries(
            work,
            store.events(),
            store.verifications(),
            store.outbox(),
            store.timers(),
            enforcement,
            verifier,
            reputations);
    this.commands =
        new AgreementCommands(
            work,
            store.deliverables(),
            verifier,
            enforcement,
            closing,
            negotiation,
            subcontracts,
            assignments,
            ids,
            new EvaluatorTermsCheck(registry, evaluators),
            tasks,
            reputations,
            chains);
    this.anchoring = new Anchoring(work, store.events(), chains);
    ResultEnforcement results = new ResultEnforcement(closing, disputes, serverKeyId);
    this.engine =
        new EngineVerifications(
            work,
            store.deliverables(),
            store.jobs(),
            store.verifications(),
            store.writes(),
            verifier,
            serverKeyId,
            evaluators,
            jobs,
            ids,
            results,
            reputations);
    EvaluatorTimeouts timeouts =
        new EvaluatorTimeouts(
            verifier, closing, disputes, ids, results, assignments, tasks, serverKeyId);
    TaskSettlement settlement =
        new TaskSettlement(
            store.tasks(),
            store.deliverables(),
            verifier,
            results,
            timeouts,
            assignments,
            ids,
            serverKeyId);
    this.verifications =
        new VerificationFlow(
            work, verifier, serverKeyId, ids, engine, results, assignments, settlement);
    this.queue =
        new EvaluatorQueue(
            work,
            store.writes(),
            tasks,
            settlement,
            verifications,
            assignments,
            registry,
            verifier.deliverables());
    this.timers = new TimerHandlers(work, negotiation, closing, verifications);
  }

  /**
   * Structural verification only (no semantic evaluators, no background jobs), no evaluator pool.
   */
  public AgreementService(
      Store store,
      Clock clock,
      VerificationRunner verifier,
      String serverKeyId,
      MarketData market,
      NegotiationPolicy policy,
      Set<String> trustedMarketSources,
      Enforcement enforcement,
      Disputes disputes,
      Set<Ed25519PublicKey> arbiters) {
    this(
        store,
        clock,
        verifier,
        serverKeyId,
        market,
        policy,
        trustedMarketSources,
        enforcement,
        disputes,
        arbiters,
        null,
        null,
        AssignmentConfig.DEFAULTS,
        new EvaluatorRegistry(
            store.evaluators(),
            store.canarySets(),
            store.writes(),
            QualificationPolicy.DEFAULTS,
            store.tasks()::canariesServed));
  }

  /**
   * With the whitepaper's negotiation defaults, no trusted external market source, the built-in
   * ledger (and no webhook URL allowed), disputes left to the operator.
   */
  public AgreementService(
      Store store, Clock clock, VerificationRunner verifier, String serverKeyId) {
    this(
        store,
        clock,
        verifier,
        serverKeyId,
        new MarketData(store.agreements(), NegotiationPolicy.DEFAULTS),
        NegotiationPolicy.DEFAULTS,
        Set.of(),
        new Enforcement(
            store.ledger(),
            store.outbox(),
            Enforcement.bindings(EscrowConfig.DEFAULTS, store.ledger(), null, null, null)),
        new Disputes(store.verifications(), store.events(), Map.of()),
        Set.of());
  }

  public AgreementQueries queries() {
    return queries;
  }

  public AgreementCommands commands() {
    return commands;
  }

  /** Challenges and rulings. */
  public DisputeCommands disputes() {
    return disputeCommands;
  }

  public VerificationFlow verifications() {
    return verifications;
  }

  /** Verification by the server's own engine, at once or as a background job. */
  public EngineVerifications engine() {
    return engine;
  }

  /** Evidence anchoring in the parties' CoC chains. */
  public Anchoring anchoring() {
    return anchoring;
  }

  /** The external evaluators' work queue. */
  /** The verification trail a dispute body asks for (whitepaper 9.3). */
  public Forensics forensics() {
    return forensics;
  }

  public EvaluatorQueue queue() {
    return queue;
  }

  public TimerHandlers timers() {
    return timers;
  }
}
