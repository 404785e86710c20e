-- Transactions this server signs on a chain (issue 20: the erc8183 binding's complete, reject and
-- claimRefund), one per outbox message. Each is signed once and stored here before it is broadcast,
-- so a restart re-broadcasts the same bytes (the same hash, the same nonce) and can never send a
-- second transaction for one instruction. A nonce is used once per sender and chain. The last
-- observation (status, block, confirmations) is what GET /agreements/{id}/escrow shows.
-- Keep in step with ../postgresql/V018__chain_transactions.sql.
CREATE TABLE chain_transactions (
  message_id    TEXT PRIMARY KEY,
  agreement_id  TEXT NOT NULL,
  chain_id      BIGINT NOT NULL,
  sender        TEXT NOT NULL,
  nonce         BIGINT NOT NULL,
  call          TEXT NOT NULL,
  tx_hash       TEXT NOT NULL,
  raw_tx        TEXT NOT NULL,
  signed_at     BIGINT NOT NULL,
  status        TEXT NOT NULL,
  block_number  BIGINT,
  confirmations INTEGER NOT NULL DEFAULT 0,
  observed_at   BIGINT NOT NULL,
  UNIQUE (chain_id, sender, nonce)
);
CREATE INDEX chain_transactions_agreement ON chain_transactions (agreement_id);
