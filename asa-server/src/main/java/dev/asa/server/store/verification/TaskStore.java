package dev.asa.server.store.verification;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PackedText;
import dev.asa.server.store.db.PackedText.Dictionary;
import dev.asa.server.store.db.PlainStatements;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The evaluator work queue: tasks are put with the agreement change that gives them ({@code
 * Write.PutTask}), answered by their evaluator ({@link #answer}), and ended, their content and
 * answer erased, with the change that settles them ({@code Write.EndTask}) or that moves their
 * agreement past them ({@code Write.WithdrawTasks}).
 */
public final class TaskStore {

  private static final String COLUMNS =
      "id, evaluator_key, agreement_id, delivery, kind, canary_id, service_type, scheduled,"
          + " real_before, content, answer, status, outcome, created_at, deadline_at, answered_at,"
          + " ended_at";
  // INSERT, END, WITHDRAW and SELECT_OF_LATEST_DELIVERY are positional: they run with
  // PlainStatements, on the path of the changes that deliver and verify (the others go through
  // JDBI). INSERT is bound by put in the order of COLUMNS.
  private static final String INSERT =
      "INSERT INTO evaluator_tasks ("
          + COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'open', NULL, ?, ?, NULL, NULL)";
  private static final String SELECT_BY_ID =
      "SELECT " + COLUMNS + " FROM evaluator_tasks WHERE id = :id";
  private static final String SELECT_OPEN =
      "SELECT "
          + COLUMNS
          + " FROM evaluator_tasks WHERE evaluator_key = :evaluator_key AND status = 'open'"
          + " AND created_at <= :now AND deadline_at > :now ORDER BY deadline_at, id LIMIT :limit";
  private static final String SELECT_OF_EVALUATOR =
      "SELECT "
          + COLUMNS
          + " FROM evaluator_tasks WHERE evaluator_key = :key ORDER BY created_at, id";
  private static final String SELECT_OF_AGREEMENT =
      "SELECT "
          + COLUMNS
          + " FROM evaluator_tasks WHERE agreement_id = :agreement_id"
          + " ORDER BY delivery, created_at, id";
  private static final String SELECT_OF_DELIVERY =
      "SELECT "
          + COLUMNS
          + " FROM evaluator_tasks WHERE agreement_id = :agreement_id AND delivery = :delivery"
          + " ORDER BY created_at, id";
  // The delivery in force is the agreement's latest deliverable: read in the same statement, so
  // that the two cannot come from different moments.
  private static final String SELECT_OF_LATEST_DELIVERY =
      "SELECT "
          + COLUMNS
          + " FROM evaluator_tasks WHERE agreement_id = ? AND delivery ="
          + " (SELECT max(attempt) FROM deliverables WHERE agreement_id = ?)"
          + " ORDER BY created_at, id";
  private static final String SELECT_DUE_QUALIFICATION =
      "SELECT "
          + COLUMNS
          + " FROM evaluator_tasks WHERE evaluator_key = :evaluator_key AND agreement_id IS NULL"
          + " AND status IN ('open', 'answered') ORDER BY created_at, id";
  private static final String ANSWER =
      "UPDATE evaluator_tasks SET status = 'answered', answer = :answer, answered_at = :at"
          + " WHERE id = :id AND evaluator_key = :evaluator_key AND status = 'open'"
          + " AND deadline_at > :at";
  private static final String REPLACE_CONTENT =
      "UPDATE evaluator_tasks SET content = :content WHERE id = :id AND status = 'open'";
  private static final String END =
      "UPDATE evaluator_tasks SET status = ?, outcome = ?, content = NULL,"
          + " answer = NULL, ended_at = ? WHERE id = ? AND status IN ('open', 'answered')";
  private static final String WITHDRAW =
      "UPDATE evaluator_tasks SET status = 'withdrawn', outcome = ?, content = NULL,"
          + " answer = NULL, ended_at = ? WHERE agreement_id = ?"
          + " AND delivery < ? AND status IN ('open', 'answered')";
  private static final String SCHEDULED_REAL =
      "SELECT count(*) FROM evaluator_tasks WHERE evaluator_key = :evaluator_key AND kind = 'real'"
          + " AND scheduled = 1";
  private static final String SCHEDULED_CANARIES =
      "SELECT count(*) AS n, coalesce(max(real_before), 0) AS last FROM evaluator_tasks"
          + " WHERE evaluator_key = :evaluator_key AND kind = 'canary' AND scheduled = 1";
  private static final String CANARIES_OF_TYPE =
      "SELECT count(*) FROM evaluator_tasks WHERE kind = 'canary' AND service_type = :service_type";
  private static final String CANARIES_SERVED =
      "SELECT DISTINCT canary_id FROM evaluator_tasks WHERE kind = 'canary'";
  private static final String QUALIFICATION_CANARIES =
      "SELECT count(*) FROM evaluator_tasks WHERE evaluator_key = :evaluator_key"
          + " AND kind = 'canary' AND agreement_id IS NULL AND scheduled = 0";

  private static final RowMapper<TaskRow> ROW =
      (rs, context) -> {
        int delivery = rs.getInt("delivery");
        Integer deliveryOrNull = rs.wasNull() ? null : delivery;
        long realBefore = rs.getLong("real_before");
        Long realBeforeOrNull = rs.wasNull() ? null : realBefore;
        return new TaskRow(
            rs.getString("id"),
            rs.getString("evaluator_key"),
            rs.getString("agreement_id"),
            deliveryOrNull,
            TaskRow.Kind.fromColumn(rs.getString("kind")),
            rs.getString("canary_id"),
            rs.getString("service_type"),
            rs.getInt("scheduled") == 1,
            realBeforeOrNull,
            PackedText.unpack(rs.getBytes("content")),
            PackedText.unpack(rs.getBytes("answer")),
            TaskRow.Status.fromColumn(rs.getString("status")),
            rs.getString("outcome"),
            EpochMillis.instant(rs, "created_at"),
            EpochMillis.instant(rs, "deadline_at"),
            EpochMillis.nullable(rs, "answered_at"),
            EpochMillis.nullable(rs, "ended_at"));
      };

  /**
   * What an evaluator's canary schedule is decided from: its scheduled real tasks, its scheduled
   * canaries and how many real tasks it had been given when the last of them was.
   */
  public record ScheduleCounts(long realTasks, long canaries, long realTasksAtLastCanary) {}

  private final Database database;

  public TaskStore(Database database) {
    this.database = database;
  }

  public Optional<TaskRow> find(String id) {
    return database.read(
        "reading evaluator task " + id,
        handle -> handle.createQuery(SELECT_BY_ID).bind("id", id).map(ROW).findOne());
  }

  /** An evaluator's open tasks not yet due, soonest due first. */
  public List<TaskRow> openFor(String evaluatorKey, Instant now, int limit) {
    return database.read(
        "reading an evaluator's open tasks",
        handle ->
            handle
                .createQuery(SELECT_OPEN)
                .bind("evaluator_key", evaluatorKey)
                .bind("now", now.toEpochMilli())
                .bind("limit", limit)
                .map(ROW)
                .list());
  }

  /** Every task ever given to an evaluator, ended ones included (for the store's own tests). */
  public List<TaskRow> ofEvaluator(String evaluatorKey) {
    return database.read(
        "reading the tasks of evaluator " + evaluatorKey,
        handle ->
            handle.createQuery(SELECT_OF_EVALUATOR).bind("key", evaluatorKey).map(ROW).list());
  }

  /** Every task of every delivery of an agreement, ended ones included. */
  public List<TaskRow> ofAgreement(String agreementId) {
    return database.read(
        "reading the evaluator tasks of agreement " + agreementId,
        handle ->
            handle
                .createQuery(SELECT_OF_AGREEMENT)
                .bind("agreement_id", agreementId)
                .map(ROW)
                .list());
  }

  /** Every task of one delivery of an agreement, ended ones included. */
  public List<TaskRow> ofDelivery(String agreementId, int delivery) {
    return database.read(
        "reading the evaluator tasks of agreement " + agreementId,
        handle ->
            handle
                .createQuery(SELECT_OF_DELIVERY)
                .bind("agreement_id", agreementId)
                .bind("delivery", delivery)
                .map(ROW)
                .list());
  }

  /**
   * As {@link #ofDelivery}, of the agreement's latest delivery (none before its first): one read
   * where the delivery and then its tasks would be two.
   */
  public List<TaskRow> ofLatestDelivery(String agreementId) {
    return database.lookup(
        "reading the evaluator tasks of agreement " + agreementId,
        handle ->
            PlainStatements.list(
                handle,
                SELECT_OF_LATEST_DELIVERY,
                PlainStatements.strings(agreementId, agreementId),
                row -> ROW.map(row, null)));
  }

  /**
   * An evaluator's canaries given on their own (qualification canaries, and scheduled canaries that
   * came alone) that have not ended, including any not yet shown.
   */
  public List<TaskRow> unendedAlone(String evaluatorKey) {
    return database.read(
        "reading an evaluator's qualification canaries",
        handle ->
            handle
                .createQuery(SELECT_DUE_QUALIFICATION)
                .bind("evaluator_key", evaluatorKey)
                .map(ROW)
                .list());
  }

  /**
   * Holds the evaluator's answer to its open task; false (nothing written) when the task is not
   * this evaluator's, not open, or past its deadline.
   */
  public boolean answer(String id, String evaluatorKey, String answer, Instant at) {
    return database.write(
        "recording an answer to evaluator task " + id,
        handle ->
            handle
                    .createUpdate(ANSWER)
                    .bind("answer", PackedText.pack(answer, Dictionary.VOCABULARY))
                    .bind("at", at.toEpochMilli())
                    .bind("id", id)
                    .bind("evaluator_key", evaluatorKey)
                    .execute()
                == 1);
  }

  /**
   * Replaces what an open task shows (its deliverable fetched and held inline, say); false when the
   * task is no longer open.
   */
  public boolean replaceContent(TaskRow task, String content) {
    return database.write(
        "holding the content of evaluator task " + task.id(),
        handle ->
            handle
                    .createUpdate(REPLACE_CONTENT)
                    .bind(
                        "content",
                        PackedText.pack(content, Dictionary.forDocument(task.serviceType())))
                    .bind("id", task.id())
                    .execute()
                == 1);
  }

  public ScheduleCounts scheduleCounts(String evaluatorKey) {
    return database.read(
        "reading an evaluator's canary schedule",
        handle -> {
          long real =
              handle
                  .createQuery(SCHEDULED_REAL)
                  .bind("evaluator_key", evaluatorKey)
                  .mapTo(Long.class)
                  .one();
          return handle
              .createQuery(SCHEDULED_CANARIES)
              .bind("evaluator_key", evaluatorKey)
              .map((rs, ctx) -> new ScheduleCounts(real, rs.getLong("n"), rs.getLong("last")))
              .one();
        });
  }

  /**
   * How many canaries posing as this service type the whole pool has been given: the place of the
   * next one in the pool-wide order ({@code CanarySchedule.nextCanary}).
   */
  public long canariesOfType(String serviceType) {
    return database.read(
        "counting the canaries served",
        handle ->
            handle
                .createQuery(CANARIES_OF_TYPE)
                .bind("service_type", serviceType)
                .mapTo(Long.class)
                .one());
  }

  /** The ids of every canary anyone has been given, ever (of any service type). */
  public Set<String> canariesServed() {
    return database.read(
        "reading the canaries served",
        handle -> new HashSet<>(handle.createQuery(CANARIES_SERVED).mapTo(String.class).list()));
  }

  /** How many qualification canaries the evaluator has been given, ever. */
  public long qualificationCanaries(String evaluatorKey) {
    return database.read(
        "counting an evaluator's qualification canaries",
        handle ->
            handle
                .createQuery(QUALIFICATION_CANARIES)
                .bind("evaluator_key", evaluatorKey)
                .mapTo(Long.class)
                .one());
  }

  /** Puts a new task in an evaluator's queue (a {@code Write}). */
  public static void put(Handle handle, TaskRow row) {
    PlainStatements.update(
        handle,
        INSERT,
        statement -> {
          int i = 1;
          statement.setString(i++, row.id());
          statement.setString(i++, row.evaluatorKey());
          statement.setString(i++, row.agreementId());
          PlainStatements.setNullableLong(statement, i++, row.delivery());
          statement.setString(i++, row.kind().column());
          statement.setString(i++, row.canaryId());
          statement.setString(i++, row.serviceType());
          statement.setInt(i++, row.scheduled() ? 1 : 0);
          PlainStatements.setNullableLong(statement, i++, row.realBefore());
          statement.setBytes(
              i++, PackedText.pack(row.content(), Dictionary.forDocument(row.serviceType())));
          statement.setLong(i++, row.createdAt().toEpochMilli());
          statement.setLong(i, row.deadlineAt().toEpochMilli());
        });
  }

  /** Ends the agreement's unended tasks as withdrawn; tasks already ended are left as they are. */
  public static void withdraw(
      Handle handle, String agreementId, Integer beforeDelivery, String outcome, Instant at) {
    PlainStatements.update(
        handle,
        WITHDRAW,
        statement -> {
          statement.setString(1, outcome);
          statement.setLong(2, at.toEpochMilli());
          statement.setString(3, agreementId);
          statement.setInt(4, beforeDelivery != null ? beforeDelivery : Integer.MAX_VALUE);
        });
  }

  /** Ends a task once: refused (DuplicateKeyException) for a task already ended. */
  public static void end(
      Handle handle, String taskId, TaskRow.Status status, String outcome, Instant at) {
    int updated =
        PlainStatements.update(
            handle,
            END,
            statement -> {
              statement.setString(1, status.column());
              statement.setString(2, outcome);
              statement.setLong(3, at.toEpochMilli());
              statement.setString(4, taskId);
            });
    if (updated != 1) {
      throw new DuplicateKeyException("evaluator task " + taskId + " has already ended", null);
    }
  }
}
