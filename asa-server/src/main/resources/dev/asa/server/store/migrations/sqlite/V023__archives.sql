-- Archival after retention (issue 57, sqlite). Keep in step with ../postgresql/V023__archives.sql.
--
-- An archive is a JSON Lines file in the server's archive directory; this table is what decides
-- which agreements it holds. Each batch of agreements leaves the hot tables in the transaction that
-- records the file's new committed length (bytes), written and flushed to disk before that
-- transaction commits: bytes past it belong to a batch that did not commit and are cut off before
-- the file grows again. So an agreement is in exactly one place, whatever kill comes when.
-- state: 'writing' until the signed manifest closes the file, then 'complete'.
CREATE TABLE archives (
  name          TEXT   NOT NULL PRIMARY KEY,
  state         TEXT   NOT NULL CHECK (state IN ('writing', 'complete')),
  closed_before BIGINT NOT NULL,
  started_at    BIGINT NOT NULL,
  completed_at  BIGINT,
  agreements    BIGINT NOT NULL,
  bytes         BIGINT NOT NULL,
  file_sha256   TEXT
);
--
-- Where each archived agreement went, so that a read of its id answers 410 and names the archive;
-- parties holds the keys that may be told (the parties', space-separated): to anyone else the id
-- stays unknown, as a live agreement's does.
CREATE TABLE archived_agreements (
  id          TEXT   NOT NULL PRIMARY KEY,
  archive     TEXT   NOT NULL REFERENCES archives (name),
  parties     TEXT   NOT NULL,
  archived_at BIGINT NOT NULL
);
CREATE INDEX archived_agreements_by_archive ON archived_agreements (archive);
