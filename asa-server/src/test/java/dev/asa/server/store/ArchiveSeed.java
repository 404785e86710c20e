package dev.asa.server.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import dev.asa.lifecycle.Event;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.agreements.EventTrail;
import dev.asa.server.store.db.PackedText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Many ended agreements, fast: copies one agreement that really went through its lifecycle (its
 * row, parties, ledger entries, results, deliverables' metadata, escrow authorization, outbox
 * messages) under new ids, each with its event chain computed again for its own id and packed as
 * the server packs an ended agreement's log, so every copy verifies as the original does. Written
 * with plain JDBC in transactions of 500 copies, each table's rows sent as one batch (creating
 * 10,000 agreements one request at a time would take minutes, and one round trip per row took over
 * a minute for 2,000 on PostgreSQL).
 */
public final class ArchiveSeed {
  private ArchiveSeed() {}

  /** The tables copied besides the agreement and its events, with the column each copy renames. */
  private static final Map<String, String> CHILDREN =
      Map.of(
          "verifications", "id",
          "deliverables", "",
          "escrow_authorizations", "",
          "outbox", "id");

  /**
   * Copies {@code source} {@code n} times as {@code source-c<i>}, each having ended at {@code
   * endedAt}.
   *
   * @return the copies' ids
   */
  public static List<String> copies(Connection c, String source, int n, Instant endedAt)
      throws SQLException {
    c.setAutoCommit(false);
    Map<String, Object> agreement = one(c, "SELECT * FROM agreements WHERE id = ?", source);
    agreement.remove("row_seq");
    List<Map<String, Object>> parties =
        all(c, "SELECT * FROM agreement_parties WHERE agreement_id = ?", source);
    List<EventRecord> events = new ArrayList<>();
    for (Map<String, Object> t :
        all(
            c,
            "SELECT t.trail FROM agreement_trails t JOIN agreements a"
                + " ON a.row_seq = t.agreement_seq WHERE a.id = ?",
            source)) { // ended since V024: its log packed into one row
      events.addAll(EventTrail.unpack(source, (byte[]) t.get("trail")));
    }
    for (Map<String, Object> e :
        all(c, "SELECT * FROM agreement_events WHERE agreement_id = ? ORDER BY seq", source)) {
      events.add(
          new EventRecord(
              source,
              ((Number) e.get("seq")).longValue(),
              (String) e.get("type"),
              text(e.get("actor")),
              Instant.ofEpochMilli(((Number) e.get("occurred_at")).longValue()),
              text(e.get("payload")),
              null,
              "sha256:recomputed-below"));
    }
    // The ledger's legs name their agreement by row_seq (V026): each copy's are its own.
    List<Map<String, Object>> legs =
        all(
            c,
            "SELECT l.kind, l.leg, l.account, l.direction, l.currency, l.amount, l.at"
                + " FROM ledger_entries l JOIN agreements a ON a.row_seq = l.agreement_seq"
                + " WHERE a.id = ?",
            source);
    Map<String, List<Map<String, Object>>> children = new LinkedHashMap<>();
    for (String table : CHILDREN.keySet()) {
      List<Map<String, Object>> rows =
          all(c, "SELECT * FROM " + table + " WHERE agreement_id = ?", source);
      rows.forEach(r -> r.remove("row_seq"));
      children.put(table, rows);
    }
    List<String> ids = new ArrayList<>();
    Batches batches = new Batches(c);
    for (int i = 0; i < n; i++) {
      String id = source + "-c" + i;
      ids.add(id);
      Map<String, Object> a = new LinkedHashMap<>(agreement);
      a.put("id", id);
      a.put("created_at", endedAt.toEpochMilli() - 3_600_000);
      a.put("updated_at", endedAt.toEpochMilli());
      // Its events packed into its row, as the server leaves an ended agreement's log.
      List<EventRecord> chained = new ArrayList<>();
      Event previous = null;
      for (EventRecord e : events) {
        Event next =
            Event.append(previous, id, e.type(), json(e.actor()), e.at(), json(e.payload()));
        chained.add(
            new EventRecord(
                id,
                e.seq(),
                e.type(),
                e.actor(),
                e.at(),
                e.payload(),
                next.prevHash(),
                next.hash()));
        previous = next;
      }
      batches.insert("agreements", a);
      batches.add(
          "INSERT INTO agreement_trails (agreement_seq, trail)"
              + " SELECT row_seq, ? FROM agreements WHERE id = ?",
          EventTrail.pack(chained),
          id);
      for (Map<String, Object> p : parties) {
        batches.add(
            "INSERT INTO agreement_parties (identity_value, row_seq, agreement_id, role)"
                + " SELECT ?, row_seq, id, ? FROM agreements WHERE id = ?",
            p.get("identity_value"),
            p.get("role"),
            id);
      }
      for (Map<String, Object> l : legs) {
        batches.add(
            "INSERT INTO ledger_entries (agreement_seq, kind, leg, account, direction, currency,"
                + " amount, at) SELECT row_seq, ?, ?, ?, ?, ?, ?, ? FROM agreements WHERE id = ?",
            l.get("kind"),
            l.get("leg"),
            l.get("account"),
            l.get("direction"),
            l.get("currency"),
            l.get("amount"),
            l.get("at"),
            id);
      }
      for (var table : children.entrySet()) {
        String renamed = CHILDREN.get(table.getKey());
        for (Map<String, Object> r : table.getValue()) {
          Map<String, Object> row = new LinkedHashMap<>(r);
          row.put("agreement_id", id);
          if (!renamed.isEmpty()) {
            row.put(renamed, r.get(renamed) + "-c" + i);
          }
          batches.insert(table.getKey(), row);
        }
      }
      if (i % 500 == 499) {
        batches.send();
        c.commit();
      }
    }
    batches.send();
    c.commit();
    batches.close();
    return ids;
  }

