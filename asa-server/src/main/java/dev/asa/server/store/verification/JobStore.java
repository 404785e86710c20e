package dev.asa.server.store.verification;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.SqlErrors;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * Verification jobs the server's engine runs in the background: queued by a {@code Write.PutJob},
 * their progress recorded as they run, finished by a {@code Write.FinishJob} with the result.
 */
public final class JobStore {

  private static final String COLUMNS =
      "id, request_key, agreement_id, deliverable_hash, caller, request, content, status,"
          + " stage, done_steps, total_steps, error, created_at, updated_at, deadline_at";
  private static final String INSERT =
      "INSERT INTO verification_jobs ("
          + COLUMNS
          + ") VALUES (:id, :request_key, :agreement_id, :deliverable_hash, :caller, :request,"
          + " :content, :status, :stage, :done_steps, :total_steps, :error, :created_at,"
          + " :updated_at, :deadline_at)";
  private static final String SELECT_BY_ID =
      "SELECT " + COLUMNS + " FROM verification_jobs WHERE id = :id";
  // Walks requestKey:1, requestKey:2... up to the first key with no job, each step one lookup in
  // the unique index on request_key, and returns the job of the last key found. The step is a
  // scalar subquery, not EXISTS: PostgreSQL turned EXISTS into a hashed subplan that read the
  // whole table once per call (3.2 M rows read for 2,535 verifications in a benchmark).
  static final String SELECT_LATEST_ATTEMPT =
      "WITH RECURSIVE attempt (n) AS ("
          + " SELECT 0"
          + " UNION ALL"
          + " SELECT n + 1 FROM attempt WHERE (SELECT 1 FROM verification_jobs"
          + " WHERE request_key = :request_key || ':' || (n + 1)) IS NOT NULL)"
          + " SELECT "
          + COLUMNS
          + " FROM verification_jobs"
          + " WHERE request_key = :request_key || ':' || (SELECT max(n) FROM attempt WHERE n > 0)";
  private static final String SELECT_UNFINISHED =
      "SELECT "
          + COLUMNS
          + " FROM verification_jobs"
          + " WHERE status IN ('queued', 'running') ORDER BY created_at, id";
  private static final String PROGRESS =
      "UPDATE verification_jobs SET status = :status, stage = :stage, done_steps = :done_steps,"
          + " total_steps = :total_steps, updated_at = :updated_at"
          + " WHERE id = :id AND status IN ('queued', 'running')";
  private static final String FINISH =
      "UPDATE verification_jobs SET status = :status, stage = :stage, error = :error,"
          + " content = NULL, done_steps = total_steps, updated_at = :updated_at"
          + " WHERE id = :id AND status IN ('queued', 'running')";

  private static final RowMapper<JobRow> ROW =
      (rs, context) ->
          new JobRow(
              rs.getString("id"),
              rs.getString("request_key"),
              rs.getString("agreement_id"),
              rs.getString("deliverable_hash"),
              rs.getString("caller"),
              rs.getString("request"),
              rs.getString("content"),
              JobRow.Status.fromColumn(rs.getString("status")),
              rs.getString("stage"),
              rs.getInt("done_steps"),
              rs.getInt("total_steps"),
              rs.getString("error"),
              EpochMillis.instant(rs, "created_at"),
              EpochMillis.instant(rs, "updated_at"),
              EpochMillis.instant(rs, "deadline_at"));

  private final Database database;

  public JobStore(Database database) {
    this.database = database;
  }

  public Optional<JobRow> find(String id) {
    return database.read(
        "reading verification job " + id,
        handle -> handle.createQuery(SELECT_BY_ID).bind("id", id).map(ROW).findOne());
  }

  /**
   * The newest attempt of a request, if any: the attempts of one request are keyed {@code
   * <requestKey>:1}, {@code <requestKey>:2}... (a new attempt only after a failure), and the newest
   * is the last of that unbroken series.
   */
  public Optional<JobRow> latestAttempt(String requestKey) {
    return database.read(
        "finding the latest verification job of a request",
        handle ->
            handle
                .createQuery(SELECT_LATEST_ATTEMPT)
                .bind("request_key", requestKey)
                .map(ROW)
                .findOne());
  }

  /** Jobs queued or running, oldest first: what a restarted node resumes. */
  public List<JobRow> unfinished() {
    return database.read(
        "reading unfinished verification jobs",
        handle -> handle.createQuery(SELECT_UNFINISHED).map(ROW).list());
  }

  /**
   * Records where a queued or running job has got to; false (and nothing written) when the job has
   * already finished.
   */
  public boolean recordProgress(
      String id, JobRow.Status status, String stage, int done, int total, Instant at) {
    return database.write(
        "recording progress of verification job " + id,
        handle ->
            handle
                    .createUpdate(PROGRESS)
                    .bind("status", status.wireName())
                    .bind("stage", stage)
                    .bind("done_steps", done)
                    .bind("total_steps", total)
                    .bind("updated_at", at.toEpochMilli())
                    .bind("id", id)
                    .execute()
                == 1);
  }

  /** Inserts a job; its id and request key must be new (a {@code Write}). */
  public static void put(Handle handle, JobRow job) {
    SqlErrors.naming(
        () -> "a verification job for the same request already exists",
        () ->
            handle
                .createUpdate(INSERT)
                .bind("id", job.id())
                .bind("request_key", job.requestKey())
                .bind("agreement_id", job.agreementId())
                .bind("deliverable_hash", job.deliverableHash())
                .bind("caller", job.caller())
                .bind("request", job.request())
                .bind("content", job.content())
                .bind("status", job.status().wireName())
                .bind("stage", job.stage())
                .bind("done_steps", job.doneSteps())
                .bind("total_steps", job.totalSteps())
                .bind("error", job.error())
                .bind("created_at", job.createdAt().toEpochMilli())
                .bind("updated_at", job.updatedAt().toEpochMilli())
                .bind("deadline_at", job.deadlineAt().toEpochMilli())
                .execute());
  }

  /**
   * Finishes a job that is still queued or running, erasing the content it held; refuses (as a
   * duplicate) one already finished, so a job finishes once (a {@code Write}).
   */
  public static void finish(
      Handle handle, String jobId, JobRow.Status status, String error, Instant at) {
    int updated =
        handle
            .createUpdate(FINISH)
            .bind("status", status.wireName())
            .bind("stage", JobRow.finalStage(status))
            .bind("error", error)
            .bind("updated_at", at.toEpochMilli())
            .bind("id", jobId)
            .execute();
    if (updated != 1) {
      throw new DuplicateKeyException("verification job " + jobId + " has already finished", null);
    }
  }
}
