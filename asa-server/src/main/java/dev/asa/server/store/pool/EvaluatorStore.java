package dev.asa.server.store.pool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.EvaluatorProfile;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.RecordPublication;
import dev.asa.integrity.Standing;
import dev.asa.integrity.TrackRecord;
import dev.asa.json.Json;
import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PlainStatements;
import dev.asa.server.store.db.SqlErrors;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The evaluator registry's rows: registrations, each evaluator's track record and standing, and the
 * rotation streaks per provider.
 *
 * <p>Updates never lose one another. {@link #update} first bumps the row's version, which in
 * PostgreSQL locks the row until the transaction ends (SQLite has one writer anyway), then reads,
 * changes and writes it; {@link #recordAssessment} first writes the provider's row in {@code
 * provider_assessments}, which serialises every assessment of one provider, and then touches the
 * evaluators in key order, so that two transactions never wait for each other in a circle.
 */
public final class EvaluatorStore {

  private static final String COLUMNS =
      "key_id, profile, standing, standing_note, registered_at, updated_at, evaluations,"
          + " canary_tasks, canary_passes, calibration, version, published, published_at";
  private static final String INSERT =
      "INSERT INTO evaluators (key_id, profile, standing, standing_note, registered_at,"
          + " updated_at, evaluations, canary_tasks, canary_passes, calibration, version)"
          + " VALUES (:key_id, :profile, 'active', NULL, :at, :at, 0, 0, 0, :calibration, 1)";
  private static final String INSERT_TYPE =
      "INSERT INTO evaluator_service_types (service_type, key_id) VALUES (:service_type, :key_id)";
  private static final String SELECT_ONE =
      "SELECT " + COLUMNS + " FROM evaluators WHERE key_id = :key_id";
  private static final String SELECT_PAGE =
      "SELECT " + COLUMNS + " FROM evaluators WHERE key_id > :after ORDER BY key_id LIMIT :limit";
  private static final String SELECT_PAGE_OF_TYPE =
      "SELECT "
          + prefixed("e.")
          + " FROM evaluators e JOIN evaluator_service_types t ON t.key_id = e.key_id"
          + " WHERE t.service_type = :service_type AND e.key_id > :after"
          + " ORDER BY e.key_id LIMIT :limit";
  private static final String SELECT_OF_TYPE =
      "SELECT "
          + prefixed("e.")
          + " FROM evaluators e JOIN evaluator_service_types t ON t.key_id = e.key_id"
          + " WHERE t.service_type = :service_type ORDER BY e.key_id";
  private static final String COUNT = "SELECT COUNT(*) FROM evaluators";
  private static final String STREAKS_OF_ONE =
      "SELECT evaluator_key, provider_key, streak FROM evaluator_streaks"
          + " WHERE evaluator_key = :key_id";
  private static final String STREAKS_IN_RANGE =
      "SELECT evaluator_key, provider_key, streak FROM evaluator_streaks"
          + " WHERE evaluator_key >= :first AND evaluator_key <= :last";
  private static final String STREAKS_OF_TYPE =
      "SELECT s.evaluator_key, s.provider_key, s.streak FROM evaluator_streaks s"
          + " JOIN evaluator_service_types t ON t.key_id = s.evaluator_key"
          + " WHERE t.service_type = :service_type";
  private static final String TOUCH =
      "UPDATE evaluators SET version = version + 1, updated_at = :at WHERE key_id = :key_id";
  private static final String WRITE_RECORD =
      "UPDATE evaluators SET evaluations = :evaluations, canary_tasks = :canary_tasks,"
          + " canary_passes = :canary_passes, calibration = :calibration, standing = :standing,"
          + " standing_note = :standing_note, unpublished = unpublished + :changes"
          + " WHERE key_id = :key_id";
  private static final String UNPUBLISHED =
      "SELECT unpublished FROM evaluators WHERE key_id = :key_id";
  private static final String PUBLISH =
      "UPDATE evaluators SET published = :published, published_at = :at, unpublished = 0"
          + " WHERE key_id = :key_id";
  private static final String INSERT_HISTORY =
      "INSERT INTO evaluator_record_history (key_id, version, at, evaluations, canary_tasks,"
          + " canary_passes, calibration_samples, calibration_deviation) VALUES (:key_id, :version,"
          + " :at, :evaluations, :canary_tasks, :canary_passes, :calibration_samples,"
          + " :calibration_deviation)";
  private static final String SELECT_HISTORY =
      "SELECT at, evaluations, canary_tasks, canary_passes, calibration_samples,"
          + " calibration_deviation FROM evaluator_record_history WHERE key_id = :key_id"
          + " ORDER BY version DESC LIMIT :limit";
  // LOCK_PROVIDER to EXTEND_STREAK are positional: recordAssessment runs them with
  // PlainStatements, with every verification that moves an agreement's money.
  private static final String LOCK_PROVIDER =
      "INSERT INTO provider_assessments (provider_key, assessments, last_assessed_at)"
          + " VALUES (?, 1, ?) ON CONFLICT (provider_key) DO UPDATE SET"
          + " assessments = provider_assessments.assessments + 1,"
          + " last_assessed_at = excluded.last_assessed_at";
  private static final String COUNT_EVALUATION =
      "UPDATE evaluators SET evaluations = evaluations + 1, version = version + 1,"
          + " updated_at = ?, unpublished = unpublished + 1 WHERE key_id = ?";
  private static final String STREAK_HOLDERS =
      "SELECT evaluator_key FROM evaluator_streaks WHERE provider_key = ?";
  private static final String END_STREAK =
      "DELETE FROM evaluator_streaks WHERE provider_key = ? AND evaluator_key = ?";
  private static final String EXTEND_STREAK =
      "INSERT INTO evaluator_streaks (provider_key, evaluator_key, streak) VALUES (?, ?, 1)"
          + " ON CONFLICT (provider_key, evaluator_key) DO UPDATE SET"
          + " streak = evaluator_streaks.streak + 1";

  /** An evaluators row without its streaks (they come from another table). */
  private record Columns(
      EvaluatorProfile profile,
      Standing standing,
      Instant registeredAt,
      Instant updatedAt,
      int evaluations,
      int canaryTasks,
      int canaryPasses,
      Calibration calibration,
      long version,
      TrackRecord published,
      Instant publishedAt) {

    EvaluatorRow withStreaks(Map<String, Integer> streaks) {
      TrackRecord record =
          new TrackRecord(evaluations, canaryTasks, canaryPasses, calibration, streaks);
      return new EvaluatorRow(
          new PoolMember(profile, record, standing),
          registeredAt,
          updatedAt,
          version,
          published,
          publishedAt);
    }
  }

  private record Streak(String evaluatorKey, String providerKey, int streak) {}

  private static final RowMapper<Columns> COLUMNS_ROW =
      (rs, context) -> {
        String keyId = rs.getString("key_id");
        String note = rs.getString("standing_note");
        return new Columns(
            profile(keyId, rs.getString("profile")),
            "suspended".equals(rs.getString("standing"))
                ? Standing.suspended(note)
                : Standing.ACTIVE,
            EpochMillis.instant(rs, "registered_at"),
            EpochMillis.instant(rs, "updated_at"),
            rs.getInt("evaluations"),
            rs.getInt("canary_tasks"),
            rs.getInt("canary_passes"),
            calibration(keyId, rs.getString("calibration")),
            rs.getLong("version"),
            published(keyId, rs.getString("published")),
            EpochMillis.nullable(rs, "published_at"));
      };

  private static final RowMapper<Streak> STREAK_ROW =
      (rs, context) ->
          new Streak(
              rs.getString("evaluator_key"), rs.getString("provider_key"), rs.getInt("streak"));

  private final Database database;

  public EvaluatorStore(Database database) {
    this.database = database;
  }

  /**
   * Registers an evaluator, active, with an empty track record. Times are kept to the millisecond,
   * as everywhere in the store; the row returned says so.
   *
   * @throws DuplicateKeyException when its key is already registered (nothing is written)
   */
  public EvaluatorRow register(EvaluatorProfile profile, Instant at) {
    Objects.requireNonNull(profile, "profile");
    return database.write(
        "registering evaluator " + profile.keyId(), handle -> register(handle, profile, at));
  }

  /**
   * As {@link #register(EvaluatorProfile, Instant)}, inside the caller's transaction (the one
   * {@code Writes.registerEvaluator} opens for it and the writes that go with it).
   */
  public static EvaluatorRow register(Handle handle, EvaluatorProfile profile, Instant at) {
    Instant stamp = EpochMillis.truncate(at);
    String keyId = profile.keyId();
    SqlErrors.naming(
        () -> "an evaluator with key " + keyId + " is already registered",
        () ->
            handle
                .createUpdate(INSERT)
                .bind("key_id", keyId)
                .bind("profile", Json.write(profile.toJson()))
                .bind("at", stamp.toEpochMilli())
                .bind("calibration", Json.write(Calibration.EMPTY.toStored()))
                .execute());
    for (String type : profile.serviceTypes()) {
      handle.createUpdate(INSERT_TYPE).bind("service_type", type).bind("key_id", keyId).execute();
    }
    return new EvaluatorRow(
        new PoolMember(profile, TrackRecord.NEW, Standing.ACTIVE), stamp, stamp, 1);
  }

  /** The evaluator registered with this key (base64url), if any. */
  public Optional<EvaluatorRow> find(String keyId) {
    return database.read("reading evaluator " + keyId, handle -> find(handle, keyId));
  }

  private static Optional<EvaluatorRow> find(Handle handle, String keyId) {
    Optional<Columns> columns =
        handle.createQuery(SELECT_ONE).bind("key_id", keyId).map(COLUMNS_ROW).findOne();
    if (columns.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Integer> streaks = new HashMap<>();
    handle
        .createQuery(STREAKS_OF_ONE)
        .bind("key_id", keyId)
        .map(STREAK_ROW)
        .forEach(s -> streaks.put(s.providerKey(), s.streak()));
    return Optional.of(columns.get().withStreaks(streaks));
  }

  /**
   * One page of the registry in key order.
   *
   * @param serviceType only evaluators of this service type; null for all
   * @param afterKey the last key of the previous page; null for the first page
   */
  public List<EvaluatorRow> list(String serviceType, String afterKey, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a page holds at least one evaluator, not " + limit);
    }
    return database.read(
        "listing evaluators",
        handle -> {
          List<Columns> page =
              (serviceType == null
                      ? handle.createQuery(SELECT_PAGE)
                      : handle.createQuery(SELECT_PAGE_OF_TYPE).bind("service_type", serviceType))
                  .bind("after", afterKey == null ? "" : afterKey)
                  .bind("limit", limit)
                  .map(COLUMNS_ROW)
                  .list();
          if (page.isEmpty()) {
            return List.of();
          }
          // The page is a range of keys: its streaks are those of the keys in that range (an
          // evaluator of another type in between is dropped when the page is assembled).
          List<Streak> streaks =
              handle
                  .createQuery(STREAKS_IN_RANGE)
                  .bind("first", page.getFirst().profile().keyId())
                  .bind("last", page.getLast().profile().keyId())
                  .map(STREAK_ROW)
                  .list();
          return assemble(page, streaks);
        });
  }

  /** Every evaluator of a service type, in key order: the pool an assignment screens. */
  public List<EvaluatorRow> ofServiceType(String serviceType) {
    Objects.requireNonNull(serviceType, "serviceType");
    return database.read(
        "reading the evaluators of service type " + serviceType,
        handle ->
            assemble(
                handle
                    .createQuery(SELECT_OF_TYPE)
                    .bind("service_type", serviceType)
                    .map(COLUMNS_ROW)
                    .list(),
                handle
                    .createQuery(STREAKS_OF_TYPE)
                    .bind("service_type", serviceType)
                    .map(STREAK_ROW)
                    .list()));
  }

  /** How many evaluators are registered. */
  public long count() {
    return database.read(
        "counting evaluators", handle -> handle.createQuery(COUNT).mapTo(Long.class).one());
  }

  private static List<EvaluatorRow> assemble(List<Columns> rows, List<Streak> streaks) {
    Map<String, Map<String, Integer>> byEvaluator = new HashMap<>();
    for (Streak s : streaks) {
      byEvaluator
          .computeIfAbsent(s.evaluatorKey(), k -> new HashMap<>())
          .put(s.providerKey(), s.streak());
    }
    List<EvaluatorRow> out = new ArrayList<>(rows.size());
    for (Columns c : rows) {
      out.add(c.withStreaks(byEvaluator.getOrDefault(c.profile().keyId(), Map.of())));
    }
    return out;
  }

  /**
   * Changes an evaluator's track record and standing in one transaction, under the row's lock:
   * {@code change} sees the committed state and no concurrent update is lost. The profile and the
   * rotation streaks are not {@code change}'s to alter (streaks move only with {@link
   * #recordAssessment}); an exception {@code change} throws aborts the update and passes through.
   *
   * @throws IllegalArgumentException when no evaluator has this key, or {@code change} alters the
   *     profile or the streaks
   */
  public EvaluatorRow update(String keyId, UnaryOperator<PoolMember> change, Instant at) {
    Objects.requireNonNull(change, "change");
    return database.write(
        "updating evaluator " + keyId, handle -> update(handle, keyId, change, at));
  }

  /**
   * As {@link #update(String, UnaryOperator, Instant)}, inside the caller's transaction (the one
   * {@code Writes.updateEvaluator} opens for it and the writes that go with it).
   *
   * @throws IllegalArgumentException when no evaluator has this key
   */
  public static EvaluatorRow update(
      Handle handle, String keyId, UnaryOperator<PoolMember> change, Instant at) {
    return updateIfRegistered(handle, keyId, change, EpochMillis.truncate(at))
        .orElseThrow(
            () -> new IllegalArgumentException("no evaluator is registered with key " + keyId));
  }

  /**
   * The change of {@link #update(String, UnaryOperator, Instant)} inside a transaction already
   * open; empty (and nothing written) when no evaluator has this key.
   */
  private static Optional<EvaluatorRow> updateIfRegistered(
      Handle handle, String keyId, UnaryOperator<PoolMember> change, Instant stamp) {
    int touched =
        handle.createUpdate(TOUCH).bind("at", stamp.toEpochMilli()).bind("key_id", keyId).execute();
    if (touched != 1) {
      return Optional.empty();
    }
    EvaluatorRow row = find(handle, keyId).orElseThrow();
    PoolMember next = change.apply(row.member());
    if (!next.profile().equals(row.member().profile())) {
      throw new IllegalArgumentException(
          "an update changes the record or standing of evaluator " + keyId + ", not its profile");
    }
    TrackRecord record = next.record();
    if (!record.consecutiveByProvider().equals(row.member().record().consecutiveByProvider())) {
      throw new IllegalArgumentException(
          "rotation streaks change only by recording an assessment, not by an update");
    }
    handle
        .createUpdate(WRITE_RECORD)
        .bind("evaluations", record.evaluations())
        .bind("canary_tasks", record.canaryTasks())
        .bind("canary_passes", record.canaryPasses())
        .bind("calibration", Json.write(record.calibration().toStored()))
        .bind("standing", next.standing() instanceof Standing.Suspended ? "suspended" : "active")
        .bind("standing_note", next.standing() instanceof Standing.Suspended x ? x.note() : null)
        .bind("changes", record.equals(row.member().record()) ? 0 : 1)
        .bind("key_id", keyId)
        .execute();
    publishIfDue(handle, keyId, stamp);
    return find(handle, keyId);
  }

  /**
   * A canary's outcome in the evaluator's record (a {@code Write}, committed with the settlement
   * that graded it); nothing for a key no evaluator holds.
   */
  public static void recordCanary(
      Handle handle, String evaluatorKey, CanaryCheck check, Instant at) {
    updateIfRegistered(
        handle,
        evaluatorKey,
        m -> new PoolMember(m.profile(), m.record().withCanary(check), m.standing()),
        EpochMillis.truncate(at));
  }

  /**
   * Calibration samples in the evaluator's record (a {@code Write}); nothing for an unknown key.
   */
  public static void recordCalibration(
      Handle handle, String evaluatorKey, Calibration more, Instant at) {
    updateIfRegistered(
        handle,
        evaluatorKey,
        m -> new PoolMember(m.profile(), m.record().withCalibration(more), m.standing()),
        EpochMillis.truncate(at));
  }

  /** One point of an evaluator's record over time: its figures after one change. */
  public record RecordPoint(
      Instant at,
      int evaluations,
      int canaryTasks,
      int canaryPasses,
      int calibrationSamples,
      BigDecimal calibrationDeviation) {}

  /**
   * The evaluator's record as each of its latest publications showed it ({@link
   * RecordPublication}), oldest first: at most {@code limit} points. (A database migrated from a
   * build before publication also holds a point per change from before.)
   */
  public List<RecordPoint> history(String keyId, int limit) {
    List<RecordPoint> newestFirst =
        database.read(
            "reading the record history of evaluator " + keyId,
            handle ->
                handle
                    .createQuery(SELECT_HISTORY)
                    .bind("key_id", keyId)
                    .bind("limit", limit)
                    .map((rs, context) ->
                        new RecordPoint(
                            Instant.ofEpochMilli(rs.getLong("at")),
                            rs.getInt("evaluations"),
                            rs.getInt("canary_tasks"),
                            rs.getInt("canary_passes"),
                            rs.getInt("calibration_samples"),
                            rs.getString("calibration_deviation") == null
                                ? null
                                : new BigDecimal(rs.getString("calibration_deviation"))))
                    .list());
    return newestFirst.reversed();
  }

  /**
   * Publishes the evaluator's record when enough has changed since it last was ({@link
   * RecordPublication}): its figures as they stand become what others are shown, and a point of its
   * history.
   */
  private static void publishIfDue(Handle handle, String keyId, Instant at) {
    int unpublished =
        handle.createQuery(UNPUBLISHED).bind("key_id", keyId).mapTo(Integer.class).one();
    if (!RecordPublication.due(unpublished)) {
      return;
    }
    EvaluatorRow row = find(handle, keyId).orElseThrow();
    TrackRecord record = row.member().record();
    ObjectNode published = Json.object();
    published.put("evaluations", record.evaluations());
    published.put("canary_tasks", record.canaryTasks());
    published.put("canary_passes", record.canaryPasses());
    published.set("calibration", record.calibration().toStored());
    handle
        .createUpdate(PUBLISH)
        .bind("published", Json.write(published))
        .bind("at", at.toEpochMilli())
        .bind("key_id", keyId)
        .execute();
    insertHistory(handle, keyId, row.version(), at, record);
  }

  private static TrackRecord published(String keyId, String json) {
    if (json == null) {
      return TrackRecord.NEW;
    }
    try {
      JsonNode o = Json.parse(json);
      return new TrackRecord(
          o.path("evaluations").asInt(),
          o.path("canary_tasks").asInt(),
          o.path("canary_passes").asInt(),
          Calibration.fromStored(o.path("calibration")),
          Map.of());
    } catch (JsonProcessingException | InvalidDocumentException e) {
      throw new IllegalStateException(
          "the published record of evaluator " + keyId + " is unreadable: " + e.getMessage(), e);
    }
  }

  private static void insertHistory(
      Handle handle, String keyId, long version, Instant at, TrackRecord record) {
    var overall = record.calibration().overall();
    handle
        .createUpdate(INSERT_HISTORY)
        .bind("key_id", keyId)
        .bind("version", version)
        .bind("at", at.toEpochMilli())
        .bind("evaluations", record.evaluations())
        .bind("canary_tasks", record.canaryTasks())
        .bind("canary_passes", record.canaryPasses())
        .bind("calibration_samples", overall.samples())
        .bind(
            "calibration_deviation",
            overall.meanAbsolute().map(BigDecimal::toPlainString).orElse(null))
        .execute();
  }

  /**
   * Records that these evaluators assessed one delivery of a provider (several for a panel): each
   * registered one counts an evaluation and its streak with the provider grows by one; every other
   * evaluator's streak with that provider ends, as {@link TrackRecord#withEvaluationOf} and {@link
   * TrackRecord#withProviderAssessedByAnother} define. A key that is not registered (an evaluator
   * the agreement named) counts nothing, but still ends the others' streaks.
   */
  public void recordAssessment(Collection<String> evaluatorKeys, String providerKey, Instant at) {
    Objects.requireNonNull(providerKey, "providerKey");
    TreeSet<String> keys = new TreeSet<>(evaluatorKeys); // key order: no circular waits
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("an assessment has at least one evaluator");
    }
    database.write(
        "recording an assessment of provider " + providerKey,
        handle -> {
          recordAssessment(handle, keys, providerKey, at);
          return null;
        });
  }

  /** An assessment (a {@code Write}, committed with the settlement that recorded its result). */
  public static void recordAssessment(
      Handle handle, Collection<String> evaluatorKeys, String providerKey, Instant at) {
    recordAssessment(handle, new TreeSet<>(evaluatorKeys), providerKey, at);
  }

  private static void recordAssessment(
      Handle handle, TreeSet<String> keys, String providerKey, Instant at) {
    long stamp = at.toEpochMilli();
    PlainStatements.update(
        handle,
        LOCK_PROVIDER,
        statement -> {
          statement.setString(1, providerKey);
          statement.setLong(2, stamp);
        });
    List<String> registered = new ArrayList<>();
    for (String key : keys) {
      int counted =
          PlainStatements.update(
              handle,
              COUNT_EVALUATION,
              statement -> {
                statement.setLong(1, stamp);
                statement.setString(2, key);
              });
      if (counted == 1) {
        registered.add(key);
      }
    }
    List<String> holders =
        PlainStatements.list(
            handle, STREAK_HOLDERS, PlainStatements.strings(providerKey), row -> row.getString(1));
    for (String holder : holders) {
      if (!keys.contains(holder)) {
        PlainStatements.update(handle, END_STREAK, PlainStatements.strings(providerKey, holder));
      }
    }
    for (String key : registered) {
      PlainStatements.update(handle, EXTEND_STREAK, PlainStatements.strings(providerKey, key));
      publishIfDue(handle, key, EpochMillis.truncate(at));
    }
  }

  private static EvaluatorProfile profile(String keyId, String json) {
    try {
      return EvaluatorProfile.fromJson(Json.parse(json));
    } catch (JsonProcessingException | InvalidDocumentException e) {
      throw new IllegalStateException(
          "the stored profile of evaluator " + keyId + " is unreadable: " + e.getMessage(), e);
    }
  }

  private static Calibration calibration(String keyId, String json) {
    try {
      return Calibration.fromStored(Json.parse(json));
    } catch (JsonProcessingException | InvalidDocumentException e) {
      throw new IllegalStateException(
          "the stored calibration of evaluator " + keyId + " is unreadable: " + e.getMessage(), e);
    }
  }

  private static String prefixed(String alias) {
    return alias + COLUMNS.replace(", ", ", " + alias);
  }
}
