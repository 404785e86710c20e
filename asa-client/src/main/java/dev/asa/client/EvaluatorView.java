package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A registered evaluator as the registry shows it ({@code GET /evaluators/{key}}, an entry of
 * {@code GET /evaluators}, and the answers of register, suspend and reinstate): what it said at
 * registration, the operator's standing, the track record the server keeps, and whether it
 * qualifies for the pool now, with every reason when it does not. What names a party or times its
 * work is shown to the evaluator itself and the operator only: for anyone else those members are
 * empty. The record over time ({@code history}) and the calibration by dimension are in {@link
 * #json()}.
 *
 * @param key its public key, base64url
 * @param identity who it is: scheme, value and, when it declared one, its CoC lineage
 * @param displayName the name shown in the registry
 * @param organization whom it belongs to, when it said
 * @param serviceTypes the service types it judges
 * @param model the judge model it runs, when it said
 * @param priceUsd what it charges per evaluation in US dollars, when it said
 * @param domains its domains of expertise
 * @param standing the operator's standing: active or suspended
 * @param conflictsOfInterest the keys (base64url) of parties whose agreements it must not judge;
 *     empty for a reader other than itself and the operator
 * @param registeredAt when it registered
 * @param updatedAt when its record last changed, for itself and the operator
 * @param trackRecord its track record as last published (as it is, for the operator)
 * @param trackRecordAsOf when the record shown was published; empty before the first publication
 * @param qualified whether it qualifies for the pool by the record shown
 * @param why why it does not qualify yet; empty when it does
 * @param probation for a qualified evaluator on probation, what it still lacks
 * @param json the whole answer, a copy
 */
public record EvaluatorView(
    String key,
    Identity identity,
    String displayName,
    Optional<String> organization,
    List<String> serviceTypes,
    Optional<String> model,
    Optional<BigDecimal> priceUsd,
    List<String> domains,
    Standing standing,
    List<String> conflictsOfInterest,
    Instant registeredAt,
    Optional<Instant> updatedAt,
    TrackRecord trackRecord,
    Optional<Instant> trackRecordAsOf,
    boolean qualified,
    List<String> why,
    Optional<String> probation,
    ObjectNode json) {

  private static final String WHAT = "an evaluator";

  /** Checks that nothing is null and keeps private copies. */
  public EvaluatorView {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(displayName, "displayName");
    Objects.requireNonNull(organization, "organization");
    serviceTypes = List.copyOf(serviceTypes);
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(priceUsd, "priceUsd");
    domains = List.copyOf(domains);
    Objects.requireNonNull(standing, "standing");
    conflictsOfInterest = List.copyOf(conflictsOfInterest);
    Objects.requireNonNull(registeredAt, "registeredAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(trackRecord, "trackRecord");
    Objects.requireNonNull(trackRecordAsOf, "trackRecordAsOf");
    why = List.copyOf(why);
    Objects.requireNonNull(probation, "probation");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The operator's standing ({@code standing}).
   *
   * @param status {@code active} or {@code suspended}
   * @param note why it was suspended, while it is
   */
  public record Standing(String status, Optional<String> note) {

    /** Checks that nothing is null. */
    public Standing {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(note, "note");
    }

    /**
     * Whether the operator suspended it: a suspended evaluator is never assigned.
     *
     * @return true while suspended
     */
    public boolean suspended() {
      return status.equals("suspended");
    }
  }

  /**
   * The track record ({@code track_record}).
   *
   * @param evaluations the real evaluations counted
   * @param canaryTasks the canary tasks graded
   * @param canaryPasses how many of them passed
   * @param canaryPassRate passes over tasks, 0 to 1; empty before the first canary
   * @param calibrationDeviation its mean absolute deviation from the other evaluators' scores, in
   *     points; empty before any comparison
   * @param consecutiveByProvider per provider (its key, base64url), how many of that provider's
   *     latest agreements in a row it judged, in the server's order; empty for a reader other than
   *     itself and the operator (it names providers)
   */
  public record TrackRecord(
      long evaluations,
      long canaryTasks,
      long canaryPasses,
      Optional<BigDecimal> canaryPassRate,
      Optional<BigDecimal> calibrationDeviation,
      Optional<Map<String, Long>> consecutiveByProvider) {

    /** Checks that nothing is null and keeps a private copy of the streaks. */
    public TrackRecord {
      Objects.requireNonNull(canaryPassRate, "canaryPassRate");
      Objects.requireNonNull(calibrationDeviation, "calibrationDeviation");
      consecutiveByProvider =
          consecutiveByProvider.map(m -> Collections.unmodifiableMap(new LinkedHashMap<>(m)));
    }

    static TrackRecord from(JsonNode r) {
      String what = "the track record of " + WHAT;
      return new TrackRecord(
          Members.integer(r, "evaluations", what),
          Members.integer(r, "canary_tasks", what),
          Members.integer(r, "canary_passes", what),
          Members.optionalDecimal(r, "canary_pass_rate"),
          Members.optionalDecimal(r, "calibration_deviation"),
          Members.optionalChild(r, "consecutive_by_provider")
              .map(streaks -> Members.integers(r, "consecutive_by_provider", what)));
    }
  }

  /**
   * Reads an evaluator.
   *
   * @param answer the body of {@code GET /evaluators/{key}} (or of register, suspend, reinstate),
   *     or one entry of {@code GET /evaluators}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static EvaluatorView from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    ObjectNode identity = Members.child(o, "identity", WHAT);
    ObjectNode standing = Members.child(o, "standing", WHAT);
    return new EvaluatorView(
        Members.text(o, "key", WHAT),
        new Identity(
            Members.text(identity, "scheme", WHAT + "'s identity"),
            Members.text(identity, "value", WHAT + "'s identity"),
            Members.optionalText(o, "lineage").orElse(null)),
        Members.text(o, "display_name", WHAT),
        Members.optionalText(o, "organization"),
        Members.texts(o, "service_types", WHAT),
        Members.optionalText(o, "model"),
        Members.optionalDecimal(o, "price_usd"),
        Members.texts(o, "domains", WHAT),
        new Standing(
            Members.text(standing, "status", WHAT + "'s standing"),
            Members.optionalText(standing, "note")),
        Members.texts(o, "conflicts_of_interest", WHAT),
        Members.instant(o, "registered_at", WHAT),
        Members.optionalInstant(o, "updated_at"),
        TrackRecord.from(Members.child(o, "track_record", WHAT)),
        Members.optionalInstant(o, "track_record_as_of"),
        Members.bool(o, "qualified", WHAT),
        Members.texts(o, "why", WHAT),
        Members.optionalText(o, "probation"),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
