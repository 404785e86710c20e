-- The evaluator registry and the operator's canary set (issue 14, PostgreSQL). Keep in step with
-- ../sqlite/V012__evaluator_registry.sql.
--
-- evaluators: one row per registered evaluator, keyed by its Ed25519 key (base64url): the key that
-- signed the registration, so an evaluator can only ever register itself. profile is the
-- registration as EvaluatorProfile.toJson writes it. standing is the operator's word (suspended
-- with a note, or active); the track record is the server's: counts in columns, the calibration
-- as exact sums (Calibration.toStored), so that updates add up without rounding. version counts
-- updates; an update first bumps it, which locks the row until its transaction ends, so two
-- concurrent updates of one evaluator never lose one another.
CREATE TABLE evaluators (
  key_id        TEXT    NOT NULL PRIMARY KEY,
  profile       TEXT    NOT NULL,
  standing      TEXT    NOT NULL CHECK (standing IN ('active', 'suspended')),
  standing_note TEXT,
  registered_at BIGINT  NOT NULL,
  updated_at    BIGINT  NOT NULL,
  evaluations   INTEGER NOT NULL CHECK (evaluations >= 0),
  canary_tasks  INTEGER NOT NULL CHECK (canary_tasks >= 0),
  canary_passes INTEGER NOT NULL CHECK (canary_passes >= 0 AND canary_passes <= canary_tasks),
  calibration   TEXT    NOT NULL,
  version       BIGINT  NOT NULL,
  CHECK ((standing = 'suspended' AND standing_note IS NOT NULL)
      OR (standing = 'active' AND standing_note IS NULL))
);
-- The service types each evaluator evaluates, so that the pool of one type is one indexed query.
CREATE TABLE evaluator_service_types (
  service_type TEXT NOT NULL,
  key_id       TEXT NOT NULL REFERENCES evaluators (key_id),
  PRIMARY KEY (service_type, key_id)
);
-- Rotation: per provider, the evaluators that assessed its latest delivery and how many of its
-- deliveries in a row each has assessed. Another evaluator's assessment of that provider removes
-- the row. Unregistered evaluators (named in an agreement) have no row but still end the streaks.
CREATE TABLE evaluator_streaks (
  provider_key  TEXT    NOT NULL,
  evaluator_key TEXT    NOT NULL REFERENCES evaluators (key_id),
  streak        INTEGER NOT NULL CHECK (streak >= 1),
  PRIMARY KEY (provider_key, evaluator_key)
);
CREATE INDEX evaluator_streaks_by_evaluator ON evaluator_streaks (evaluator_key);
-- One row per provider whose deliveries were assessed. Recording an assessment writes this row
-- first, which serialises the assessments of one provider: without it, two evaluators assessing
-- the same provider at once could each miss the other's new streak and both keep one.
CREATE TABLE provider_assessments (
  provider_key     TEXT   NOT NULL PRIMARY KEY,
  assessments      BIGINT NOT NULL,
  last_assessed_at BIGINT NOT NULL
);
-- The operator's canary set (asa serve --canaries FILE, PUT /admin/canaries): one row, replaced
-- whole. canaries is the JSON array of Canary.toJson; it is secret (an evaluator that could read it
-- would recognise canaries among its tasks) and never served. version counts replacements, so a
-- node notices another node's replacement with one small query.
CREATE TABLE canary_sets (
  id           INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
  canaries     TEXT    NOT NULL,
  canary_count INTEGER NOT NULL,
  digest       TEXT    NOT NULL,
  loaded_at    BIGINT  NOT NULL,
  loaded_by    TEXT    NOT NULL,
  version      BIGINT  NOT NULL
);
