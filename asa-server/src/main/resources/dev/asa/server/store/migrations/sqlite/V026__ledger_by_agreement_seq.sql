-- The ledger keyed by the agreement's integer row_seq (issue 59: bytes per agreement, sqlite). Keep
-- in step with ../postgresql/V026__ledger_by_agreement_seq.sql.
--
-- A leg of V005 held its transfer id ("<agreement id>/<kind>", about 40 characters) and the
-- agreement id (about 31) in the row, in the primary key's index and in an index by agreement:
-- about 310 bytes a leg, six legs a lifecycle. The transfer id says nothing the agreement and the
-- kind do not, so a leg is now keyed by (agreement_seq, kind, leg), the agreement's row_seq first:
-- that key is the row (a table without rowid), serves the reads by agreement and the foreign key,
-- and grows at its end as agreements are created, so its pages fill. The transfer id is still what
-- the ledger shows: the agreement id, a slash and the kind, put together when read. One transfer
-- of each kind per agreement, as before: the key refuses a second.
--
-- The index by account leaves out an agreement's escrow and collateral accounts: each belongs to
-- one agreement (Transfer refuses a transfer that touches another agreement's) and is read through
-- its key, so a third of a lifecycle's legs (the hold into escrow, the release or refund out of
-- it) take no index entry. Parties' and external accounts are read by account as before. Queries
-- repeat the index's condition, which is how both databases know they may use it.
DROP INDEX ledger_by_account;
DROP INDEX ledger_by_agreement;
ALTER TABLE ledger_entries RENAME TO ledger_entries_v005;
CREATE TABLE ledger_entries (
  agreement_seq INTEGER NOT NULL REFERENCES agreements (row_seq),
  kind          TEXT    NOT NULL,
  leg           INTEGER NOT NULL,
  account       TEXT    NOT NULL,
  direction     TEXT    NOT NULL,
  currency      TEXT    NOT NULL,
  amount        TEXT    NOT NULL,
  at            BIGINT  NOT NULL,
  PRIMARY KEY (agreement_seq, kind, leg)
) WITHOUT ROWID;
INSERT INTO ledger_entries (agreement_seq, kind, leg, account, direction, currency, amount, at)
  SELECT a.row_seq, e.kind, e.leg, e.account, e.direction, e.currency, e.amount, e.at
    FROM ledger_entries_v005 e JOIN agreements a ON a.id = e.agreement_id;
DROP TABLE ledger_entries_v005;
CREATE INDEX ledger_by_account ON ledger_entries (account, at)
  WHERE account NOT LIKE 'escrow:%' AND account NOT LIKE 'collateral:%';
