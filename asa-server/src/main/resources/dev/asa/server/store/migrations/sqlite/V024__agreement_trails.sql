-- An ended agreement's event log in one packed record (issue 59: bytes per closed agreement,
-- sqlite). Keep in step with ../postgresql/V024__agreement_trails.sql.
--
-- When a commit leaves an agreement CLOSED, REJECTED or EXPIRED, its events move from their rows in
-- agreement_events into one row here, as one packed JSON text (see EventTrail): seven rows of about
-- 310 bytes and their index entries become one value of about 1 KB. Every field of every event is
-- kept as it was, so the chain still verifies from the stored rows alone. Agreements that ended
-- before this version keep their rows; both are read.
--
-- Keyed by the agreement's integer row_seq, the table's own rowid: no second index, and rows are
-- appended in about the order agreements were created, so pages fill. (Tried first: the trail as a
-- column of the agreement's row. The row then grew by 1.4 KB at its last update, its page split,
-- and the agreements table was 43% empty space: more bytes than the event rows had taken.)
CREATE TABLE agreement_trails (
  agreement_seq INTEGER PRIMARY KEY REFERENCES agreements (row_seq),
  trail         BLOB    NOT NULL
);
