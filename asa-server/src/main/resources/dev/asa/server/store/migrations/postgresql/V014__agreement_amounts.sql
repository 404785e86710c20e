-- The escrowed amount and its currency as columns (PostgreSQL). Keep in step with
-- ../sqlite/V014__agreement_amounts.sql.
-- Listings filter and sum agreements by amount and currency; reading them out of every document
-- would parse each one. amount is decimal text, exactly as ledger_entries.amount (queries cast it
-- to NUMERIC to compare or sum); both stay NULL for an agreement without payment terms. From now on
-- the server writes them with every change; existing rows take them from their document (a TEXT
-- column, hence the jsonb cast).
ALTER TABLE agreements ADD COLUMN amount TEXT;
ALTER TABLE agreements ADD COLUMN currency TEXT;
UPDATE agreements
   SET amount = document::jsonb #>> '{escrow,payment,amount}',
       currency = document::jsonb #>> '{escrow,payment,currency}'
 WHERE jsonb_typeof(document::jsonb #> '{escrow,payment,amount}') IN ('string', 'number')
   AND jsonb_typeof(document::jsonb #> '{escrow,payment,currency}') = 'string';
