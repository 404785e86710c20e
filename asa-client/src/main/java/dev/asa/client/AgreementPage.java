package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a listing of agreements ({@code GET /agreements?party=}), newest first.
 *
 * @param items the agreements of this page
 * @param nextCursor what to pass for the next page; empty on the last page
 * @param json the whole answer, a copy
 */
public record AgreementPage(List<Summary> items, Optional<String> nextCursor, ObjectNode json) {

  private static final String WHAT = "a page of agreements";

  /** Checks that nothing is null and keeps private copies. */
  public AgreementPage {
    items = List.copyOf(items);
    Objects.requireNonNull(nextCursor, "nextCursor");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * One agreement of a listing.
   *
   * @param id the agreement's id
   * @param state its lifecycle state
   * @param version grows with every change
   * @param serviceType e.g. {@code general}
   * @param createdAt when it was proposed
   * @param updatedAt when it last changed
   * @param amount the payment its terms name, an exact decimal; empty when they name none
   * @param currency that payment's currency code; empty when they name none
   * @param client the client, when the answer names it
   * @param provider the provider, when the answer names it
   * @param evaluator the evaluator (the named one, or the pool's primary), once there is one
   */
  public record Summary(
      String id,
      State state,
      long version,
      String serviceType,
      Instant createdAt,
      Instant updatedAt,
      Optional<BigDecimal> amount,
      Optional<String> currency,
      Optional<Party> client,
      Optional<Party> provider,
      Optional<Party> evaluator) {

    /** Checks that nothing is null. */
    public Summary {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(serviceType, "serviceType");
      Objects.requireNonNull(createdAt, "createdAt");
      Objects.requireNonNull(updatedAt, "updatedAt");
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(client, "client");
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(evaluator, "evaluator");
    }

    static Summary from(JsonNode s) {
      String what = "an agreement of " + WHAT;
      return new Summary(
          Members.text(s, "agreement_id", what),
          Members.state(s, "state", what),
          Members.integer(s, "version", what),
          Members.text(s, "service_type", what),
          Members.instant(s, "created_at", what),
          Members.instant(s, "updated_at", what),
          Members.optionalDecimal(s, "amount"),
          Members.optionalText(s, "currency"),
          Party.from(s, "client"),
          Party.from(s, "provider"),
          Party.from(s, "evaluator"));
    }
  }

  /**
   * A party of a listed agreement.
   *
   * @param identity its identity value, such as a did:key
   * @param displayName the {@code display_name} the agreement gives it, if any: text a party chose,
   *     to be shown as text (never as markup) and cut to a readable length
   */
  public record Party(String identity, Optional<String> displayName) {

    /** Checks that nothing is null. */
    public Party {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(displayName, "displayName");
    }

    /** The {@code role} of a summary and its {@code role_display_name}; empty without the role. */
    static Optional<Party> from(JsonNode summary, String role) {
      return Members.optionalText(summary, role)
          .map(identity ->
              new Party(identity, Members.optionalText(summary, role + "_display_name")));
    }
  }

  /**
   * Reads a listing.
   *
   * @param answer the body of {@code GET /agreements?party=...}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static AgreementPage from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new AgreementPage(
        Members.requiredObjects(o, "items", WHAT).stream().map(Summary::from).toList(),
        Members.optionalText(o, "next_cursor"),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
