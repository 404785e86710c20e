-- The ledger keyed by the agreement's integer row_seq (issue 59: bytes per agreement, postgresql).
-- Keep in step with ../sqlite/V026__ledger_by_agreement_seq.sql, which says why. The transfer id
-- ("<agreement id>/<kind>") is put together when read, and the index by account leaves out an
-- agreement's escrow and collateral accounts, which are read through its key.
DROP INDEX ledger_by_account;
DROP INDEX ledger_by_agreement;
ALTER TABLE ledger_entries RENAME TO ledger_entries_v005;
ALTER TABLE ledger_entries_v005 RENAME CONSTRAINT ledger_entries_pkey TO ledger_entries_v005_pkey;
CREATE TABLE ledger_entries (
  agreement_seq BIGINT NOT NULL REFERENCES agreements (row_seq),
  kind          TEXT   NOT NULL,
  leg           INTEGER NOT NULL,
  account       TEXT   NOT NULL,
  direction     TEXT   NOT NULL,
  currency      TEXT   NOT NULL,
  amount        TEXT   NOT NULL,
  at            BIGINT NOT NULL,
  PRIMARY KEY (agreement_seq, kind, leg)
);
INSERT INTO ledger_entries (agreement_seq, kind, leg, account, direction, currency, amount, at)
  SELECT a.row_seq, e.kind, e.leg, e.account, e.direction, e.currency, e.amount, e.at
    FROM ledger_entries_v005 e JOIN agreements a ON a.id = e.agreement_id;
DROP TABLE ledger_entries_v005;
CREATE INDEX ledger_by_account ON ledger_entries (account, at)
  WHERE account NOT LIKE 'escrow:%' AND account NOT LIKE 'collateral:%';
