-- A transaction stuck for its fee is replaced by one with the same nonce and a higher gas price
-- (issue 20): both cannot be mined, since they share the nonce. The hashes it replaced are kept,
-- comma-separated, oldest first, so a receipt for any of them is found. Keep in step with
-- ../sqlite/V019__chain_transaction_replacements.sql.
ALTER TABLE chain_transactions ADD COLUMN replaced_hashes TEXT NOT NULL DEFAULT '';
