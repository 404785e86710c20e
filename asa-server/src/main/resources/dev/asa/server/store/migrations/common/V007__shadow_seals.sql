-- Sealed Shadow Scoring criteria (issue 7). envelope holds the criteria and the nonce: it is
-- secret until revealed_at is set (after verification); only the sealer and the operator read it
-- before then, and every read of it is logged in seal_reads. seal is the public part (statement,
-- signature, signer), commitment the sha256 it makes. agreement_id is NULL for a standalone seal
-- (POST /shadow/seals). validation holds the server's validation state (first validation of a
-- hardening cycle, the latest report) as JSON.
CREATE TABLE seals (
  id           TEXT   NOT NULL PRIMARY KEY,
  agreement_id TEXT   UNIQUE REFERENCES agreements (id),
  sealer_key   TEXT   NOT NULL,
  commitment   TEXT   NOT NULL,
  seal         TEXT   NOT NULL,
  envelope     TEXT   NOT NULL,
  hardening    TEXT   NOT NULL,
  validation   TEXT,
  created_at   BIGINT NOT NULL,
  revealed_at  BIGINT
);
CREATE TABLE seal_reads (
  seal_id TEXT   NOT NULL REFERENCES seals (id),
  caller  TEXT   NOT NULL,
  route   TEXT   NOT NULL,
  at      BIGINT NOT NULL
);
CREATE INDEX seal_reads_by_seal ON seal_reads (seal_id, at);
