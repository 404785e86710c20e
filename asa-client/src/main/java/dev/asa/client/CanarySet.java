package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The canary set in force ({@code PUT /admin/canaries}, the operator's call): how many known-answer
 * tasks there are, of which service types, and its digest.
 *
 * @param canaries how many canaries the set holds
 * @param serviceTypes how many of them per service type
 * @param digest the set's digest
 * @param loadedAt when it was loaded
 * @param loadedBy who loaded it
 * @param version grows with every set loaded
 * @param warnings when the set is too small for anyone to qualify by canaries alone, why; empty
 *     otherwise
 * @param json the whole answer, a copy
 */
public record CanarySet(
    long canaries,
    Map<String, Long> serviceTypes,
    String digest,
    Instant loadedAt,
    String loadedBy,
    long version,
    List<String> warnings,
    ObjectNode json) {

  private static final String WHAT = "a canary set";

  /** Checks that nothing is null and keeps private copies. */
  public CanarySet {
    serviceTypes = Collections.unmodifiableMap(new LinkedHashMap<>(serviceTypes));
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(loadedAt, "loadedAt");
    Objects.requireNonNull(loadedBy, "loadedBy");
    warnings = List.copyOf(warnings);
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * Reads a canary set.
   *
   * @param answer the body of {@code PUT /admin/canaries}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static CanarySet from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new CanarySet(
        Members.integer(o, "canaries", WHAT),
        Members.integers(o, "service_types", WHAT),
        Members.text(o, "digest", WHAT),
        Members.instant(o, "loaded_at", WHAT),
        Members.text(o, "loaded_by", WHAT),
        Members.integer(o, "version", WHAT),
        Members.texts(o, "warnings", WHAT),
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
