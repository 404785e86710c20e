package dev.asa.server.verification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Judging;
import dev.asa.access.Operation;
import dev.asa.agreement.DepthByReputation;
import dev.asa.agreement.EvaluatorSettings;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.crypto.Digest;
import dev.asa.document.Agreement;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Progress;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.evaluators.VerificationEngine.Depth;
import dev.asa.evaluators.code.CodeDeliverables;
import dev.asa.json.Json;
import dev.asa.json.JsonDifference;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.reputation.Reputation;
import dev.asa.server.settlement.ResultEnforcement;
import dev.asa.server.shadow.ShadowSeals;
import dev.asa.server.store.Write;
import dev.asa.server.store.Writes;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.store.verification.DeliverableStore;
import dev.asa.server.store.verification.JobRow;
import dev.asa.server.store.verification.JobStore;
import dev.asa.server.store.verification.VerificationStore;
import dev.asa.server.verification.engine.EvaluationConfig;
import dev.asa.server.verification.engine.JobRunner;
import dev.asa.server.verification.engine.Jobs;
import dev.asa.server.verification.engine.OfferedEvaluators;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.Ids;
import dev.asa.server.work.Outcome;
import dev.asa.server.work.SubmittedResult;
import dev.asa.server.work.UnitOfWork;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Verification by the server's own engine: at structural depth at once, at semantic or composite
 * depth as a background job (progress, deadline, resumed after a restart), and a replay that finds
 * the job or result already there instead of starting another.
 */
public final class EngineVerifications {
  private final UnitOfWork work;
  private final DeliverableStore deliverables;
  private final JobStore jobStore;
  private final VerificationStore verifications;
  private final Writes writes;
  private final VerificationRunner verifier;
  private final String serverKeyId;
  private final OfferedEvaluators evaluators;
  private final JobRunner jobs;
  private final Ids ids;
  private final ResultEnforcement results;
  private final Reputation reputation;

  /**
   * @param evaluators the semantic evaluators for semantic or composite depth; null when the server
   *     runs structural verification only
   * @param jobs runs those slower verifications in the background; null with {@code evaluators}
   */
  public EngineVerifications(
      UnitOfWork work,
      DeliverableStore deliverables,
      JobStore jobStore,
      VerificationStore verifications,
      Writes writes,
      VerificationRunner verifier,
      String serverKeyId,
      OfferedEvaluators evaluators,
      JobRunner jobs,
      Ids ids,
      ResultEnforcement results,
      Reputation reputation) {
    this.work = work;
    this.deliverables = deliverables;
    this.jobStore = jobStore;
    this.verifications = verifications;
    this.writes = writes;
    this.verifier = verifier;
    this.serverKeyId = serverKeyId;
    this.evaluators = evaluators;
    this.jobs = jobs;
    this.ids = ids;
    this.results = results;
    this.reputation = reputation;
  }

  /**
   * The agreement's own verification depth ({@code verification.depth}); structural when it names
   * none.
   */
  static Depth depthOf(Agreement a) {
    String depth = a.terms().verification().depth();
    return depth == null ? Depth.STRUCTURAL : Depth.fromWire(depth);
  }

  /**
   * The depth the server's engine verifies an agreement at: {@code verification.depth}, or, under
   * {@code depth_by_reputation}, the rule's choice for this provider, with what it rested on.
   *
   * @param evidence the rule, the figure and the choice, for the result's {@code depth_evidence};
   *     null without a rule
   */
  record DepthChoice(Depth depth, ObjectNode evidence) {}

