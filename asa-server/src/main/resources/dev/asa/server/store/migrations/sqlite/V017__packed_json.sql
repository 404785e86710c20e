-- The stored JSON is packed from now on (issue 19: storage per agreement): documents, facts,
-- verification results and event actors and payloads are deflated against a preset dictionary
-- (see PackedText) and written as BLOBs. SQLite keeps whatever a column is given, so the schema
-- does not change: text already there is read as it is (the first byte of text is never a
-- dictionary number) and rows are packed when they are next written. This script only records
-- the step, to keep the versions of both dialects in step with ../postgresql/V017__packed_json.sql.
SELECT 1;
