package dev.asa.evaluators.judge;

import java.util.Objects;

/**
 * How the judge scores one dimension: what it measures and what four points of the 0..100 scale
 * mean. Anchors keep two runs (and two judges) on the same scale; without them "70" means whatever
 * the model feels like that day.
 *
 * @param id versioned, e.g. {@code accuracy-v1}; a change of wording is a new version, so that an
 *     evidence trail names exactly the text a score was given against
 * @param dimension the dimension name it was written for ({@code *} for the generic rubric)
 * @param measures what the dimension measures, in one or two sentences
 * @param at90 what a deliverable scoring about 90 looks like
 * @param at70 about 70
 * @param at40 about 40
 * @param at10 about 10
 */
public record Rubric(
    String id,
    String dimension,
    String measures,
    String at90,
    String at70,
    String at40,
    String at10) {

  public Rubric {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(dimension, "dimension");
    Objects.requireNonNull(measures, "measures");
    Objects.requireNonNull(at90, "at90");
    Objects.requireNonNull(at70, "at70");
    Objects.requireNonNull(at40, "at40");
    Objects.requireNonNull(at10, "at10");
  }

  /** The rubric as the judge reads it, for the dimension {@code name}. */
  String render(String name, String agreedDescription) {
    StringBuilder out = new StringBuilder();
    out.append("### ").append(name).append(" (rubric ").append(id).append(")\n");
    out.append("Measures: ").append(measures).append('\n');
    if (agreedDescription != null && !agreedDescription.isBlank()) {
      out.append("The agreement describes it as: ").append(agreedDescription.strip()).append('\n');
    }
    out.append("- 90: ").append(at90).append('\n');
    out.append("- 70: ").append(at70).append('\n');
    out.append("- 40: ").append(at40).append('\n');
    out.append("- 10: ").append(at10).append('\n');
    return out.toString();
  }
}
