package dev.asa.cli;

import dev.asa.client.ListFilter;
import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Option;

/**
 * The filters {@code asa agreements list} and {@code asa agreements counts} share, read into the
 * SDK's {@link ListFilter}: a value that cannot be what its option names is a usage error (exit 2)
 * here, before any request. The server checks them again (400 naming the parameter).
 */
final class ListFilterOptions {

  @Option(
      names = "--service-type",
      paramLabel = "TYPE",
      description = "only agreements of this service type, such as general or research")
  String serviceType;

  @Option(
      names = "--created-after",
      paramLabel = "INSTANT",
      description =
          "only agreements created after this RFC 3339 instant, such as 2026-11-22T10:00:00Z")
  String createdAfter;

  @Option(
      names = "--created-before",
      paramLabel = "INSTANT",
      description = "only agreements created before this RFC 3339 instant")
  String createdBefore;

  @Option(
      names = "--min-amount",
      paramLabel = "AMOUNT",
      description = "only agreements whose amount is at least this, such as 10.00")
  String minAmount;

  @Option(
      names = "--max-amount",
      paramLabel = "AMOUNT",
      description = "only agreements whose amount is at most this")
  String maxAmount;

  @Option(
      names = "--currency",
      paramLabel = "CODE",
      description = "only agreements in this currency, such as USD")
  String currency;

  /** The filter, with {@code state} (null for none). */
  ListFilter filter(State state) throws UsageException {
    return ListFilter.NONE
        .withState(state)
        .withServiceType(serviceType)
        .withCreated(
            instant("--created-after", createdAfter), instant("--created-before", createdBefore))
        .withAmounts(amount("--min-amount", minAmount), amount("--max-amount", maxAmount))
        .withCurrency(currency);
  }

  /** {@code --state}: one of the nine states, in either case. */
  static State state(String text) throws UsageException {
    if (text == null) {
      return null;
    }
    try {
      return State.fromWire(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--state: " + e.getMessage());
    }
  }

  private static Instant instant(String option, String text) throws UsageException {
    if (text == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      throw new UsageException(
          option + " takes an RFC 3339 instant such as 2026-11-22T10:00:00Z, not '" + text + "'");
    }
  }

  private static BigDecimal amount(String option, String text) throws UsageException {
    if (text == null) {
      return null;
    }
    if (text.matches("[0-9]{1,30}(\\.[0-9]{1,18})?")) {
      return new BigDecimal(text);
    }
    throw new UsageException(
        option + " takes a plain non-negative decimal such as 10.00, not '" + text + "'");
  }
}
