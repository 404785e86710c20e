package dev.asa.server.pool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.integrity.Canary;
import dev.asa.integrity.CanarySet;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What may be said about the canary set in force without giving it away: how many canaries, for
 * which service types, its digest (to tell two sets apart), who loaded it and when. The canaries
 * themselves are never shown: an evaluator that could read them would recognise them among its
 * tasks.
 *
 * @param byServiceType how many canaries pose as each service type; {@link #ANY} counts those that
 *     pose as any
 */
public record CanarySetInfo(
    int count,
    Map<String, Integer> byServiceType,
    String digest,
    Instant loadedAt,
    String loadedBy,
    long version) {

  /** The key of {@link #byServiceType} for canaries that pose as any service type. */
  public static final String ANY = "*";

  public CanarySetInfo {
    byServiceType = Map.copyOf(byServiceType);
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(loadedAt, "loadedAt");
    Objects.requireNonNull(loadedBy, "loadedBy");
  }

  static Map<String, Integer> countByServiceType(CanarySet set) {
    Map<String, Integer> out = new TreeMap<>();
    for (Canary c : set.canaries()) {
      out.merge(c.serviceTypeName().orElse(ANY), 1, Integer::sum);
    }
    return out;
  }

  /** How many canaries can pose as work of this service type (its own and those of any). */
  public int countFor(String serviceType) {
    return byServiceType.getOrDefault(serviceType, 0) + byServiceType.getOrDefault(ANY, 0);
  }

  /**
   * {@code {"canaries", "service_types": {type: count, "*": count}, "digest", "loaded_at",
   * "loaded_by", "version"}}.
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("canaries", count);
    ObjectNode types = o.putObject("service_types");
    new TreeMap<>(byServiceType).forEach(types::put);
    o.put("digest", digest);
    o.put("loaded_at", loadedAt.toString());
    o.put("loaded_by", loadedBy);
    o.put("version", version);
    return o;
  }
}
