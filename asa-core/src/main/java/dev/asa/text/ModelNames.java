package dev.asa.text;

import java.util.regex.Pattern;

/**
 * Model names as people write them: "openai/GPT-4o-2024-08-06" and "gpt-4o" are the same model, and
 * so is "ＧＰＴ-4o" with a zero-width space in it (names are first put in {@link
 * Identities#comparable} form). One rule for every place that asks whether a judge runs the
 * provider's model (whitepaper 5.6, self-enhancement bias): the terms when they are read, the judge
 * before it runs, a submitted result when it names its model.
 */
public final class ModelNames {
  private ModelNames() {}

  /** A trailing release date: -2024-08-06, -20241022, @20241022. */
  private static final Pattern DATE_SUFFIX = Pattern.compile("[-@](\\d{4}-\\d{2}-\\d{2}|\\d{8})$");

  /** In comparable form (lower case, no format characters), without a provider prefix. */
  public static String withoutProvider(String model) {
    String name = Identities.comparable(model);
    int slash = name.lastIndexOf('/');
    return slash >= 0 ? name.substring(slash + 1) : name;
  }

  /** As {@link #withoutProvider}, and without release date or "-latest". */
  static String family(String model) {
    String name = withoutProvider(model);
    name = DATE_SUFFIX.matcher(name).replaceFirst("");
    if (name.endsWith("-latest")) {
      name = name.substring(0, name.length() - "-latest".length());
    }
    return name;
  }

  /**
   * Whether two names denote the same model for the self-enhancement rule (whitepaper 5.6). Sizes
   * and tiers stay distinct ({@code gpt-4o} is not {@code gpt-4o-mini}): they are different models.
   */
  public static boolean same(String a, String b) {
    return family(a).equals(family(b));
  }
}
