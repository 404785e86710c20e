-- An ended agreement's event log in one packed record (issue 59: bytes per closed agreement,
-- postgresql). Keep in step with ../sqlite/V024__agreement_trails.sql.
--
-- When a commit leaves an agreement CLOSED, REJECTED or EXPIRED, its events move from their rows in
-- agreement_events into one row here, as one packed JSON text (see EventTrail): seven rows of about
-- 310 bytes and their index entries become one value of about 1 KB. Every field of every event is
-- kept as it was, so the chain still verifies from the stored rows alone. Agreements that ended
-- before this version keep their rows; both are read.
--
-- Keyed by the agreement's integer row_seq, not its text id (no long key repeated in an index);
-- not a column of agreements, whose rows are updated at every change (each update would copy the
-- trail into a new row version).
CREATE TABLE agreement_trails (
  agreement_seq BIGINT PRIMARY KEY REFERENCES agreements (row_seq),
  trail         bytea  NOT NULL
);
