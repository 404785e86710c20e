-- Each evaluator's track record over time (issue 18, PostgreSQL). Keep in step with
-- ../sqlite/V015__evaluator_record_history.sql.
--
-- One row per change of an evaluator's canary results or calibration (an update of its record),
-- written in the same transaction as the change: the counts and the calibration as they stood
-- after it. version is the evaluators row's version after that update, so rows of one evaluator
-- are ordered and never duplicated. calibration_deviation is the mean absolute deviation as
-- decimal text (NULL before any sample). Suspensions and reinstatements are not record changes.
CREATE TABLE evaluator_record_history (
  key_id                TEXT    NOT NULL REFERENCES evaluators (key_id),
  version               BIGINT  NOT NULL,
  at                    BIGINT  NOT NULL,
  evaluations           INTEGER NOT NULL CHECK (evaluations >= 0),
  canary_tasks          INTEGER NOT NULL CHECK (canary_tasks >= 0),
  canary_passes         INTEGER NOT NULL CHECK (canary_passes >= 0 AND canary_passes <= canary_tasks),
  calibration_samples   INTEGER NOT NULL CHECK (calibration_samples >= 0),
  calibration_deviation TEXT,
  PRIMARY KEY (key_id, version)
);
