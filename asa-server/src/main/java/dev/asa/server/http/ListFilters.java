package dev.asa.server.http;

import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.AgreementFilter;
import io.javalin.http.Context;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The filters of {@code GET /agreements} and {@code GET /agreements/counts}, read from the query:
 * {@code state}, {@code service_type}, {@code created_after}, {@code created_before}, {@code
 * min_amount}, {@code max_amount} and {@code currency}. A value that cannot be what its parameter
 * names is a 400 problem naming the parameter ({@code query_parameter}) and saying what it takes,
 * never a value passed on to the store.
 */
final class ListFilters {
  private static final Pattern SERVICE_TYPE = Pattern.compile("[a-z][a-z0-9_]{0,63}");
  // Plain decimals as agreements write amounts: no sign, no exponent, no grouping.
  private static final Pattern AMOUNT = Pattern.compile("[0-9]{1,30}(\\.[0-9]{1,18})?");
  private static final Pattern CURRENCY = Pattern.compile("[A-Z0-9]{3,10}");
  private static final String STATES =
      Arrays.stream(State.values()).map(State::name).collect(Collectors.joining(", "));

  private ListFilters() {}

  /** Every filter of the listing. */
  static AgreementFilter of(Context ctx) {
    return withState(state(ctx), ctx);
  }

  /**
   * Every filter but {@code state}, which a count by state does not take (nor does it read it: the
   * console may send its listing's query as it is).
   */
  static AgreementFilter ofAnyState(Context ctx) {
    return withState(null, ctx);
  }

  private static AgreementFilter withState(State state, Context ctx) {
    return new AgreementFilter(
        state,
        serviceType(ctx),
        instant(ctx, "created_after"),
        instant(ctx, "created_before"),
        amount(ctx, "min_amount"),
        amount(ctx, "max_amount"),
        currency(ctx));
  }

  private static State state(Context ctx) {
    String value = ctx.queryParam("state");
    if (value == null) {
      return null;
    }
    try {
      return State.fromWire(value);
    } catch (IllegalArgumentException e) {
      throw invalid("state", "state must be one of " + STATES + " (any case)");
    }
  }

  private static String serviceType(Context ctx) {
    String value = ctx.queryParam("service_type");
    if (value != null && !SERVICE_TYPE.matcher(value).matches()) {
      throw invalid(
          "service_type",
          "service_type must be a service type in lower-case snake_case, such as research or"
              + " code_generation");
    }
    return value;
  }

  private static Instant instant(Context ctx, String name) {
    String value = ctx.queryParam(name);
    if (value == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(value, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      throw invalid(
          name,
          name
              + " must be an RFC 3339 instant with its offset, such as 2026-11-22T10:00:00Z (in a"
              + " URL, write the + of an offset as %2B)");
    }
  }

  private static BigDecimal amount(Context ctx, String name) {
    String value = ctx.queryParam(name);
    if (value == null) {
      return null;
    }
    if (!AMOUNT.matcher(value).matches()) {
      throw invalid(
          name, name + " must be a plain non-negative decimal amount, such as 10 or 10.50");
    }
    BigDecimal amount = new BigDecimal(value);
    if (name.equals("max_amount")) {
      String min = ctx.queryParam("min_amount");
      if (min != null
          && AMOUNT.matcher(min).matches()
          && new BigDecimal(min).compareTo(amount) > 0) {
        throw invalid(name, "max_amount must not be less than min_amount");
      }
    }
    return amount;
  }

  private static String currency(Context ctx) {
    String value = ctx.queryParam("currency");
    if (value != null && !CURRENCY.matcher(value).matches()) {
      throw invalid(
          "currency",
          "currency must be a currency code of 3 to 10 upper-case letters or digits, such as USD");
    }
    return value;
  }

  static RequestException invalid(String name, String detail) {
    return new RequestException(
        new Problem(
            "invalid-parameter",
            "Invalid query parameter",
            400,
            detail,
            List.of(),
            Json.object().put("query_parameter", name)));
  }
}
