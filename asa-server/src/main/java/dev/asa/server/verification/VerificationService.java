package dev.asa.server.verification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Caller;
import dev.asa.agreement.Identity;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.crypto.Digest;
import dev.asa.document.StandaloneCriteria;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Progress;
import dev.asa.evaluators.StandaloneVerifier;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.evaluators.VerificationEngine.Depth;
import dev.asa.json.Json;
import dev.asa.server.store.Write;
import dev.asa.server.store.Writes;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.idempotency.IdempotencyRow;
import dev.asa.server.store.idempotency.IdempotencyStore;
import dev.asa.server.store.verification.JobRow;
import dev.asa.server.store.verification.JobStore;
import dev.asa.server.store.verification.VerificationRow;
import dev.asa.server.store.verification.VerificationStore;
import dev.asa.server.verification.engine.EvaluationConfig;
import dev.asa.server.verification.engine.JobRunner;
import dev.asa.server.verification.engine.Jobs;
import dev.asa.server.verification.engine.OfferedEvaluators;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.Outcome;
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

/**
 * The Verification API (whitepaper 5): {@code POST /verifications} with or without an agreement,
 * {@code GET /verifications/{id}} and its status.
 *
 * <p>Standalone verifications judge against the caller's criteria or the section 5.4 defaults of
 * the deliverable's type. With the defaults, a dimension no evaluator of the plan can judge is
 * reported not evaluated and left out of the composite (weight 0), and the notes say so: the result
 * covers what was judged and does not pretend to cover more. Criteria the caller wrote are binding:
 * a dimension nobody could score fails the verification with the list of what is missing.
 *
 * <p>Structural verifications answer at once (200). Semantic and composite ones run as jobs and
 * answer 202 with a {@code Location}; the deliverable's content is held in the job's row only until
 * the job finishes, and the result then keeps its digest alone.
 */
public final class VerificationService {

  /** Standalone jobs without an explicit timeout get ten minutes, the agreements' default. */
  static final int DEFAULT_TIMEOUT_SECONDS = 600;

  private final Writes writes;
  private final IdempotencyStore idempotency;
  private final JobStore jobStore;
  private final VerificationStore results;
  private final Clock clock;
  private final EngineVerifications agreementEngine;
  private final AgreementReaders agreementReaders;
  private final OfferedEvaluators evaluators;
  private final JobRunner jobs;
  private final StandaloneVerifier verifier;
  private final DeliverableFetcher fetcher;
  private final Identity serverIdentity;
  private final SecureRandom random = new SecureRandom();

  /**
   * Who may read an agreement, and so its verifications: the agreements' own rule, handed in by the
   * composition root so that this package need not depend on the agreements above it.
   */
  @FunctionalInterface
  public interface AgreementReaders {
    /**
     * Returns if {@code caller} may read the agreement, and throws {@code NotFoundException} if
     * not.
     */
    void requireReader(String agreementId, Caller caller);
  }

  /**
   * @param agreementEngine verifications of agreements by the server's engine, for requests that
   *     name one
   * @param agreementReaders the agreements' rule of who may read one, for their verifications
   * @param evaluators null when the server offers structural verification only
   * @param serverKeyId the server's key, the identity standalone results are signed by
   */
  public VerificationService(
      Writes writes,
      IdempotencyStore idempotency,
      JobStore jobStore,
      VerificationStore results,
      Clock clock,
      EngineVerifications agreementEngine,
      AgreementReaders agreementReaders,
      OfferedEvaluators evaluators,
      JobRunner jobs,
      VerificationEngine engine,
      DeliverableFetcher fetcher,
      String serverKeyId) {
    this.writes = writes;
    this.idempotency = idempotency;
    this.jobStore = jobStore;
    this.results = results;
    this.clock = clock;
    this.agreementEngine = agreementEngine;
    this.agreementReaders = agreementReaders;
    this.evaluators = evaluators;
    this.jobs = jobs;
    this.verifier = new StandaloneVerifier(engine);
    this.fetcher = fetcher;
    this.serverIdentity = new Identity("public_key", serverKeyId, null);
  }

