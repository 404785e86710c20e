-- Server facts leave the agreement document (SQLite). Keep in step with ../postgresql/V009__agreement_facts.sql.
-- What the server knows about an agreement (negotiation, escrow, delivery, verification, dispute,
-- settlement...) used to sit in the document's "metadata" member, where a proposal could forge it.
-- It now has a column of its own, written only by the server; the document holds what the parties
-- wrote. agreement_hash never covered metadata, so moving it changes no digest.
ALTER TABLE agreements ADD COLUMN facts TEXT NOT NULL DEFAULT '{}';
UPDATE agreements SET facts = json_extract(document, '$.metadata'), document = json_remove(document, '$.metadata') WHERE json_type(document, '$.metadata') = 'object';
UPDATE agreements SET document = json_remove(document, '$.metadata') WHERE json_type(document, '$.metadata') IS NOT NULL;
