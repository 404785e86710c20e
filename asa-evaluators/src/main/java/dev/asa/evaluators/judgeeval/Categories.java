package dev.asa.evaluators.judgeeval;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The records of each category, by name; records without one go under {@link #NONE}. */
final class Categories {
  private Categories() {}

  /** Where records without a category are counted, when others have one. */
  static final String NONE = "(none)";

  /** Indices of the records by category, in name order; empty when no record has a category. */
  static Map<String, int[]> of(List<? extends LabelledRecord> records) {
    if (records.stream().allMatch(r -> r.category() == null)) {
      return Map.of();
    }
    Map<String, List<Integer>> byName = new TreeMap<>();
    for (int i = 0; i < records.size(); i++) {
      String c = records.get(i).category();
      byName.computeIfAbsent(c == null ? NONE : c, k -> new ArrayList<>()).add(i);
    }
    Map<String, int[]> result = new TreeMap<>();
    byName.forEach((k, v) -> result.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
    return result;
  }

  /** The elements of {@code values} at {@code indices}. */
  static boolean[] pick(boolean[] values, int[] indices) {
    boolean[] picked = new boolean[indices.length];
    for (int i = 0; i < indices.length; i++) {
      picked[i] = values[indices[i]];
    }
    return picked;
  }
}