  /**
   * One prepared statement per statement text, its rows sent as a batch. Sent in the order each
   * statement was first used, so an agreement's row is there before the statement that selects it.
   */
  private static final class Batches implements AutoCloseable {
    private final Connection c;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>();

    Batches(Connection c) {
      this.c = c;
    }

    void insert(String table, Map<String, Object> row) throws SQLException {
      String columns = String.join(", ", row.keySet());
      String marks = String.join(", ", row.keySet().stream().map(k -> "?").toList());
      add(
          "INSERT INTO " + table + " (" + columns + ") VALUES (" + marks + ")",
          row.values().toArray());
    }

    void add(String sql, Object... values) throws SQLException {
      PreparedStatement s = statements.get(sql);
      if (s == null) {
        s = c.prepareStatement(sql);
        statements.put(sql, s);
      }
      for (int i = 0; i < values.length; i++) {
        s.setObject(i + 1, values[i]);
      }
      s.addBatch();
    }

    void send() throws SQLException {
      for (PreparedStatement s : statements.values()) {
        s.executeBatch();
      }
    }

    @Override
    public void close() throws SQLException {
      for (PreparedStatement s : statements.values()) {
        s.close();
      }
    }
  }

  private static String text(Object stored) {
    return stored instanceof byte[] b
        ? PackedText.unpack(b)
        : stored == null ? null : stored.toString();
  }

  private static JsonNode json(Object stored) {
    String text =
        stored instanceof byte[] b
            ? PackedText.unpack(b)
            : stored == null ? "null" : stored.toString();
    return Json.parseTrusted(text);
  }

  private static Map<String, Object> one(Connection c, String sql, String id) throws SQLException {
    List<Map<String, Object>> rows = all(c, sql, id);
    if (rows.size() != 1) {
      throw new IllegalArgumentException(rows.size() + " rows for " + sql + " " + id);
    }
    return rows.get(0);
  }

  private static List<Map<String, Object>> all(Connection c, String sql, String id)
      throws SQLException {
    List<Map<String, Object>> rows = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, id);
      try (ResultSet rs = s.executeQuery()) {
        var meta = rs.getMetaData();
        while (rs.next()) {
          Map<String, Object> row = new LinkedHashMap<>();
          for (int i = 1; i <= meta.getColumnCount(); i++) {
            row.put(meta.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT), rs.getObject(i));
          }
          rows.add(row);
        }
      }
    }
    return rows;
  }
}
