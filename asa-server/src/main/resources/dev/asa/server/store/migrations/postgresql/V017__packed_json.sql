-- The stored JSON is packed from now on (issue 19: storage per agreement): documents, facts,
-- verification results, event actors and payloads, and evaluator tasks' content and answers are
-- deflated against a preset dictionary (see PackedText), and the event log's hashes are kept as
-- their 32 bytes (PackedDigest), so their columns hold bytes. The text already there becomes its
-- UTF-8 bytes, which PackedText reads as it is (the first byte of text is never a dictionary
-- number); rows are packed when they are next written. Keep in step with
-- ../sqlite/V017__packed_json.sql.
ALTER TABLE agreements ALTER COLUMN document TYPE bytea USING convert_to(document, 'UTF8');
ALTER TABLE agreements ALTER COLUMN facts DROP DEFAULT;
ALTER TABLE agreements ALTER COLUMN facts TYPE bytea USING convert_to(facts, 'UTF8');
ALTER TABLE agreements ALTER COLUMN facts SET DEFAULT convert_to('{}', 'UTF8');
ALTER TABLE verifications ALTER COLUMN result TYPE bytea USING convert_to(result, 'UTF8');
ALTER TABLE agreement_events ALTER COLUMN actor TYPE bytea USING convert_to(actor, 'UTF8');
ALTER TABLE agreement_events ALTER COLUMN payload TYPE bytea USING convert_to(payload, 'UTF8');
ALTER TABLE evaluator_tasks ALTER COLUMN content TYPE bytea USING convert_to(content, 'UTF8');
ALTER TABLE evaluator_tasks ALTER COLUMN answer TYPE bytea USING convert_to(answer, 'UTF8');
ALTER TABLE agreement_events ALTER COLUMN prev_hash TYPE bytea USING convert_to(prev_hash, 'UTF8');
ALTER TABLE agreement_events ALTER COLUMN hash TYPE bytea USING convert_to(hash, 'UTF8');
