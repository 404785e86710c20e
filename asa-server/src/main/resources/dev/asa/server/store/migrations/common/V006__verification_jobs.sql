-- Verifications run by the server's engine (POST /verifications, and agreement verification
-- with semantic depth). A job holds the deliverable's content only until it finishes: finishing
-- sets content to NULL in the same transaction that stores the result, so only the digest stays.
-- request_key makes a replayed request find its first job instead of starting a second one.
CREATE TABLE verification_jobs (
  id               TEXT    NOT NULL PRIMARY KEY,
  request_key      TEXT    NOT NULL UNIQUE,
  agreement_id     TEXT    REFERENCES agreements (id),
  deliverable_hash TEXT    NOT NULL,
  caller           TEXT    NOT NULL,
  request          TEXT    NOT NULL,
  content          TEXT,
  status           TEXT    NOT NULL,
  stage            TEXT,
  done_steps       INTEGER NOT NULL,
  total_steps      INTEGER NOT NULL,
  error            TEXT,
  created_at       BIGINT  NOT NULL,
  updated_at       BIGINT  NOT NULL,
  deadline_at      BIGINT  NOT NULL
);
CREATE INDEX verification_jobs_unfinished ON verification_jobs (status, created_at);
