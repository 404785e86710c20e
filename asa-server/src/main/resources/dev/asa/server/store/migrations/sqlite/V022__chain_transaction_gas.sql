-- The gas a mined transaction used, from its receipt (issue 58): an ERC-8183 settlement split over
-- several jobs is one transaction per job, and the escrow view reports what each cost and their
-- total. Null until a receipt is seen. Keep in step with
-- ../postgresql/V022__chain_transaction_gas.sql.
ALTER TABLE chain_transactions ADD COLUMN gas_used BIGINT;