  /** {@code POST /verifications}. */
  public Outcome create(JsonNode body, Caller caller, IdempotencyTicket ticket) {
    VerificationRequest request = VerificationRequest.parse(body);
    String chosenId = request.verificationId();
    if (chosenId != null) {
      IdempotencyTicket named = chosenIdTicket(chosenId, body, caller);
      Optional<IdempotencyRow> seen = idempotency.find(named.scope(), named.key());
      if (seen.isPresent()) {
        if (!seen.get().requestHash().equals(named.requestHash())) {
          throw new ConflictException(
              "verification_id '"
                  + chosenId
                  + "' was already used for a different request; choose another, or leave it out"
                  + " for the server to choose one");
        }
        // The same request again: its first answer, as an Idempotency-Key replay gives it.
        return new Outcome(seen.get().status(), Json.parseTrusted(seen.get().responseBody()));
      }
      if (jobStore.find(chosenId).isPresent() || results.find(chosenId).isPresent()) {
        throw new ConflictException(
            "verification_id '" + chosenId + "' already names a verification; choose another");
      }
      // The chosen id identifies the request: its answer is remembered under it (this supersedes
      // an Idempotency-Key, whose replay the id gives too, the body carrying it).
      ticket = named;
    }
    if (!request.isStandalone()) {
      return agreementEngine.verifyByEngine(
          request.agreementId(),
          request.config(),
          request.delivery().contentHash(),
          caller,
          ticket,
          chosenId,
          request.agreementCriteria());
    }
    if (request.tests() != null) {
      OfferedEvaluators.requireRunsCode(evaluators, "/original_request/tests");
    }
    Depth depth =
        request.config().depth() != null
            ? request.config().depth()
            : evaluators == null ? Depth.STRUCTURAL : Depth.SEMANTIC;
    if (evaluators == null && depth != Depth.STRUCTURAL) {
      throw new InvalidDocumentException(
          "/verification_config/depth",
          "this server runs no semantic evaluator; use depth structural");
    }
    VerificationEngine.Plan plan =
        depth == Depth.STRUCTURAL
            ? VerificationEngine.Plan.structural()
            : evaluators.plan(
                request.config(),
                depth,
                EvaluationConfig.SETTINGS_POINTER + "/model",
                request.isCode());

    ObjectNode stored = ((ObjectNode) body).deepCopy();
    ObjectNode deliverable = (ObjectNode) stored.get("deliverable");
    deliverable.remove("content");
    deliverable.put("content_hash", request.delivery().contentHash().toString());
    stored.set("verification_config", Jobs.configJson(request.config(), plan));
    String baseKey =
        Jobs.standaloneKey(caller.describe(), Digest.ofCanonicalJson(stored).toString());
    // A structural verification of content sent inline is cheap to repeat and its job never fails,
    // so a replay is told by its job's key colliding at insert, and a first request reads nothing.
    // One that fetches its content or runs tests looks for an earlier answer before doing the work.
    boolean replayFoundAtInsert =
        plan.depth() == Depth.STRUCTURAL
            && request.delivery().content() != null
            && request.tests() == null;
    Optional<JobRow> existing =
        replayFoundAtInsert ? Optional.empty() : jobStore.latestAttempt(baseKey);
    if (existing.isPresent() && existing.get().status() != JobRow.Status.FAILED) {
      return answer(existing.get()); // a replay: the first job's answer, not a second evaluation
    }
    int attempt = Jobs.nextAttempt(existing);
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    int timeout =
        request.config().timeoutSeconds() != null
            ? request.config().timeoutSeconds()
            : DEFAULT_TIMEOUT_SECONDS;
    JobRow job =
        new JobRow(
            chosenId != null ? chosenId : newId(now),
            Jobs.attemptKey(baseKey, attempt),
            null,
            request.delivery().contentHash().toString(),
            caller.describe(),
            Json.write(stored),
            request.delivery().content(),
            JobRow.Status.QUEUED,
            "queued",
            0,
            1,
            null,
            now,
            now,
            now.plusSeconds(timeout));

    if (plan.depth() == Depth.STRUCTURAL) {
      ObjectNode result = evaluate(job, request, plan, Progress.NONE);
      Outcome outcome = new Outcome(200, result);
      List<Write> writes = new ArrayList<>();
      writes.add(new Write.PutJob(job.finished(JobRow.Status.COMPLETED, null, now)));
      writes.add(
          new Write.PutVerification(
              VerificationRow.of(job.id(), null, job.deliverableHash(), result, now)));
      writes.addAll(IdempotencyTicket.writes(ticket, outcome, now));
      try {
        this.writes.apply(writes);
      } catch (DuplicateKeyException e) {
        return sameRequestAnswered(baseKey, e);
      }
      return outcome;
    }
    Outcome outcome = new Outcome(202, Jobs.describe(job));
    List<Write> writes = new ArrayList<>();
    writes.add(new Write.PutJob(job));
    writes.addAll(IdempotencyTicket.writes(ticket, outcome, now));
    try {
      this.writes.apply(writes);
    } catch (DuplicateKeyException e) {
      return sameRequestAnswered(baseKey, e);
    }
    start(job, request, plan);
    return outcome;
  }

  /**
   * A caller-chosen {@code verification_id} (section 5.1) as the key its request is remembered by:
   * server-wide, since it names the verification for everyone; the same body from the same caller
   * is the same request, anything else a reuse.
   */
  private static IdempotencyTicket chosenIdTicket(String id, JsonNode body, Caller caller) {
    ObjectNode signed = Json.object();
    signed.put("caller", caller.describe());
    signed.set("body", body);
    return new IdempotencyTicket("verification_id", id, Digest.ofCanonicalJson(signed).toString());
  }

  /**
   * The same request from the same caller, sent concurrently, won the race to its job: answer as
   * that job does, as a replay would.
   */
  private Outcome sameRequestAnswered(String baseKey, DuplicateKeyException e) {
    return jobStore.latestAttempt(baseKey).map(this::answer).orElseThrow(() -> e);
  }

