package dev.asa.server.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of sealed Shadow Scoring criteria (V007), used by {@link JdbcAgreementStore} inside its
 * transactions.
 */
final class SealTables {
  private SealTables() {}

  private static final String COLUMNS =
      "id, agreement_id, sealer_key, commitment, seal, envelope, hardening, validation, created_at, revealed_at";
  private static final String INSERT =
      "INSERT INTO seals (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String SELECT_BY_ID = "SELECT " + COLUMNS + " FROM seals WHERE id = ?";
  private static final String SELECT_BY_AGREEMENT =
      "SELECT " + COLUMNS + " FROM seals WHERE agreement_id = ?";
  private static final String UPDATE_VALIDATION = "UPDATE seals SET validation = ? WHERE id = ?";
  private static final String REVEAL =
      "UPDATE seals SET revealed_at = ? WHERE id = ? AND revealed_at IS NULL";
  private static final String INSERT_READ =
      "INSERT INTO seal_reads (seal_id, caller, route, at) VALUES (?, ?, ?, ?)";
  private static final String SELECT_READS =
      "SELECT seal_id, caller, route, at FROM seal_reads WHERE seal_id = ? ORDER BY at";

  static void put(Statements sql, SealRow row) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT);
    s.setString(1, row.id());
    nullable(s, 2, row.agreementId());
    s.setString(3, row.sealerKey());
    s.setString(4, row.commitment());
    s.setString(5, row.seal());
    s.setString(6, row.envelope());
    s.setString(7, row.hardening());
    nullable(s, 8, row.validation());
    s.setLong(9, row.createdAt().toEpochMilli());
    if (row.revealedAt() == null) {
      s.setNull(10, Types.BIGINT);
    } else {
      s.setLong(10, row.revealedAt().toEpochMilli());
    }
    JdbcAgreementStore.executeUpdate(
        s,
        () ->
            "a seal with id "
                + row.id()
                + " (or for agreement "
                + row.agreementId()
                + ") already exists");
  }

  static void setValidation(Statements sql, Write.SetSealValidation set) throws SQLException {
    PreparedStatement s = sql.prepare(UPDATE_VALIDATION);
    s.setString(1, set.validation());
    s.setString(2, set.sealId());
    if (s.executeUpdate() != 1) {
      throw new IllegalArgumentException("no seal " + set.sealId());
    }
  }

  /** Sets revealed_at once; a seal already revealed keeps its first time. */
  static void reveal(Statements sql, Write.RevealSeal reveal) throws SQLException {
    PreparedStatement s = sql.prepare(REVEAL);
    s.setLong(1, reveal.at().toEpochMilli());
    s.setString(2, reveal.sealId());
    s.executeUpdate();
  }

  static void logRead(Statements sql, Write.LogSealRead read) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT_READ);
    s.setString(1, read.sealId());
    s.setString(2, read.caller());
    s.setString(3, read.route());
    s.setLong(4, read.at().toEpochMilli());
    s.executeUpdate();
  }

  static Optional<SealRow> byId(Statements sql, String id) throws SQLException {
    return one(sql.prepare(SELECT_BY_ID), id);
  }

  static Optional<SealRow> byAgreement(Statements sql, String agreementId) throws SQLException {
    return one(sql.prepare(SELECT_BY_AGREEMENT), agreementId);
  }

  static List<SealRead> reads(Statements sql, String sealId) throws SQLException {
    PreparedStatement s = sql.prepare(SELECT_READS);
    s.setString(1, sealId);
    List<SealRead> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(
            new SealRead(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                Instant.ofEpochMilli(rs.getLong(4))));
      }
    }
    return out;
  }

  private static Optional<SealRow> one(PreparedStatement s, String value) throws SQLException {
    s.setString(1, value);
    try (ResultSet rs = s.executeQuery()) {
      if (!rs.next()) {
        return Optional.empty();
      }
      long revealed = rs.getLong(10);
      Instant revealedAt = rs.wasNull() ? null : Instant.ofEpochMilli(revealed);
      return Optional.of(
          new SealRow(
              rs.getString(1),
              rs.getString(2),
              rs.getString(3),
              rs.getString(4),
              rs.getString(5),
              rs.getString(6),
              rs.getString(7),
              rs.getString(8),
              Instant.ofEpochMilli(rs.getLong(9)),
              revealedAt));
    }
  }

  private static void nullable(PreparedStatement s, int index, String value) throws SQLException {
    if (value == null) {
      s.setNull(index, Types.VARCHAR);
    } else {
      s.setString(index, value);
    }
  }
}
