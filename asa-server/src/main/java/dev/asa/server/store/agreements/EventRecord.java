package dev.asa.server.store.agreements;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One entry of an agreement's append-only, hash-chained event log. The store does not compute or
 * check the hashes (that rule lives in the core); it only guarantees that {@code seq} is unique per
 * agreement, so two writers can never both append "event 5".
 *
 * @param seq 1, 2, 3... per agreement
 * @param actor JSON text
 * @param payload JSON text
 * @param prevHash null for the first event
 */
public record EventRecord(
    String agreementId,
    long seq,
    String type,
    String actor,
    Instant at,
    String payload,
    String prevHash,
    String hash) {

  public EventRecord {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(hash, "hash");
    at = Objects.requireNonNull(at, "at").truncatedTo(ChronoUnit.MILLIS);
  }

  /** The stored form of the core's event: actor and payload as compact JSON text. */
  public static EventRecord of(dev.asa.lifecycle.Event e) {
    return new EventRecord(
        e.agreementId(),
        e.seq(),
        e.type(),
        dev.asa.json.Json.write(e.actor()),
        e.at(),
        dev.asa.json.Json.write(e.payload()),
        e.prevHash(),
        e.hash());
  }

  /** The core's event: what the chain is checked on (actor and payload parsed). */
  public dev.asa.lifecycle.Event toCore() {
    return new dev.asa.lifecycle.Event(
        agreementId,
        seq,
        type,
        dev.asa.json.Json.parseTrusted(actor),
        at,
        dev.asa.json.Json.parseTrusted(payload),
        prevHash,
        hash);
  }
}
