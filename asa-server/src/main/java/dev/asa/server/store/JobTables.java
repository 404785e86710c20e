package dev.asa.server.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of verification jobs (V006), used by {@link JdbcAgreementStore} inside its transactions.
 */
final class JobTables {
  private JobTables() {}

  private static final String COLUMNS =
      "id, request_key, agreement_id, deliverable_hash, caller, request, content, status,"
          + " stage, done_steps, total_steps, error, created_at, updated_at, deadline_at";
  private static final String INSERT =
      "INSERT INTO verification_jobs ("
          + COLUMNS
          + ")"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String SELECT_BY_ID =
      "SELECT " + COLUMNS + " FROM verification_jobs WHERE id = ?";
  private static final String SELECT_BY_KEY =
      "SELECT " + COLUMNS + " FROM verification_jobs WHERE request_key = ?";
  private static final String SELECT_UNFINISHED =
      "SELECT "
          + COLUMNS
          + " FROM verification_jobs"
          + " WHERE status IN ('queued', 'running') ORDER BY created_at, id";
  private static final String PROGRESS =
      "UPDATE verification_jobs SET status = ?, stage = ?, done_steps = ?, total_steps = ?,"
          + " updated_at = ? WHERE id = ? AND status IN ('queued', 'running')";
  private static final String FINISH =
      "UPDATE verification_jobs SET status = ?, stage = ?, error = ?, content = NULL,"
          + " done_steps = total_steps, updated_at = ? WHERE id = ? AND status IN ('queued', 'running')";

  static void put(Statements sql, JobRow job) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT);
    s.setString(1, job.id());
    s.setString(2, job.requestKey());
    nullable(s, 3, job.agreementId());
    s.setString(4, job.deliverableHash());
    s.setString(5, job.caller());
    s.setString(6, job.request());
    nullable(s, 7, job.content());
    s.setString(8, job.status().wireName());
    nullable(s, 9, job.stage());
    s.setInt(10, job.doneSteps());
    s.setInt(11, job.totalSteps());
    nullable(s, 12, job.error());
    s.setLong(13, job.createdAt().toEpochMilli());
    s.setLong(14, job.updatedAt().toEpochMilli());
    s.setLong(15, job.deadlineAt().toEpochMilli());
    JdbcAgreementStore.executeUpdate(
        s, () -> "a verification job for the same request already exists");
  }

  /**
   * Finishes a job that is still queued or running; refuses (as a duplicate) one already finished.
   */
  static void finish(Statements sql, Write.FinishJob finish) throws SQLException {
    PreparedStatement s = sql.prepare(FINISH);
    s.setString(1, finish.status().wireName());
    s.setString(2, finish.status() == JobRow.Status.COMPLETED ? "done" : "failed");
    nullable(s, 3, finish.error());
    s.setLong(4, finish.at().toEpochMilli());
    s.setString(5, finish.jobId());
    if (s.executeUpdate() != 1) {
      throw new DuplicateKeyException(
          "verification job " + finish.jobId() + " has already finished", null);
    }
  }

  static boolean progress(
      Statements sql,
      String id,
      JobRow.Status status,
      String stage,
      int done,
      int total,
      Instant at)
      throws SQLException {
    PreparedStatement s = sql.prepare(PROGRESS);
    s.setString(1, status.wireName());
    s.setString(2, stage);
    s.setInt(3, done);
    s.setInt(4, total);
    s.setLong(5, at.toEpochMilli());
    s.setString(6, id);
    return s.executeUpdate() == 1;
  }

  static Optional<JobRow> byId(Statements sql, String id) throws SQLException {
    return one(sql.prepare(SELECT_BY_ID), id);
  }

  static Optional<JobRow> byKey(Statements sql, String key) throws SQLException {
    return one(sql.prepare(SELECT_BY_KEY), key);
  }

  static List<JobRow> unfinished(Statements sql) throws SQLException {
    List<JobRow> out = new ArrayList<>();
    try (ResultSet rs = sql.prepare(SELECT_UNFINISHED).executeQuery()) {
      while (rs.next()) {
        out.add(row(rs));
      }
    }
    return out;
  }

  private static Optional<JobRow> one(PreparedStatement s, String value) throws SQLException {
    s.setString(1, value);
    try (ResultSet rs = s.executeQuery()) {
      return rs.next() ? Optional.of(row(rs)) : Optional.empty();
    }
  }

  private static JobRow row(ResultSet rs) throws SQLException {
    return new JobRow(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        rs.getString(6),
        rs.getString(7),
        JobRow.Status.fromColumn(rs.getString(8)),
        rs.getString(9),
        rs.getInt(10),
        rs.getInt(11),
        rs.getString(12),
        Instant.ofEpochMilli(rs.getLong(13)),
        Instant.ofEpochMilli(rs.getLong(14)),
        Instant.ofEpochMilli(rs.getLong(15)));
  }

  private static void nullable(PreparedStatement s, int index, String value) throws SQLException {
    if (value == null) {
      s.setNull(index, Types.VARCHAR);
    } else {
      s.setString(index, value);
    }
  }
}
