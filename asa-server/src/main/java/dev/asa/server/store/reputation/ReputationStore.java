package dev.asa.server.store.reputation;

import dev.asa.agreement.Identity;
import dev.asa.agreement.Role;
import dev.asa.reputation.Outcome;
import dev.asa.reputation.Signal;
import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.SqlErrors;
import dev.asa.text.Identities;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * What reputation rests on: the outcomes of ended agreements (written by a {@code Write} in the
 * transaction that ends each agreement, so an ended agreement is counted exactly once) and the
 * foreign signals accepted from trusted issuers, the latest per issuer, subject, role and signal.
 * Identities are kept in {@link Identities#comparable} form, so "Alice" and "alice " are one agent
 * here as everywhere else.
 */
public final class ReputationStore {

  private static final String OUTCOME_COLUMNS =
      "agreement_id, role, identity_scheme, identity_value, party_key, counterparty, ended_at,"
          + " delivered, on_time, passed, composite, disputed";
  private static final String INSERT_OUTCOME =
      "INSERT INTO reputation_outcomes ("
          + OUTCOME_COLUMNS
          + ") VALUES (:agreement_id, :role, :identity_scheme, :identity_value, :party_key,"
          + " :counterparty, :ended_at, :delivered, :on_time, :passed, :composite, :disputed)";
  private static final String SELECT_RECENT_OUTCOMES =
      "SELECT "
          + OUTCOME_COLUMNS
          + " FROM reputation_outcomes WHERE identity_scheme = :scheme AND identity_value = :value"
          + " AND ended_at >= :since ORDER BY ended_at DESC, agreement_id DESC LIMIT :limit";
  private static final String SELECT_FIRST_OUTCOME =
      "SELECT "
          + OUTCOME_COLUMNS
          + " FROM reputation_outcomes WHERE identity_scheme = :scheme AND identity_value = :value"
          + " ORDER BY ended_at, agreement_id LIMIT 1";

  private static final String UPSERT_SIGNAL =
      "INSERT INTO reputation_signals (issuer_key, identity_scheme, identity_value, role,"
          + " signal_id, subject_key, value, sample_size, signed_at, received_at, body) VALUES"
          + " (:issuer_key, :identity_scheme, :identity_value, :role, :signal_id, :subject_key,"
          + " :value, :sample_size, :signed_at, :received_at, :body)"
          + " ON CONFLICT (issuer_key, identity_scheme, identity_value, subject_key, role,"
          + " signal_id) DO UPDATE SET value = excluded.value,"
          + " sample_size = excluded.sample_size, signed_at = excluded.signed_at,"
          + " received_at = excluded.received_at, body = excluded.body"
          + " WHERE excluded.signed_at > reputation_signals.signed_at";
  private static final String SELECT_SIGNALS =
      "SELECT issuer_key, role, signal_id, subject_key, value, sample_size, signed_at, body"
          + " FROM reputation_signals WHERE identity_scheme = :scheme AND identity_value = :value"
          + " ORDER BY issuer_key, role, signal_id";

  /** A foreign signal as kept: its figures, and its body exactly as received. */
  public record ForeignSignal(
      String issuerKey,
      Role role,
      String signalId,
      String subjectKey,
      BigDecimal value,
      long sampleSize,
      Instant signedAt,
      String body) {}

  private final Database database;

  public ReputationStore(Database database) {
    this.database = database;
  }

  /**
   * The outcomes recorded under {@code identity}'s name since {@code since}, whatever key, the
   * newest {@code limit} of them, oldest first: a busy agent's figures rest on its latest work, and
   * a public read never loads an unbounded history.
   */
  public List<Outcome> outcomes(Identity identity, Instant since, int limit) {
    List<Outcome> newestFirst =
        database.read(
            "reading the outcomes of " + identity.scheme() + ":" + identity.value(),
            handle ->
                handle
                    .createQuery(SELECT_RECENT_OUTCOMES)
                    .bind("scheme", identity.scheme())
                    .bind("value", Identities.comparable(identity.value()))
                    .bind("since", since.toEpochMilli())
                    .bind("limit", limit)
                    .map(outcome(identity))
                    .list());
    return newestFirst.reversed();
  }

  /** The first outcome ever recorded under {@code identity}'s name: who first used it here. */
  public Optional<Outcome> firstOutcome(Identity identity) {
    return database.read(
        "reading the first outcome of " + identity.scheme() + ":" + identity.value(),
        handle ->
            handle
                .createQuery(SELECT_FIRST_OUTCOME)
                .bind("scheme", identity.scheme())
                .bind("value", Identities.comparable(identity.value()))
                .map(outcome(identity))
                .findOne());
  }

  /**
   * Keeps a foreign signal unless one from the same issuer about the same subject (name and key),
   * role and signal is as new or newer; answers whether it was kept. The signal names its subject's
   * key.
   */
  public boolean putSignal(Signal s, String issuerKey, Instant receivedAt, String body) {
    Identity subject = s.subject();
    Objects.requireNonNull(s.subjectKey(), "a kept signal names its subject's key");
    return database.write(
        "keeping a signal about " + subject.scheme() + ":" + subject.value(),
        handle ->
            handle
                    .createUpdate(UPSERT_SIGNAL)
                    .bind("issuer_key", issuerKey)
                    .bind("identity_scheme", subject.scheme())
                    .bind("identity_value", Identities.comparable(subject.value()))
                    .bind("role", s.role().wireName())
                    .bind("signal_id", s.signalId())
                    .bind("subject_key", s.subjectKey())
                    .bind("value", s.value().toPlainString())
                    .bind("sample_size", s.sampleSize())
                    .bind("signed_at", s.timestamp().toEpochMilli())
                    .bind("received_at", receivedAt.toEpochMilli())
                    .bind("body", body)
                    .execute()
                == 1);
  }

  /** The foreign signals kept about {@code identity}. */
  public List<ForeignSignal> signals(Identity identity) {
    return database.read(
        "reading the signals about " + identity.scheme() + ":" + identity.value(),
        handle ->
            handle
                .createQuery(SELECT_SIGNALS)
                .bind("scheme", identity.scheme())
                .bind("value", Identities.comparable(identity.value()))
                .map((rs, ctx) ->
                    new ForeignSignal(
                        rs.getString("issuer_key"),
                        Role.fromWire(rs.getString("role")),
                        rs.getString("signal_id"),
                        rs.getString("subject_key"),
                        new BigDecimal(rs.getString("value")),
                        rs.getLong("sample_size"),
                        EpochMillis.instant(rs, "signed_at"),
                        rs.getString("body")))
                .list());
  }

  /** Records an ended agreement's outcome (a {@code Write}); once per agreement and role. */
  public static void put(Handle handle, Outcome o) {
    SqlErrors.naming(
        () -> "the outcome of agreement " + o.agreementId() + " as " + o.role() + " is recorded",
        () ->
            handle
                .createUpdate(INSERT_OUTCOME)
                .bind("agreement_id", o.agreementId())
                .bind("role", o.role().wireName())
                .bind("identity_scheme", o.identity().scheme())
                .bind("identity_value", Identities.comparable(o.identity().value()))
                .bind("party_key", o.partyKey())
                .bind("counterparty", o.counterparty())
                .bind("ended_at", o.endedAt().toEpochMilli())
                .bind("delivered", o.delivered() ? 1 : 0)
                .bind("on_time", o.onTime() ? 1 : 0)
                .bind("passed", o.passed() == null ? null : (o.passed() ? 1 : 0))
                .bind("composite", o.composite() == null ? null : o.composite().toPlainString())
                .bind("disputed", o.disputed() ? 1 : 0)
                .execute());
  }

  /** Rows are read back under the identity as asked for (its comparable form is what matched). */
  private static RowMapper<Outcome> outcome(Identity asked) {
    return (rs, ctx) -> {
      int passed = rs.getInt("passed");
      boolean noVerdict = rs.wasNull();
      String composite = rs.getString("composite");
      return new Outcome(
          rs.getString("agreement_id"),
          Role.fromWire(rs.getString("role")),
          new Identity(asked.scheme(), asked.value(), null),
          rs.getString("party_key"),
          rs.getString("counterparty"),
          EpochMillis.instant(rs, "ended_at"),
          rs.getInt("delivered") == 1,
          rs.getInt("on_time") == 1,
          noVerdict ? null : passed == 1,
          composite == null ? null : new BigDecimal(composite),
          rs.getInt("disputed") == 1);
    };
  }
}
