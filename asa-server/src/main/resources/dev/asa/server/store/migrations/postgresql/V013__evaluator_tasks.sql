-- The evaluator work queue (issue 14, PostgreSQL). Keep in step with
-- ../sqlite/V013__evaluator_tasks.sql.
--
-- One row per task an external evaluator was given: the real work of an agreement's delivery, or a
-- canary (a known-answer task from the operator's canary set) given beside it or, for a newly
-- registered evaluator, on its own (agreement_id NULL). Both look the same to the evaluator; only
-- this table knows which is which, and it is never served.
--
-- content is what the evaluator is shown (request, deliverable, criteria), and for a canary the
-- whole canary (known scores included); answer is the evaluator_result it submitted, held until
-- the tasks of its delivery settle together. Both are erased (NULL) when the task ends, as a
-- verification erases its deliverable; outcome keeps what became of it.
--
-- scheduled marks a real task that counts in the evaluator's canary schedule (its agreement has
-- canary tasks enabled); real_before is, for a scheduled canary, how many such real tasks the
-- evaluator had been given when the canary was: the counters CanarySchedule decides from.
CREATE TABLE evaluator_tasks (
  id            TEXT    NOT NULL PRIMARY KEY,
  evaluator_key TEXT    NOT NULL,
  agreement_id  TEXT,
  delivery      INTEGER,
  kind          TEXT    NOT NULL CHECK (kind IN ('real', 'canary')),
  canary_id     TEXT,
  service_type  TEXT    NOT NULL,
  scheduled     INTEGER NOT NULL CHECK (scheduled IN (0, 1)),
  real_before   BIGINT,
  content       TEXT,
  answer        TEXT,
  status        TEXT    NOT NULL
    CHECK (status IN ('open', 'answered', 'settled', 'expired', 'voided', 'withdrawn')),
  outcome       TEXT,
  created_at    BIGINT  NOT NULL,
  deadline_at   BIGINT  NOT NULL,
  answered_at   BIGINT,
  ended_at      BIGINT,
  CHECK ((kind = 'canary') = (canary_id IS NOT NULL)),
  CHECK ((agreement_id IS NULL) = (delivery IS NULL)),
  CHECK (agreement_id IS NOT NULL OR kind = 'canary')
);
CREATE INDEX evaluator_tasks_by_evaluator ON evaluator_tasks (evaluator_key, status, deadline_at);
CREATE INDEX evaluator_tasks_by_delivery ON evaluator_tasks (agreement_id, delivery);
CREATE INDEX evaluator_tasks_schedule ON evaluator_tasks (evaluator_key, kind, scheduled);
