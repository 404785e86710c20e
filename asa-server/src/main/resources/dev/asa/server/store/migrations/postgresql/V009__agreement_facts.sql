-- Server facts leave the agreement document (PostgreSQL). Keep in step with ../sqlite/V009__agreement_facts.sql.
-- What the server knows about an agreement (negotiation, escrow, delivery, verification, dispute,
-- settlement...) used to sit in the document's "metadata" member, where a proposal could forge it.
-- It now has a column of its own, written only by the server; the document holds what the parties
-- wrote. agreement_hash never covered metadata, so moving it changes no digest (the hash is JCS over
-- the parsed document, so the key order jsonb gives the rewritten text does not matter either).
ALTER TABLE agreements ADD COLUMN facts TEXT NOT NULL DEFAULT '{}';
UPDATE agreements SET facts = (document::jsonb -> 'metadata')::text, document = (document::jsonb - 'metadata')::text WHERE jsonb_typeof(document::jsonb -> 'metadata') = 'object';
UPDATE agreements SET document = (document::jsonb - 'metadata')::text WHERE jsonb_exists(document::jsonb, 'metadata');
