-- Timers keyed by agreement, fewer index entries per change (issue 59, postgresql). Keep in step
-- with ../sqlite/V028__fewer_pages_per_change.sql, whose tables without rowid PostgreSQL has no use
-- for (a heap table always has its key's index beside it).
--
-- Timers keyed (agreement_id, kind), as on SQLite (their id, agreement_id:kind, kept for the
-- record): an agreement's timers are one range of the key, so clearing them as it ends (and listing
-- them) no longer reads every live agreement's.
ALTER TABLE timers DROP CONSTRAINT timers_pkey;
ALTER TABLE timers ADD PRIMARY KEY (agreement_id, kind);

-- Only canaries are looked up by service type and canary (TaskStore's CANARIES_OF_TYPE and
-- CANARIES_SERVED, each with kind = 'canary' as a literal): real tasks, one per delivery, no longer
-- add an entry to this index.
DROP INDEX evaluator_tasks_canaries_served;
CREATE INDEX evaluator_tasks_canaries_served ON evaluator_tasks (service_type, canary_id)
  WHERE kind = 'canary';
