-- Fewer pages written per change (issue 59, sqlite). Keep in step with
-- ../postgresql/V028__fewer_pages_per_change.sql, which keys the timers alike and has the last
-- part.
--
-- A commit writes every page it touched to the WAL, and later once more to the file: a lifecycle
-- wrote about 75 pages, and the commits were an eighth of the server's CPU, most of it copying
-- them. Two tables keyed by text kept their rows in rowid order with a second b-tree for the key,
-- so every insert and delete wrote two pages where one would do. As tables without rowid, the key
-- is the row:
--
-- - agreement_events, keyed (agreement_id, seq): an agreement's events sit together, its log is
--   one range of the key; the rows live only until the agreement ends (packed into its trail).
-- - timers, keyed (agreement_id, kind): a few small rows per live agreement, an agreement's own one
--   range of the key, so clearing them as it ends (and listing them) no longer reads the whole
--   table, every live agreement's timers; id (agreement_id:kind) is kept for the record.
ALTER TABLE agreement_events RENAME TO agreement_events_v001;
CREATE TABLE agreement_events (
  agreement_id TEXT    NOT NULL REFERENCES agreements (id),
  seq          INTEGER NOT NULL,
  type         TEXT    NOT NULL,
  actor        TEXT,
  occurred_at  INTEGER NOT NULL,
  payload      TEXT,
  prev_hash    TEXT,
  hash         TEXT    NOT NULL,
  PRIMARY KEY (agreement_id, seq)
) WITHOUT ROWID;
INSERT INTO agreement_events
  SELECT agreement_id, seq, type, actor, occurred_at, payload, prev_hash, hash
  FROM agreement_events_v001;
DROP TABLE agreement_events_v001;

DROP INDEX timers_due;
ALTER TABLE timers RENAME TO timers_v004;
CREATE TABLE timers (
  id            TEXT    NOT NULL,
  agreement_id  TEXT    NOT NULL REFERENCES agreements (id),
  kind          TEXT    NOT NULL,
  due_at        BIGINT  NOT NULL,
  claimed_by    TEXT,
  claimed_until BIGINT,
  done_at       BIGINT,
  attempts      INTEGER NOT NULL DEFAULT 0,
  last_error    TEXT,
  dead_at       BIGINT,
  PRIMARY KEY (agreement_id, kind)
) WITHOUT ROWID;
CREATE INDEX timers_due ON timers (done_at, due_at);
INSERT INTO timers
  SELECT id, agreement_id, kind, due_at, claimed_by, claimed_until, done_at, attempts, last_error,
         dead_at
  FROM timers_v004;
DROP TABLE timers_v004;

-- Only canaries are looked up by service type and canary (TaskStore's CANARIES_OF_TYPE and
-- CANARIES_SERVED, each with kind = 'canary' as a literal): real tasks, one per delivery, no longer
-- add an entry to this index.
DROP INDEX evaluator_tasks_canaries_served;
CREATE INDEX evaluator_tasks_canaries_served ON evaluator_tasks (service_type, canary_id)
  WHERE kind = 'canary';
