-- The composite score of a verification in a column of its own (PostgreSQL). Keep in step with
-- ../sqlite/V011__verification_composite.sql.
-- A provider's past scores (dynamic tiers) are read in one query over its agreements and their
-- latest verifications, instead of parsing the facts of each agreement. The score is kept as the
-- exact decimal text the result carries (like the ledger's amounts); existing rows take it from
-- their result, whose json text (not jsonb) keeps the number as written.
ALTER TABLE verifications ADD COLUMN composite TEXT;
UPDATE verifications SET composite = result::json -> 'composite' ->> 'score'
  WHERE json_typeof(result::json -> 'composite' -> 'score') = 'number';
