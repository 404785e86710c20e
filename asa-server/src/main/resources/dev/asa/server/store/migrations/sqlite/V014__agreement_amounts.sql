-- The escrowed amount and its currency as columns (SQLite). Keep in step with
-- ../postgresql/V014__agreement_amounts.sql.
-- Listings filter and sum agreements by amount and currency; reading them out of every document
-- would parse each one. amount is decimal text, exactly as ledger_entries.amount (queries cast it
-- to NUMERIC to compare or sum); both stay NULL for an agreement without payment terms. From now on
-- the server writes them with every change; existing rows take them from their document.
ALTER TABLE agreements ADD COLUMN amount TEXT;
ALTER TABLE agreements ADD COLUMN currency TEXT;
UPDATE agreements
   SET amount = CAST(json_extract(document, '$.escrow.payment.amount') AS TEXT),
       currency = json_extract(document, '$.escrow.payment.currency')
 WHERE json_type(document, '$.escrow.payment.amount') IN ('text', 'integer', 'real')
   AND json_type(document, '$.escrow.payment.currency') = 'text';
