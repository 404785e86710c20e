package dev.asa.server.store.escrow;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.SqlErrors;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The outbox: messages to other systems, queued by a {@code Write.Enqueue} in the transaction of
 * the change that caused them, then claimed by one node at a time and delivered, at least once.
 */
public final class OutboxStore {

  private static final String INSERT =
      "INSERT INTO outbox (id, agreement_id, kind, destination, body, created_at, status,"
          + " attempts, next_attempt_at)"
          + " VALUES (:id, :agreement_id, :kind, :destination, :body, :created_at, 'pending', 0,"
          + " :created_at)";
  private static final String COLUMNS =
      "id, agreement_id, kind, destination, body, created_at, attempts, status, next_attempt_at,"
          + " last_error, response, delivered_at";
  private static final String SELECT_OF_AGREEMENT =
      "SELECT "
          + COLUMNS
          + " FROM outbox WHERE agreement_id = :agreement_id ORDER BY created_at, id";
  private static final String SELECT_DUE =
      "SELECT "
          + COLUMNS
          + " FROM outbox WHERE status = 'pending' AND next_attempt_at <= :now"
          + " AND (claimed_until IS NULL OR claimed_until < :now) ORDER BY next_attempt_at"
          + " LIMIT :limit";
  private static final String CLAIM =
      "UPDATE outbox SET claimed_by = :node, claimed_until = :until WHERE id = :id"
          + " AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < :now)";
  private static final String RECORD_ATTEMPT =
      "UPDATE outbox SET status = :status, attempts = attempts + 1,"
          + " next_attempt_at = :next_attempt_at, last_error = :error, response = :response,"
          + " delivered_at = :delivered_at, claimed_by = NULL, claimed_until = NULL"
          + " WHERE id = :id AND claimed_by = :node";

  private static final RowMapper<OutboxRow> ROW =
      (rs, context) ->
          new OutboxRow(
              new OutboxMessage(
                  rs.getString("id"),
                  rs.getString("agreement_id"),
                  rs.getString("kind"),
                  rs.getString("destination"),
                  rs.getString("body"),
                  EpochMillis.instant(rs, "created_at"),
                  rs.getInt("attempts")),
              OutboxRow.Status.valueOf(rs.getString("status").toUpperCase(Locale.ROOT)),
              rs.getInt("attempts"),
              EpochMillis.instant(rs, "next_attempt_at"),
              rs.getString("last_error"),
              rs.getString("response"),
              EpochMillis.nullable(rs, "delivered_at"));

  private final Database database;

  public OutboxStore(Database database) {
    this.database = database;
  }

  /**
   * Claims up to {@code limit} pending messages due at {@code now} for {@code node}, each for
   * {@code lease}, like {@code TimerStore.claimDue}.
   */
  public List<OutboxMessage> claimDue(Instant now, String node, Duration lease, int limit) {
    return database.write(
        "claiming due outbox messages",
        handle -> {
          List<OutboxRow> due =
              handle
                  .createQuery(SELECT_DUE)
                  .bind("now", now.toEpochMilli())
                  .bind("limit", limit)
                  .map(ROW)
                  .list();
          List<OutboxMessage> claimed = new ArrayList<>();
          for (OutboxRow row : due) {
            int updated =
                handle
                    .createUpdate(CLAIM)
                    .bind("node", node)
                    .bind("until", now.plus(lease).toEpochMilli())
                    .bind("id", row.message().id())
                    .bind("now", now.toEpochMilli())
                    .execute();
            if (updated == 1) { // another node may have claimed it since the select
              claimed.add(row.message());
            }
          }
          return claimed;
        });
  }

  /**
   * Records how a delivery attempt of a claimed message ended and releases the claim (only the node
   * holding it can): {@code PENDING} with the next attempt time, {@code DELIVERED}, {@code FAILED}
   * for good (the other side said so) or {@code DEAD} (it failed too often).
   */
  public void recordAttempt(
      String messageId,
      String node,
      OutboxRow.Status status,
      Instant nextAttemptAt,
      String error,
      String response,
      Instant deliveredAt) {
    database.write(
        "recording a delivery attempt of " + messageId,
        handle ->
            handle
                .createUpdate(RECORD_ATTEMPT)
                .bind("status", status.name().toLowerCase(Locale.ROOT))
                .bind("next_attempt_at", nextAttemptAt.toEpochMilli())
                .bind("error", error)
                .bind("response", response)
                .bind("delivered_at", EpochMillis.of(deliveredAt))
                .bind("id", messageId)
                .bind("node", node)
                .execute());
  }

  /** The agreement's outbox messages with their delivery state, oldest first. */
  public List<OutboxRow> messagesOf(String agreementId) {
    return database.read(
        "reading the outbox of agreement " + agreementId,
        handle ->
            handle
                .createQuery(SELECT_OF_AGREEMENT)
                .bind("agreement_id", agreementId)
                .map(ROW)
                .list());
  }

  /** Queues a message, due at once (a {@code Write}). */
  public static void enqueue(Handle handle, OutboxMessage m) {
    SqlErrors.naming(
        () -> "outbox message " + m.id() + " already exists",
        () ->
            handle
                .createUpdate(INSERT)
                .bind("id", m.id())
                .bind("agreement_id", m.agreementId())
                .bind("kind", m.kind())
                .bind("destination", m.destination())
                .bind("body", m.body())
                .bind("created_at", m.createdAt().toEpochMilli())
                .execute());
  }
}
