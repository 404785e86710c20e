package dev.asa.client;

import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The filters of a listing ({@code GET /agreements}) and a count ({@code GET /agreements/counts});
 * each null member does not narrow. Build one from {@link #NONE} with the {@code with...} methods:
 * {@code ListFilter.NONE.withState(State.ACTIVE).withCurrency("USD")}.
 *
 * @param state only agreements in this state (a count ignores it)
 * @param serviceType only agreements of this service type
 * @param createdAfter only agreements created after this instant (exclusive)
 * @param createdBefore only agreements created before this instant (exclusive)
 * @param minAmount only agreements whose amount is at least this
 * @param maxAmount only agreements whose amount is at most this
 * @param currency only agreements in this currency, e.g. {@code USD}
 */
public record ListFilter(
    State state,
    String serviceType,
    Instant createdAfter,
    Instant createdBefore,
    BigDecimal minAmount,
    BigDecimal maxAmount,
    String currency) {

  /** Narrows nothing. */
  public static final ListFilter NONE = new ListFilter(null, null, null, null, null, null, null);

  /**
   * This filter, narrowed to a state.
   *
   * @param state only agreements in this state, or null for any
   * @return this filter with that state
   */
  public ListFilter withState(State state) {
    return new ListFilter(
        state, serviceType, createdAfter, createdBefore, minAmount, maxAmount, currency);
  }

  /**
   * This filter, narrowed to a service type.
   *
   * @param serviceType only agreements of this service type, or null for any
   * @return this filter with that service type
   */
  public ListFilter withServiceType(String serviceType) {
    return new ListFilter(
        state, serviceType, createdAfter, createdBefore, minAmount, maxAmount, currency);
  }

  /**
   * This filter, narrowed to a creation window.
   *
   * @param after only agreements created after this (exclusive), or null
   * @param before only agreements created before this (exclusive), or null
   * @return this filter with that creation window
   */
  public ListFilter withCreated(Instant after, Instant before) {
    return new ListFilter(state, serviceType, after, before, minAmount, maxAmount, currency);
  }

  /**
   * This filter, narrowed to an amount range.
   *
   * @param min only agreements whose amount is at least this, or null
   * @param max only agreements whose amount is at most this, or null
   * @return this filter with that amount range
   */
  public ListFilter withAmounts(BigDecimal min, BigDecimal max) {
    return new ListFilter(state, serviceType, createdAfter, createdBefore, min, max, currency);
  }

  /**
   * This filter, narrowed to a currency.
   *
   * @param currency only agreements in this currency, e.g. {@code USD}, or null for any
   * @return this filter with that currency
   */
  public ListFilter withCurrency(String currency) {
    return new ListFilter(
        state, serviceType, createdAfter, createdBefore, minAmount, maxAmount, currency);
  }

  /** The query parameters, each {@code &name=value}, URL-encoded; empty for {@link #NONE}. */
  String query(boolean withState) {
    StringBuilder q = new StringBuilder();
    if (withState && state != null) {
      append(q, "state", state.name());
    }
    append(q, "service_type", serviceType);
    append(q, "created_after", createdAfter == null ? null : createdAfter.toString());
    append(q, "created_before", createdBefore == null ? null : createdBefore.toString());
    append(q, "min_amount", minAmount == null ? null : minAmount.toPlainString());
    append(q, "max_amount", maxAmount == null ? null : maxAmount.toPlainString());
    append(q, "currency", currency);
    return q.toString();
  }

  private static void append(StringBuilder q, String name, String value) {
    if (value != null) {
      q.append('&')
          .append(name)
          .append('=')
          .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }
  }
}
