package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The set of criteria one seal commits to: 1 to {@value #MAX} criteria with distinct ids, in the
 * sealer's order (the order is part of the commitment; reports list failures in it).
 */
public record SealedCriteria(List<SealedCriterion> criteria) {

  /** Most criteria in any seal, whatever the scale. */
  public static final int MAX = 50;

  public SealedCriteria {
    criteria = List.copyOf(criteria);
    if (criteria.isEmpty() || criteria.size() > MAX) {
      throw new IllegalArgumentException(
          "a seal holds 1 to " + MAX + " criteria, not " + criteria.size());
    }
    Set<String> ids = new HashSet<>();
    for (SealedCriterion c : criteria) {
      if (!ids.add(c.id())) {
        throw new IllegalArgumentException(
            "criterion id '" + c.id() + "' appears more than once; ids tell failures apart");
      }
    }
  }

  public static SealedCriteria of(SealedCriterion... criteria) {
    return new SealedCriteria(List.of(criteria));
  }

  public int size() {
    return criteria.size();
  }

  public boolean hasJudged() {
    return criteria.stream().anyMatch(c -> c.check().isJudged());
  }

  /** The array of criteria in wire form: the {@code criteria} of the commitment input. */
  public ArrayNode toJson() {
    ArrayNode a = Json.mapper().createArrayNode();
    criteria.forEach(c -> a.add(c.toJson()));
    return a;
  }

  /**
   * Reads the array at {@code pointer}, recording every violation; when {@code scale} is given its
   * count is the most allowed. Null when unusable.
   */
  static SealedCriteria parse(JsonNode array, String pointer, Scale scale, StrictJson errors) {
    if (array == null || !array.isArray()) {
      errors.add(
          pointer,
          (array == null ? "is missing" : "must be an array, found " + StrictJson.kind(array))
              + ": expected 1 to "
              + MAX
              + " criteria");
      return null;
    }
    int max = scale == null ? MAX : scale.criteriaCount();
    if (array.isEmpty() || array.size() > max) {
      errors.add(
          pointer,
          "holds "
              + array.size()
              + " criteria; expected 1 to "
              + max
              + (scale == null ? "" : " (the most scale " + scale.wire() + " allows)"));
      return null;
    }
    int before = errors.count();
    List<SealedCriterion> list = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      String at = StrictJson.child(pointer, i);
      SealedCriterion c = SealedCriterion.parse(array.get(i), at, errors);
      if (c != null) {
        if (!ids.add(c.id())) {
          errors.add(
              StrictJson.child(at, "id"),
              "'" + c.id() + "' appears more than once; every criterion needs its own id");
        }
        list.add(c);
      }
    }
    return errors.count() == before ? new SealedCriteria(list) : null;
  }

  /** Reads a bare array of criteria (no scale limit beyond {@value #MAX}). */
  public static SealedCriteria parse(JsonNode array) {
    StrictJson errors = new StrictJson();
    SealedCriteria c = parse(array, "", null, errors);
    errors.throwIfAny();
    return c;
  }
}
