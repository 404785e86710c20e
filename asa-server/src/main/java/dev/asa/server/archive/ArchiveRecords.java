package dev.asa.server.archive;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Party;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.facts.ServerFacts;
import dev.asa.json.Json;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.archive.ArchivedRows;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One archived agreement as a line of the archive: {@code {agreement_id, state, version,
 * created_at, updated_at, document, facts, events, tables}}, the events as {@code GET
 * /agreements/{id}/events} serves them, so the chain check anyone runs on that route runs on the
 * line as it is ({@link
 * dev.asa.lifecycle.EventChain#firstBreak(com.fasterxml.jackson.databind.JsonNode)}).
 */
final class ArchiveRecords {
  private ArchiveRecords() {}

  /** The agreement's line, as JSON (the file adds the newline). */
  static ObjectNode toJson(ArchivedRows rows) {
    AgreementRow a = rows.agreement();
    ObjectNode o = Json.object();
    o.put("agreement_id", a.id());
    o.put("state", a.state().wireName());
    o.put("version", a.version());
    o.put("created_at", a.createdAt().toString());
    o.put("updated_at", a.updatedAt().toString());
    // The document as it reads, its status the row's state (the stored text keeps none).
    ObjectNode document = (ObjectNode) Json.parseTrusted(a.document());
    document.put("status", a.state().wireName());
    o.set("document", document);
    o.set("facts", Json.parseTrusted(a.facts()));
    ArrayNode events = o.putArray("events");
    for (EventRecord e : rows.events()) {
      events.add(e.toCore().toJson());
    }
    ObjectNode tables = o.putObject("tables");
    rows.tables()
        .forEach((table, list) -> {
          ArrayNode out = tables.putArray(table);
          for (Map<String, Object> row : list) {
            ObjectNode r = out.addObject();
            row.forEach((column, value) -> {
              switch (value) {
                case null -> r.putNull(column);
                case Long l -> r.put(column, l);
                default -> r.put(column, value.toString());
              }
            });
          }
        });
    return o;
  }

  /** The keys that may be told where the agreement went: its parties' (and evaluators'). */
  static Set<String> readers(AgreementRow row) {
    Agreement agreement =
        AgreementDocuments.readStored(
            row.document(), row.state(), ServerFacts.fromStored(row.facts()));
    List<Party> parties = new ArrayList<>();
    parties.add(agreement.terms().parties().client());
    parties.add(agreement.terms().parties().provider());
    parties.addAll(agreement.evaluators());
    Set<String> keys = new LinkedHashSet<>();
    for (Party p : parties) {
      p.key().ifPresent(k -> keys.add(k.toBase64Url()));
    }
    return keys;
  }
}
