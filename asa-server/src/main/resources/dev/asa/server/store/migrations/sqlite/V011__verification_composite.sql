-- The composite score of a verification in a column of its own (SQLite). Keep in step with
-- ../postgresql/V011__verification_composite.sql.
-- A provider's past scores (dynamic tiers) are read in one query over its agreements and their
-- latest verifications, instead of parsing the facts of each agreement. The score is kept as the
-- exact decimal text the result carries (like the ledger's amounts); existing rows take it from
-- their result: "->" gives a number's json text as written, where json_extract would round it
-- through a double.
ALTER TABLE verifications ADD COLUMN composite TEXT;
UPDATE verifications SET composite = result -> '$.composite.score'
  WHERE json_valid(result) AND json_type(result, '$.composite.score') IN ('integer', 'real');
