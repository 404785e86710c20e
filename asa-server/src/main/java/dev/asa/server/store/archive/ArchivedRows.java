package dev.asa.server.store.archive;

import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventRecord;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the store keeps of one ended agreement, as it leaves the hot tables: the row, its
 * event chain, and the rows of the other tables that name it (ledger entries, results,
 * deliverables' metadata, escrow authorization, outbox messages, seals, verification jobs, chain
 * transactions, sub-contract links), column to value. Never deliverable content: the content
 * columns are not read, and an outbox body is kept as its digest only (a webhook can carry a
 * deliverable).
 *
 * @param tables table name to its rows, each column name to its value (a String, a Long or null;
 *     packed JSON is unpacked to its text)
 */
public record ArchivedRows(
    AgreementRow agreement,
    List<EventRecord> events,
    Map<String, List<Map<String, Object>>> tables) {
  public ArchivedRows {
    Objects.requireNonNull(agreement, "agreement");
    events = List.copyOf(events);
    tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
  }
}