  DepthChoice depthFor(Agreement a) {
    Optional<DepthByReputation> rule = a.terms().verification().depthRule();
    if (rule.isEmpty()) {
      return new DepthChoice(depthOf(a), null);
    }
    Party provider = a.terms().parties().provider();
    String key = provider.verificationKey().toBase64Url();
    Optional<Reputation.Figure> figure =
        reputation == null
            ? Optional.empty()
            : reputation.figure(provider.identity(), key, Role.PROVIDER, rule.get().signal());
    DepthByReputation.Choice choice =
        rule.get()
            .choose(
                figure.map(Reputation.Figure::value),
                figure.map(Reputation.Figure::sampleSize).orElse(0L));
    ObjectNode evidence = Json.object();
    evidence.set("rule", a.member("verification").path("depth_by_reputation").deepCopy());
    ObjectNode about = evidence.putObject("provider");
    about.put("scheme", provider.identity().scheme());
    about.put("value", provider.identity().value());
    about.put("key", key);
    figure.ifPresentOrElse(
        f -> evidence.set("figure", f.toJson()), () -> evidence.putNull("figure"));
    evidence.put("depth", choice.depth());
    evidence.put("because", choice.because());
    return new DepthChoice(Depth.fromWire(choice.depth()), evidence);
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
  public Outcome verifyByEngine(
      String id, EvaluationConfig config, Caller caller, IdempotencyTicket ticket) {
    return verifyByEngine(id, config, null, caller, ticket);
  }

  public Outcome verifyByEngine(
      String id,
      EvaluationConfig config,
      Digest expectedHash,
      Caller caller,
      IdempotencyTicket ticket) {
    return verifyByEngine(
        work.agreement(work.load(id)), config, expectedHash, caller, ticket, null, null);
  }

  /**
   * {@code POST /verifications} for an agreement (section 5.1).
   *
   * @param chosenId the caller's {@code verification_id}, or null for one the server chooses
   * @param criteria the {@code quality_criteria} sent beside {@code agreement_id}, or null; they
   *     must equal the agreement's
   */
  public Outcome verifyByEngine(
      String id,
      EvaluationConfig config,
      Digest expectedHash,
      Caller caller,
      IdempotencyTicket ticket,
      String chosenId,
      JsonNode criteria) {
    return verifyByEngine(
        work.agreement(work.load(id)), config, expectedHash, caller, ticket, chosenId, criteria);
  }

  /**
   * @param agreement as loaded for this request (before access checks, which are made here)
   * @param requested the request's config, before the agreement's evaluator settings bound it
   */
  Outcome verifyByEngine(
      Agreement agreement,
      EvaluationConfig requested,
      Digest expectedHash,
      Caller caller,
      IdempotencyTicket ticket,
      String chosenId,
      JsonNode criteria) {
    String id = agreement.id();
    requireNoPendingRedelivery(agreement, caller);
    AccessPolicy.require(agreement, caller, Operation.TRIGGER_VERIFICATION);
    if (criteria != null) {
      requireAgreementCriteria(agreement, criteria);
    }
    Supplier<String> verificationIds = chosenId != null ? () -> chosenId : ids::verificationId;
    requireBuiltInJudges(agreement, caller);
    DepthChoice chosen = depthFor(agreement);
    if (chosen.evidence() != null
        && requested.depth() != null
        && requested.depth() != chosen.depth()) {
      // The rule both parties signed picks the depth; a party asking for a lighter (or heavier)
      // one would be choosing how hard the work is checked after signing.
      throw new ConflictException(
          "agreement "
              + id
              + " verifies at the depth its depth_by_reputation gives this provider, "
              + chosen.depth().wireName()
              + " ("
              + chosen.evidence().path("because").asText()
              + "), not "
              + requested.depth().wireName()
              + "; leave depth out of the request");
    }
    Depth fallback = chosen.depth();
    if (evaluators == null
        && (requested.depth() != null ? requested.depth() : fallback) != Depth.STRUCTURAL) {
      throw new ConflictException(
          "this server runs no semantic evaluator; verify at structural depth or submit an evaluator_result");
    }
    // The request runs within the evaluator settings both parties signed: the document's win
    // wherever the request would loosen them (EvaluatorSettings.narrowedBy), so no single party can
    // pick a friendlier judge, rubric or budget after signing.
    EvaluatorSettings agreed =
        agreement
            .terms()
            .parties()
            .evaluator()
            .map(Party::evaluatorSettings)
            .orElse(EvaluatorSettings.NONE);
    EvaluationConfig config = requested.within(agreed);
    String modelAt =
        (agreed.model() != null
                ? EvaluatorSettings.DOCUMENT_POINTER
                : EvaluationConfig.SETTINGS_POINTER)
            + "/model";
    VerificationEngine.Plan plan =
        evaluators == null
            ? VerificationEngine.Plan.structural()
            : evaluators.plan(config, fallback, modelAt, isCode(agreement));
    if (evaluators != null) {
      evaluators.requireNotSelfJudging(
          plan,
          agreement.terms().parties().provider().model(),
          config.model() != null
              ? modelAt
              : requested.evaluators().size() > 1
                  ? "/verification_config/evaluators"
                  : "/verification_config/evaluator_type",
          "/parties/provider/model");
    }
    if (agreement.state() == State.DELIVERED && expectedHash != null) {
      DeliverableRow delivered = verifier.deliverables().toVerify(agreement);
      if (!delivered.contentHash().equals(expectedHash.toString())) {
        throw new ConflictException(
            "the deliverable sent ("
                + expectedHash
                + ") is not the one delivered for agreement "
                + id
                + " ("
                + delivered.contentHash()
                + "); a verification judges only what was delivered");
      }
    }
    if (plan.depth() == Depth.STRUCTURAL) {
      return work.mutate(
          id,
          ticket,
          caller,
          Operation.TRIGGER_VERIFICATION,
          current ->
              results.enforce(
                  verifier.verify(
                      current.agreement(),
                      SubmittedResult.NONE,
                      Actor.server(serverKeyId),
                      current.now(),
                      verificationIds,
                      chosen.evidence()),
                  current.now()));
    }
    Optional<DeliverableRow> latest = deliverables.latest(id);
    Optional<JobRow> existing =
        latest.flatMap(d -> jobStore.latestAttempt(Jobs.agreementKey(id, d.contentHash())));
    if (existing.isPresent() && existing.get().status() == JobRow.Status.COMPLETED) {
      // A replay after the fact: the result already recorded, not a second verification.
      ObjectNode response = Json.object();
      response.put("agreement_id", id);
      response.put("state", agreement.state().name());
      response.set(
          "verification",
          Json.parseTrusted(verifications.find(existing.get().id()).orElseThrow().result()));
      return new Outcome(200, response);
    }
    if (existing.isPresent() && existing.get().status() != JobRow.Status.FAILED) {
      return new Outcome(202, Jobs.describe(existing.get()));
    }
    Lifecycle.next(agreement.state(), Action.VERIFY, Lifecycle.Facts.NONE);
    DeliverableRow delivered = verifier.deliverables().toVerify(agreement);
    Instant now = work.now();
    long timeout =
        config.timeoutSeconds() != null
            ? config.timeoutSeconds()
            : agreement.terms().verification().evaluatorTimeoutSeconds();
    int attempt = Jobs.nextAttempt(existing);
    ObjectNode request = Json.object();
    request.put("agreement_id", id);
    request.set("verification_config", Jobs.configJson(config, plan));
    if (chosen.evidence() != null) {
      request.set("depth_evidence", chosen.evidence());
    }
    JobRow job =
        new JobRow(
            verificationIds.get(),
            Jobs.attemptKey(Jobs.agreementKey(id, delivered.contentHash()), attempt),
            id,
            delivered.contentHash(),
            caller.describe(),
            Json.write(request),
            null,
            JobRow.Status.QUEUED,
            "queued",
            0,
            1,
            null,
            now,
            now,
            now.plusSeconds(timeout));
    Outcome outcome =
        work.mutate(
            id,
            ticket,
            caller,
            Operation.TRIGGER_VERIFICATION,
            current -> {
              Lifecycle.next(current.agreement().state(), Action.VERIFY, Lifecycle.Facts.NONE);
              ObjectNode payload = Json.object();
              payload.put("verification_id", job.id());
              payload.put("deliverable_hash", job.deliverableHash());
              payload.set("verification_config", request.path("verification_config"));
              return new Change(
                  current.agreement(),
                  List.of(
                      new EventLog.Draft(
                          EventType.VERIFICATION_REQUESTED, current.actor(), payload)),
                  List.of(new Write.PutJob(job)),
                  Jobs.describe(job),
                  202);
            });
    startJob(job, plan, config.options());
    return outcome;
  }

  /**
   * Section 5.1: an agreement's verification inherits the agreement's criteria. Sent beside {@code
   * agreement_id} they must be those (numbers compared by value, members in any order); otherwise
   * the request is refused at the first member that differs, so that nobody is judged by criteria
   * the other party never signed.
   */
  private static void requireAgreementCriteria(Agreement agreement, JsonNode criteria) {
    JsonNode agreed = agreement.member("quality_criteria");
    JsonDifference.first(agreed, criteria)
        .ifPresent(at -> {
          JsonNode theirs = agreed.at(at);
          throw new InvalidDocumentException(
              "/quality_criteria" + at,
              "differs from the agreement's quality_criteria"
                  + (theirs.isMissingNode()
                      ? ", which have no such member"
                      : " (" + at + " is " + Json.write(theirs) + " there)")
                  + ": an agreement's verification uses the criteria both parties signed; send"
                  + " them unchanged or leave quality_criteria out");
        });
  }

  /** Resumes an agreement's job found unfinished at startup. */
  public void resumeJob(JobRow job) {
    JsonNode request = Json.parseTrusted(job.request());
    EvaluationConfig config = EvaluationConfig.parse(request.path("verification_config"));
    AgreementRow row = work.agreements().find(job.agreementId()).orElseThrow();
    // Stored as it ran: already within the agreement's evaluator settings.
    Agreement agreement = work.agreement(row);
    startJob(
        job,
        evaluators.plan(
            config,
            depthOf(agreement),
            EvaluationConfig.SETTINGS_POINTER + "/model",
            isCode(agreement)),
        config.options());
  }

  /** Whether the agreement's service is code (code_generation, or a code format). */
  private static boolean isCode(Agreement a) {
    return CodeDeliverables.isCode(
        a.terms().service().type(), a.terms().service().deliverableFormat());
  }

  private void startJob(JobRow job, VerificationEngine.Plan plan, EvaluationTask.Options options) {
    jobs.submit(
        job,
        progress -> runJob(job, plan, options, progress),
        message -> Jobs.fail(writes, job.id(), message, work.now()));
  }

  private void runJob(
      JobRow job, VerificationEngine.Plan plan, EvaluationTask.Options options, Progress progress)
      throws Exception {
    Agreement a = work.agreement(work.load(job.agreementId()));
    if (a.state() != State.DELIVERED) {
      throw new ConflictException(
          "agreement " + a.id() + " is " + a.state() + " now, no longer waiting for verification");
    }
    DeliverableRow row = verifier.deliverables().toVerify(a);
    if (!row.contentHash().equals(job.deliverableHash())) {
      throw new ConflictException(
          "agreement "
              + a.id()
              + " has a newer deliverable than the one this job was asked to verify");
    }
    JsonNode depthEvidence = Json.parseTrusted(job.request()).path("depth_evidence");
    VerificationRunner.Assessed assessed =
        verifier.assess(
            a,
            row,
            verifier.deliverables().content(row),
            plan,
            options,
            progress,
            depthEvidence instanceof ObjectNode o ? o : null);
    work.mutate(
        a.id(),
        null,
        Caller.SERVER,
        Operation.TRIGGER_VERIFICATION,
        current -> {
          Agreement now = current.agreement();
          if (now.state() != State.DELIVERED) {
            throw new ConflictException(
                "agreement "
                    + now.id()
                    + " moved on to "
                    + now.state()
                    + " while it was being verified");
          }
          return results.enforce(
              verifier.record(
                  now,
                  assessed,
                  Actor.server(serverKeyId),
                  current.now(),
                  job.id(),
                  List.of(
                      new Write.FinishJob(job.id(), JobRow.Status.COMPLETED, null, current.now()))),
              current.now());
        });
  }

  /**
   * A caller may have the server's built-in evaluator decide only where the terms give it the
   * verdict ({@link Judging.BuiltIn}). Elsewhere the verdict is the named or assigned evaluator's,
   * and a party that asked the built-in evaluator first would have picked the judge (issue 52):
   * refused, and nothing changes. The server's own paths (the evaluator's deadline and its backup,
   * a job resumed after a restart) ask as {@link Caller#SERVER} and are not refused.
   */
  static void requireBuiltInJudges(Agreement a, Caller caller) {
    if (caller instanceof Caller.Server || !(Judging.of(a) instanceof Judging.Evaluators judges)) {
      return;
    }
    boolean isEvaluator = AccessPolicy.rolesOf(a, caller).contains(Role.EVALUATOR);
    throw new ConflictException(
        "agreement "
            + a.id()
            + ": "
            + judges.because()
            + ", so the verdict is that evaluator's: "
            + (isEvaluator
                ? "submit your scores as evaluator_result"
                : "it submits its scores, and neither party picks another judge")
            + ". The server's built-in evaluator decides only where the terms give it the verdict"
            + " (parties.evaluator.type \""
            + Party.BUILTIN
            + "\", which takes no key), or when the evaluator's deadline"
            + " passes and escrow.dead_mans_switch.timeout_action hold_for_backup_evaluator"
            + " reaches it. Nothing was changed");
  }

  /**
   * While a hardening cycle waits for the provider's re-delivery, only the provider (declining to
   * re-deliver) may have the delivery verified as it is, where the built-in evaluator is the judge
   * ({@link #requireBuiltInJudges}); elsewhere the provider declines by delivering the same work
   * again. The server's evaluator deadline also ends it.
   */
  void requireNoPendingRedelivery(Agreement a, Caller caller) {
    String id = a.id();
    var roles = AccessPolicy.rolesOf(a, caller);
    if (ShadowSeals.hardeningOpen(a) && !roles.isEmpty() && !roles.contains(Role.PROVIDER)) {
      throw new ConflictException(
          "agreement "
              + id
              + " waits for the provider's re-delivery (a shadow hardening cycle is open);"
              + " it is verified after the re-delivery, or when the provider asks for verification as delivered");
    }
  }
}
