-- The (keyid, nonce) pairs of accepted signed requests (issue 12), so that a captured request is
-- refused after a restart and on every node sharing this database. The primary key makes the
-- insert the decision: of two nodes recording the same pair at once, one wins. expires_at is the
-- last epoch second the pair must be remembered (created + 300 s, at most now + 600 s); later rows
-- are pruned, and a row past it may be taken over by the same pair again.
CREATE TABLE request_nonces (
  key_id     TEXT   NOT NULL,
  nonce      TEXT   NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (key_id, nonce)
);
CREATE INDEX request_nonces_by_expiry ON request_nonces (expires_at);
