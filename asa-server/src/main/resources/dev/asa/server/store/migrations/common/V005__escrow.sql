-- Escrow: a double-entry ledger and a transactional outbox.
--
-- Each transfer is two rows (leg 0 debits "account" of the payer, leg 1 credits the payee), so the
-- ledger balances to zero by construction. transfer_id is "<agreement id>/<kind>": an agreement
-- can be funded, held, released and refunded once each, and the primary key refuses a second
-- release, whatever retries or races happen. Amounts are exact decimal strings.
CREATE TABLE ledger_entries (
  transfer_id  TEXT    NOT NULL,
  leg          INTEGER NOT NULL,
  agreement_id TEXT    NOT NULL REFERENCES agreements (id),
  kind         TEXT    NOT NULL,
  account      TEXT    NOT NULL,
  direction    TEXT    NOT NULL,
  currency     TEXT    NOT NULL,
  amount       TEXT    NOT NULL,
  at           BIGINT  NOT NULL,
  PRIMARY KEY (transfer_id, leg)
);
CREATE INDEX ledger_by_account ON ledger_entries (account, at);
CREATE INDEX ledger_by_agreement ON ledger_entries (agreement_id);

-- Messages to other systems (payment webhooks, x402 settlements, dispute filings), written in the
-- same transaction as the change that causes them and delivered afterwards, at least once, with
-- backoff; the id is the webhook-id the receiver deduplicates on. status: pending, delivered,
-- failed (the other side said it can never succeed). A node claims a due message with a lease.
CREATE TABLE outbox (
  id              TEXT    NOT NULL PRIMARY KEY,
  agreement_id    TEXT    NOT NULL REFERENCES agreements (id),
  kind            TEXT    NOT NULL,
  destination     TEXT    NOT NULL,
  body            TEXT    NOT NULL,
  created_at      BIGINT  NOT NULL,
  status          TEXT    NOT NULL,
  attempts        INTEGER NOT NULL,
  next_attempt_at BIGINT  NOT NULL,
  last_error      TEXT,
  response        TEXT,
  delivered_at    BIGINT,
  claimed_by      TEXT,
  claimed_until   BIGINT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX outbox_by_agreement ON outbox (agreement_id);

-- Payment authorizations captured at funding (an x402 payload), kept apart from the agreement
-- document because the parties and the evaluator can read the document, and whoever holds an
-- authorization could settle it.
CREATE TABLE escrow_authorizations (
  agreement_id TEXT   NOT NULL PRIMARY KEY REFERENCES agreements (id),
  binding      TEXT   NOT NULL,
  body         TEXT   NOT NULL,
  created_at   BIGINT NOT NULL
);
