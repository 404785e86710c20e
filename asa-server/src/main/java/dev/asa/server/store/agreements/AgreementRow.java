package dev.asa.server.store.agreements;

import dev.asa.lifecycle.State;
import dev.asa.server.store.db.StoredText;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One agreement as the store keeps it: the current document plus the few columns the server queries
 * by. {@code version} is the optimistic-concurrency counter: every committed change increments it
 * by one.
 *
 * <p>Timestamps are truncated to the millisecond here, because that is what both databases keep;
 * truncating on construction makes a row read back equal to the row that was written.
 *
 * @param storedDocument the agreement as the parties wrote it, as JSON text (canonicalised by the
 *     caller; stored verbatim; see {@link #document}); it never holds server facts, and since
 *     2026-12-07 no status either: {@code state} is the status (a text stored before may still hold
 *     one, which readers ignore)
 * @param storedFacts what the server knows about the agreement (negotiation, escrow,
 *     verification...), as JSON text in a column of its own, written only by the server
 * @param evaluatorIdentity may be null while no evaluator is named
 * @param amount the escrowed amount of the payment terms as decimal text ("10.00"), null without
 *     payment terms; a column so that listings filter and sum by it without parsing documents
 * @param currency the amount's currency code ("USD"), null exactly when {@code amount} is
 */
public record AgreementRow(
    String id,
    long version,
    State state,
    StoredText storedDocument,
    StoredText storedFacts,
    String serviceType,
    String clientIdentity,
    String providerIdentity,
    String evaluatorIdentity,
    Instant createdAt,
    Instant updatedAt,
    String amount,
    String currency) {

  public AgreementRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(storedDocument, "document");
    Objects.requireNonNull(storedFacts, "facts");
    createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
    updatedAt = Objects.requireNonNull(updatedAt, "updatedAt").truncatedTo(ChronoUnit.MILLIS);
    if ((amount == null) != (currency == null)) {
      throw new IllegalArgumentException(
          "amount and currency come together: " + amount + " " + currency);
    }
  }

  /** A row about to be written, its document and facts given as text. */
  public AgreementRow(
      String id,
      long version,
      State state,
      String document,
      String facts,
      String serviceType,
      String clientIdentity,
      String providerIdentity,
      String evaluatorIdentity,
      Instant createdAt,
      Instant updatedAt,
      String amount,
      String currency) {
    this(
        id,
        version,
        state,
        StoredText.of(document),
        StoredText.of(facts),
        serviceType,
        clientIdentity,
        providerIdentity,
        evaluatorIdentity,
        createdAt,
        updatedAt,
        amount,
        currency);
  }

  /**
   * The document's JSON text. A row read from the store unpacks it here, the first time: a reader
   * whose agreement is cached by version never needs it.
   */
  public String document() {
    return storedDocument.text();
  }

  /** The facts' JSON text, unpacked as {@link #document} is. */
  public String facts() {
    return storedFacts.text();
  }

  /** A row without payment terms. */
  public AgreementRow(
      String id,
      long version,
      State state,
      String document,
      String facts,
      String serviceType,
      String clientIdentity,
      String providerIdentity,
      String evaluatorIdentity,
      Instant createdAt,
      Instant updatedAt) {
    this(
        id,
        version,
        state,
        document,
        facts,
        serviceType,
        clientIdentity,
        providerIdentity,
        evaluatorIdentity,
        createdAt,
        updatedAt,
        null,
        null);
  }

  /** A row with no server facts yet and no payment terms. */
  public AgreementRow(
      String id,
      long version,
      State state,
      String document,
      String serviceType,
      String clientIdentity,
      String providerIdentity,
      String evaluatorIdentity,
      Instant createdAt,
      Instant updatedAt) {
    this(
        id,
        version,
        state,
        document,
        "{}",
        serviceType,
        clientIdentity,
        providerIdentity,
        evaluatorIdentity,
        createdAt,
        updatedAt);
  }
}
