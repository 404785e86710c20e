package dev.asa.evaluators.judge;

import dev.asa.text.ModelNames;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * List prices of common judge models, USD per million tokens (input / output), as published by
 * OpenAI and Anthropic in 2025. A deployment whose contract differs configures its own {@link
 * Price} in {@link JudgeConfig}, which takes precedence.
 *
 * <p>Lookup is by the longest family name that the model name equals or continues with a dash, so
 * {@code gpt-4o-2024-08-06} is priced as {@code gpt-4o} and {@code gpt-4o-mini} as itself. Where a
 * family's generations are priced differently and the name does not say which, the higher price is
 * used: an over-estimate refuses a cap it might have met, an under-estimate would overspend.
 */
public final class PriceTable {

  private static final Map<String, Price> FAMILIES =
      Map.ofEntries(
          Map.entry("gpt-4o", Price.of("2.50", "10.00")),
          Map.entry("gpt-4o-mini", Price.of("0.15", "0.60")),
          Map.entry("gpt-4.1", Price.of("2.00", "8.00")),
          Map.entry("gpt-4.1-mini", Price.of("0.40", "1.60")),
          Map.entry("gpt-4.1-nano", Price.of("0.10", "0.40")),
          Map.entry("claude-sonnet-4", Price.of("3.00", "15.00")),
          Map.entry("claude-3-7-sonnet", Price.of("3.00", "15.00")),
          Map.entry("claude-3-5-sonnet", Price.of("3.00", "15.00")),
          Map.entry("claude-haiku", Price.of("1.00", "5.00")),
          Map.entry("claude-3-5-haiku", Price.of("0.80", "4.00")),
          Map.entry("claude-3-haiku", Price.of("0.25", "1.25")),
          Map.entry("claude-opus", Price.of("15.00", "75.00")),
          Map.entry("claude-opus-4-5", Price.of("5.00", "25.00")),
          Map.entry("claude-opus-4-6", Price.of("5.00", "25.00")));

  /** Longest first, so the most specific family wins. */
  private static final List<String> BY_LENGTH =
      FAMILIES.keySet().stream()
          .sorted(Comparator.comparingInt(String::length).reversed())
          .toList();

  private PriceTable() {}

  /** The list price of a model (provider prefixes such as {@code openai/} ignored), if known. */
  public static Optional<Price> lookup(String model) {
    String name = ModelNames.withoutProvider(model);
    for (String family : BY_LENGTH) {
      if (name.equals(family) || name.startsWith(family + "-")) {
        return Optional.of(FAMILIES.get(family));
      }
    }
    return Optional.empty();
  }
}
