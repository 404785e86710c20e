package dev.asa.server.verification.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.json.Json;
import dev.asa.server.store.Write;
import dev.asa.server.store.Writes;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.verification.JobRow;
import dev.asa.server.store.verification.JobStore;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** How verification jobs are keyed, stored and shown. */
public final class Jobs {
  private Jobs() {}

  /** The request key of the jobs for an agreement's deliverable; each attempt adds {@code :<n>}. */
  public static String agreementKey(String agreementId, String deliverableHash) {
    return "agreement:" + agreementId + ":" + deliverableHash;
  }

  /**
   * The request key of a standalone request: who asked, and the digest of what they asked (content
   * by its digest).
   */
  public static String standaloneKey(String caller, String requestDigest) {
    return "standalone:" + caller + ":" + requestDigest;
  }

  /**
   * The key of the {@code attempt}-th job of a request (a new attempt only after a failure), the
   * form {@link JobStore#latestAttempt} reads.
   */
  public static String attemptKey(String requestKey, int attempt) {
    return requestKey + ":" + attempt;
  }

  /** The attempt after {@code latest}, or the first when there is none. */
  public static int nextAttempt(Optional<JobRow> latest) {
    return latest
        .map(j ->
            Integer.parseInt(j.requestKey().substring(j.requestKey().lastIndexOf(':') + 1)) + 1)
        .orElse(1);
  }

  /**
   * Records that a job failed; nothing when it has finished meanwhile (completed just before its
   * deadline).
   */
  public static void fail(Writes writes, String jobId, String message, Instant at) {
    try {
      writes.apply(List.of(new Write.FinishJob(jobId, JobRow.Status.FAILED, message, at)));
    } catch (DuplicateKeyException e) {
      // finished meanwhile: the first outcome stands
    }
  }

  /**
   * The config as stored with the job, with the evaluators actually planned, so a resumed job runs
   * the same.
   */
  public static ObjectNode configJson(EvaluationConfig config, VerificationEngine.Plan plan) {
    ObjectNode c = Json.object();
    c.put("depth", plan.depth().wireName());
    if (!config.evaluators().isEmpty()) {
      if (config.evaluators().stream().allMatch(Objects::nonNull)) {
        ArrayNode evaluators = c.putArray("evaluators");
        config.evaluators().forEach(evaluators::add);
      } else {
        c.put("evaluators", config.evaluators().size()); // a count of the server's default type
      }
    }
    c.put("progressive", plan.progressive());
    if (config.timeoutSeconds() != null) {
      c.put("evaluator_timeout_seconds", config.timeoutSeconds());
    }
    ObjectNode ec = Json.object();
    if (config.model() != null) {
      ec.put("model", config.model());
    }
    if (config.options().rubricId() != null) {
      ec.put("rubric_id", config.options().rubricId());
    }
    if (config.options().spotCheckClaims() > 0) {
      ec.put("spot_check_claims", config.options().spotCheckClaims());
    }
    if (config.options().maxCostUsd() != null) {
      ec.put("max_cost_usd", config.options().maxCostUsd());
    }
    if (!config.options().evidenceCollection()) {
      ec.put("evidence_collection", false);
    }
    if (!ec.isEmpty()) {
      c.set("evaluator_config", ec);
    }
    return c;
  }

  /** What {@code GET /verifications/{id}/status} shows, and the body of a 202. */
  public static ObjectNode describe(JobRow job) {
    ObjectNode o = Json.object();
    o.put("verification_id", job.id());
    if (job.agreementId() != null) {
      o.put("agreement_id", job.agreementId());
    }
    o.put("status", job.status().wireName());
    ObjectNode progress = o.putObject("progress");
    progress.put("stage", job.stage());
    progress.put("done", job.doneSteps());
    progress.put("total", job.totalSteps());
    progress.put(
        "percent",
        job.totalSteps() == 0 ? 0 : Math.min(100, 100 * job.doneSteps() / job.totalSteps()));
    o.put("deliverable_hash", job.deliverableHash());
    o.put("created_at", job.createdAt().toString());
    o.put("updated_at", job.updatedAt().toString());
    o.put("deadline_at", job.deadlineAt().toString());
    if (job.error() != null) {
      o.put("error", job.error());
    }
    o.put("result_url", "/verifications/" + job.id());
    return o;
  }
}
