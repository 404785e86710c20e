package dev.asa.agreement;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A currency and its number of decimals (its minor unit). Amounts may not carry more decimals than
 * their currency has, and every computed amount is rounded to that minor unit.
 */
public record Currency(String code, int decimals) {

  private static final Map<String, Integer> KNOWN =
      new TreeMap<>(
          Map.ofEntries(
              Map.entry("USD", 2),
              Map.entry("EUR", 2),
              Map.entry("GBP", 2),
              Map.entry("CHF", 2),
              Map.entry("CAD", 2),
              Map.entry("AUD", 2),
              Map.entry("JPY", 0),
              Map.entry("USDC", 6),
              Map.entry("USDT", 6),
              Map.entry("EURC", 6),
              Map.entry("DAI", 18),
              Map.entry("ETH", 18),
              Map.entry("BTC", 8),
              Map.entry("SOL", 9),
              Map.entry("CREDIT", 0)));

  public static Optional<Currency> of(String code) {
    Integer decimals = KNOWN.get(code);
    return decimals == null ? Optional.empty() : Optional.of(new Currency(code, decimals));
  }

  /** The codes this server knows, for error messages. */
  public static String knownCodes() {
    return String.join(", ", KNOWN.keySet());
  }
}