  private Outcome answer(JobRow job) {
    if (job.status() == JobRow.Status.COMPLETED) {
      return new Outcome(200, result(job.id()));
    }
    return new Outcome(202, Jobs.describe(job));
  }

  private void start(JobRow job, VerificationRequest request, VerificationEngine.Plan plan) {
    jobs.submit(
        job,
        progress -> {
          ObjectNode result = evaluate(job, request, plan, progress);
          Instant now = clock.instant();
          writes.apply(
              List.of(
                  new Write.PutVerification(
                      VerificationRow.of(job.id(), null, job.deliverableHash(), result, now)),
                  new Write.FinishJob(job.id(), JobRow.Status.COMPLETED, null, now)));
        },
        message -> Jobs.fail(writes, job.id(), message, clock.instant()));
  }

  /** Resumes the jobs a stopped node left unfinished (their content is still held). */
  public int resumeUnfinished() {
    int resumed = 0;
    for (JobRow job : jobStore.unfinished()) {
      try {
        if (job.agreementId() != null) {
          agreementEngine.resumeJob(job);
        } else {
          JsonNode stored = Json.parseTrusted(job.request());
          ObjectNode body = ((ObjectNode) stored).deepCopy();
          if (job.content() != null) {
            ((ObjectNode) body.get("deliverable")).put("content", job.content());
            ((ObjectNode) body.get("deliverable")).remove("content_url");
          }
          VerificationRequest request = VerificationRequest.parse(body);
          Depth depth =
              request.config().depth() != null ? request.config().depth() : Depth.SEMANTIC;
          start(
              job,
              request,
              evaluators.plan(
                  request.config(),
                  depth,
                  EvaluationConfig.SETTINGS_POINTER + "/model",
                  request.isCode()));
        }
        resumed++;
      } catch (RuntimeException e) {
        Jobs.fail(
            writes,
            job.id(),
            "could not be resumed after a restart: " + e.getMessage(),
            clock.instant());
      }
    }
    return resumed;
  }

  private ObjectNode evaluate(
      JobRow job, VerificationRequest request, VerificationEngine.Plan plan, Progress progress) {
    String content =
        request.delivery().content() != null
            ? request.delivery().content()
            : fetcher.fetch(
                request.delivery().contentUrl(),
                request.delivery().contentHash(),
                "/deliverable/content_url");
    boolean defaults = request.criteria() == null;
    QualityCriteria criteria =
        (defaults ? StandaloneCriteria.forType(request.criteriaType()) : request.criteria())
            .withCodeTests(request.tests());
    Deliverable deliverable =
        new Deliverable(
            content,
            request.delivery().format(),
            request.delivery().contentHash(),
            job.createdAt());
    EvaluationTask task =
        new EvaluationTask(
            deliverable,
            request.description(),
            request.deliverableType(),
            criteria,
            request.constraints(),
            null,
            request.providerModel(),
            request.config().options(),
            progress);
    try {
      return (ObjectNode)
          verifier
              .verify(
                  task,
                  plan,
                  defaults,
                  job.id(),
                  clock.instant().truncatedTo(ChronoUnit.MILLIS),
                  serverIdentity)
              .toJson();
    } catch (EvaluationException e) {
      throw new ConflictException(e.getMessage());
    }
  }

  /**
   * {@code GET /verifications/{id}}: the result (200), the job still running (202), or why it
   * failed (422).
   */
  public Outcome get(String id, Caller caller) {
    JobRow job = readable(id, caller);
    return switch (job.status()) {
      case COMPLETED -> new Outcome(200, result(id));
      case QUEUED, RUNNING -> new Outcome(202, Jobs.describe(job));
      case FAILED ->
          throw new VerificationFailedException(
              "verification "
                  + id
                  + " failed: "
                  + job.error()
                  + (job.agreementId() == null
                      ? "; send the request again to retry"
                      : "; ask for verification again to retry"));
    };
  }

  /** {@code GET /verifications/{id}/status}. */
  public ObjectNode status(String id, Caller caller) {
    return Jobs.describe(readable(id, caller));
  }

  private JobRow readable(String id, Caller caller) {
    JobRow job =
        jobStore
            .find(id)
            .orElseThrow(() -> new NotFoundException("no verification with id '" + id + "'"));
    if (job.agreementId() != null) {
      agreementReaders.requireReader(job.agreementId(), caller);
    } else if (!(caller instanceof Caller.Key key
        && (key.operator() || caller.describe().equals(job.caller())))) {
      throw new NotFoundException(
          "no verification with id '" + id + "'"); // someone else's: as if it did not exist
    }
    return job;
  }

  private ObjectNode result(String id) {
    VerificationRow row =
        results
            .find(id)
            .orElseThrow(() -> new NotFoundException("verification " + id + " has no result"));
    return (ObjectNode) Json.parseTrusted(row.result());
  }

  private String newId(Instant now) {
    byte[] b = new byte[8];
    random.nextBytes(b);
    return "ver-" + LocalDate.ofInstant(now, ZoneOffset.UTC) + "-" + HexFormat.of().formatHex(b);
  }
}
