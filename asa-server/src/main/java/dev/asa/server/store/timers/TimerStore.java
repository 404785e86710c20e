package dev.asa.server.store.timers;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PlainStatements;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The durable timers: set (or moved) by a {@code Write.SetTimer} with the change that needs them,
 * claimed when due by one node at a time under a lease, then finished, or failed and retried, or
 * dead after too many failures.
 *
 * <p>A timer is keyed by its agreement and kind (V028; its id, {@code agreement:kind}, is kept for
 * the record): an agreement's timers are one range of the key, so clearing them when it ends reads
 * those rows, not every live agreement's.
 */
public final class TimerStore {

  // UPSERT and CLEAR are positional (run with PlainStatements, with the change that sets or ends
  // the timers); the poller's statements go through JDBI.
  private static final String UPSERT =
      "INSERT INTO timers (id, agreement_id, kind, due_at) VALUES (?, ?, ?, ?)"
          + " ON CONFLICT (agreement_id, kind) DO UPDATE SET due_at = excluded.due_at,"
          + " done_at = NULL, claimed_until = NULL, claimed_by = NULL, attempts = 0,"
          + " last_error = NULL, dead_at = NULL";
  private static final String COLUMNS = "id, agreement_id, kind, due_at, attempts, last_error";
  private static final String SELECT_DUE =
      "SELECT "
          + COLUMNS
          + " FROM timers WHERE done_at IS NULL AND dead_at IS NULL AND due_at <= :now"
          + " AND (claimed_until IS NULL OR claimed_until < :now) ORDER BY due_at LIMIT :limit";
  private static final String CLAIM =
      "UPDATE timers SET claimed_until = :until, claimed_by = :node"
          + " WHERE agreement_id = :agreement_id AND kind = :kind"
          + " AND done_at IS NULL AND dead_at IS NULL"
          + " AND (claimed_until IS NULL OR claimed_until < :now)";
  // A fired timer is deleted, not kept: nothing reads it again, and a closed agreement should
  // leave no timer rows behind (storage per agreement, issue 19). Setting it again inserts afresh.
  private static final String FINISH =
      "DELETE FROM timers WHERE agreement_id = :agreement_id AND kind = :kind"
          + " AND claimed_by = :node";
  // Dead timers stay: they are the operator's to inspect (dead()).
  private static final String CLEAR =
      "DELETE FROM timers WHERE agreement_id = ? AND dead_at IS NULL";
  private static final String FAIL =
      "UPDATE timers SET attempts = attempts + 1, last_error = :error,"
          + " due_at = COALESCE(:retry_at, due_at), dead_at = :dead_at, claimed_until = NULL,"
          + " claimed_by = NULL"
          + " WHERE agreement_id = :agreement_id AND kind = :kind AND claimed_by = :node"
          + " AND done_at IS NULL AND dead_at IS NULL";
  private static final String SELECT_PENDING_OF =
      "SELECT "
          + COLUMNS
          + " FROM timers WHERE agreement_id = :agreement_id AND done_at IS NULL"
          + " AND dead_at IS NULL ORDER BY due_at";
  private static final String SELECT_DEAD =
      "SELECT "
          + COLUMNS
          + " FROM timers WHERE dead_at IS NOT NULL ORDER BY dead_at DESC, id LIMIT :limit";

  private static final RowMapper<TimerRow> ROW =
      (rs, context) ->
          new TimerRow(
              rs.getString("id"),
              rs.getString("agreement_id"),
              rs.getString("kind"),
              EpochMillis.instant(rs, "due_at"),
              rs.getInt("attempts"),
              rs.getString("last_error"));

  private final Database database;

  public TimerStore(Database database) {
    this.database = database;
  }

  /**
   * Claims up to {@code limit} timers due at {@code now} for {@code node}, each for {@code lease}:
   * a timer another node holds (an unexpired lease) or has finished is not returned, so each timer
   * is acted on by one node at a time; a node that dies mid-action loses its lease, and the timer
   * comes due again.
   */
  public List<TimerRow> claimDue(Instant now, String node, Duration lease, int limit) {
    return database.write(
        "claiming due timers",
        handle -> {
          List<TimerRow> due =
              handle
                  .createQuery(SELECT_DUE)
                  .bind("now", now.toEpochMilli())
                  .bind("limit", limit)
                  .map(ROW)
                  .list();
          List<TimerRow> claimed = new ArrayList<>();
          for (TimerRow timer : due) {
            int updated =
                handle
                    .createUpdate(CLAIM)
                    .bind("until", now.plus(lease).toEpochMilli())
                    .bind("node", node)
                    .bind("agreement_id", timer.agreementId())
                    .bind("kind", timer.kind())
                    .bind("now", now.toEpochMilli())
                    .execute();
            if (updated == 1) { // another node may have claimed it since the select
              claimed.add(timer);
            }
          }
          return claimed;
        });
  }

  /**
   * Removes a claimed timer that fired (only the node holding it can; a timer the agreement's
   * ending already cleared is simply gone).
   */
  public void finish(TimerRow timer, String node, Instant at) {
    database.write(
        "finishing timer " + timer.id(),
        handle ->
            handle
                .createUpdate(FINISH)
                .bind("agreement_id", timer.agreementId())
                .bind("kind", timer.kind())
                .bind("node", node)
                .execute());
  }

  /**
   * Removes every live timer of an agreement (a {@code Write.ClearTimers}): an ended agreement has
   * nothing left to time.
   */
  public static void clear(Handle handle, String agreementId) {
    PlainStatements.update(handle, CLEAR, PlainStatements.strings(agreementId));
  }

  /**
   * Records that a claimed timer's action failed (only the node holding it can): its attempts go up
   * by one, {@code error} is kept and the claim released. With {@code retryAt} the timer comes due
   * again then; with null it is dead at {@code at}: never claimed again, listed by {@link #dead}.
   * Setting the timer again (a {@code Write.SetTimer}) makes it live, with no failures.
   */
  public void fail(TimerRow timer, String node, String error, Instant retryAt, Instant at) {
    database.write(
        "recording a failure of timer " + timer.id(),
        handle ->
            handle
                .createUpdate(FAIL)
                .bind("error", error)
                .bind("retry_at", EpochMillis.of(retryAt))
                .bind("dead_at", EpochMillis.of(retryAt == null ? at : null))
                .bind("agreement_id", timer.agreementId())
                .bind("kind", timer.kind())
                .bind("node", node)
                .execute());
  }

  /** The agreement's timers not yet fired (nor dead), soonest first. */
  public List<TimerRow> pending(String agreementId) {
    return database.read(
        "reading the timers of agreement " + agreementId,
        handle ->
            handle
                .createQuery(SELECT_PENDING_OF)
                .bind("agreement_id", agreementId)
                .map(ROW)
                .list());
  }

  /** Up to {@code limit} dead timers (their action failed too often), the most recent first. */
  public List<TimerRow> dead(int limit) {
    return database.read(
        "reading dead timers",
        handle -> handle.createQuery(SELECT_DEAD).bind("limit", limit).map(ROW).list());
  }

  /** Sets (or moves) a timer, forgetting its failures (a {@code Write}). */
  public static void set(Handle handle, TimerRow timer) {
    PlainStatements.update(
        handle,
        UPSERT,
        statement -> {
          statement.setString(1, timer.id());
          statement.setString(2, timer.agreementId());
          statement.setString(3, timer.kind());
          statement.setLong(4, timer.dueAt().toEpochMilli());
        });
  }
}
