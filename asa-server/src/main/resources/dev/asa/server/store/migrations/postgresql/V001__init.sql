-- ASA store schema, version 1 (PostgreSQL). Keep in step with ../sqlite/V001__init.sql.
-- Timestamps are epoch milliseconds (UTC) in BIGINT columns: exact, compact, sortable and
-- identical in both dialects. JSON is stored as text, verbatim (canonicalised by the caller;
-- jsonb would reorder keys and break the digests computed over the canonical form).

-- One row per agreement: the current document plus the columns queried by.
-- row_seq is an internal position that only grows; it orders listings ("newest first") and is
-- what list cursors point at.
CREATE TABLE agreements (
  row_seq            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id                 TEXT   NOT NULL UNIQUE,
  version            BIGINT NOT NULL,
  state              TEXT   NOT NULL,
  document           TEXT   NOT NULL,
  service_type       TEXT,
  client_identity    TEXT,
  provider_identity  TEXT,
  evaluator_identity TEXT,
  created_at         BIGINT NOT NULL,
  updated_at         BIGINT NOT NULL
);

-- Who takes part in which agreement: one row per distinct identity per agreement (role lists
-- its roles, e.g. "client" or "client,evaluator"). Listing a party's agreements newest first
-- is a backwards scan of the primary key index, whatever the table size.
CREATE TABLE agreement_parties (
  identity_value TEXT   NOT NULL,
  row_seq        BIGINT NOT NULL,
  agreement_id   TEXT   NOT NULL REFERENCES agreements (id),
  role           TEXT   NOT NULL,
  PRIMARY KEY (identity_value, row_seq)
);

-- The append-only, hash-chained event log. The primary key makes "event N" unique per
-- agreement, so two writers can never both append it.
CREATE TABLE agreement_events (
  agreement_id TEXT   NOT NULL REFERENCES agreements (id),
  seq          BIGINT NOT NULL,
  type         TEXT   NOT NULL,
  actor        TEXT,
  occurred_at  BIGINT NOT NULL,
  payload      TEXT,
  prev_hash    TEXT,
  hash         TEXT   NOT NULL,
  PRIMARY KEY (agreement_id, seq)
);

-- Deliveries, one row per attempt. content is set to NULL once verified; the hash stays.
-- (The old row version is reclaimed by (auto)vacuum.)
CREATE TABLE deliverables (
  agreement_id TEXT    NOT NULL REFERENCES agreements (id),
  attempt      INTEGER NOT NULL,
  content_hash TEXT    NOT NULL,
  content_url  TEXT,
  format       TEXT,
  content      TEXT,
  size_bytes   BIGINT  NOT NULL,
  delivered_at BIGINT  NOT NULL,
  PRIMARY KEY (agreement_id, attempt)
);

-- Verification results; agreement_id is NULL for a standalone verification.
-- row_seq keeps insertion order for results created within the same millisecond.
CREATE TABLE verifications (
  row_seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id               TEXT   NOT NULL UNIQUE,
  agreement_id     TEXT   REFERENCES agreements (id),
  deliverable_hash TEXT,
  result           TEXT   NOT NULL,
  created_at       BIGINT NOT NULL
);

CREATE INDEX verifications_by_agreement ON verifications (agreement_id, created_at, row_seq);

-- Remembered responses to POSTs with an Idempotency-Key; scope = caller + method + route.
CREATE TABLE idempotency_keys (
  scope         TEXT    NOT NULL,
  key           TEXT    NOT NULL,
  request_hash  TEXT    NOT NULL,
  status        INTEGER NOT NULL,
  response_body TEXT,
  created_at    BIGINT  NOT NULL,
  PRIMARY KEY (scope, key)
);
