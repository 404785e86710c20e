-- Reputation (issue 56, sqlite). Keep in step with ../postgresql/V021__reputation.sql.
--
-- One row per ended agreement and role (provider; the evaluator the terms name) whose
-- result_visibility lets it reach ARP: the only detail reputation keeps (dev.asa.reputation.Outcome).
-- Written in the transaction that ends the agreement. identity_value is the identity in
-- Identities.comparable form; party_key the key the party signed with, since an identity counts only
-- under the key bound to it; composite a decimal string (exact), NULL without a recorded verdict.
CREATE TABLE reputation_outcomes (
  agreement_id TEXT NOT NULL,
  role TEXT NOT NULL,
  identity_scheme TEXT NOT NULL,
  identity_value TEXT NOT NULL,
  party_key TEXT NOT NULL,
  counterparty TEXT NOT NULL,
  ended_at BIGINT NOT NULL,
  delivered INTEGER NOT NULL,
  on_time INTEGER NOT NULL,
  passed INTEGER,
  composite TEXT,
  disputed INTEGER NOT NULL,
  PRIMARY KEY (agreement_id, role)
);
CREATE INDEX reputation_outcomes_subject
  ON reputation_outcomes (identity_scheme, identity_value, ended_at);
--
-- Signals from other ASA servers or ARP issuers the operator trusts (POST /reputation/signals), the
-- latest of each issuer per subject, role and signal_id. body is the signal exactly as received
-- (signature included); value is its value as a decimal string; subject_key the key the issuer says
-- the subject's record belongs to (subject.key; a did:key subject's own key), so one issuer may speak
-- of two agents who write the same name.
CREATE TABLE reputation_signals (
  issuer_key TEXT NOT NULL,
  identity_scheme TEXT NOT NULL,
  identity_value TEXT NOT NULL,
  role TEXT NOT NULL,
  signal_id TEXT NOT NULL,
  subject_key TEXT NOT NULL,
  value TEXT NOT NULL,
  sample_size BIGINT NOT NULL,
  signed_at BIGINT NOT NULL,
  received_at BIGINT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (issuer_key, identity_scheme, identity_value, subject_key, role, signal_id)
);
CREATE INDEX reputation_signals_subject ON reputation_signals (identity_scheme, identity_value);
