-- Canaries nobody can learn (issue 53, postgresql). Keep in step with
-- ../sqlite/V020__canaries_unlearnable.sql.
--
-- The pool serves a service type's canaries in one order, skipping every canary anyone has been given:
-- this index makes reading those (and counting them) cheap.
CREATE INDEX evaluator_tasks_canaries_served ON evaluator_tasks (kind, service_type, canary_id);
--
-- An evaluator's record as shown (GET /evaluators/{key}) is published in batches, not after each
-- answer: a record that moved after every answer told the evaluator which answer was a canary and
-- whether it passed. published holds the figures as last published ({"evaluations",
-- "canary_tasks", "canary_passes", "calibration": Calibration.toStored}; NULL before the first
-- publication, shown as an empty record), published_at when; unpublished counts the record's
-- changes since. The columns evaluations .. calibration stay the live record that the draw and
-- qualification use. From now on evaluator_record_history gets one row per publication.
ALTER TABLE evaluators ADD COLUMN published TEXT;
ALTER TABLE evaluators ADD COLUMN published_at BIGINT;
ALTER TABLE evaluators ADD COLUMN unpublished INTEGER NOT NULL DEFAULT 0;
