-- Request nonces kept as 16-byte digests (issue 59: bytes per agreement, sqlite). Keep in step with
-- ../postgresql/V025__request_nonce_digests.sql.
--
-- A row of V008 held the key id (43 characters) and the nonce (22 or more) in the table and again
-- in its primary key's index: about 180 bytes per signed write, six per lifecycle. All a row has
-- to answer is "was this (key id, nonce) pair used", so it keeps the first 16 bytes of
-- SHA-256(len(key id) as 4 bytes big-endian || key id || nonce), UTF-8, as its whole key
-- (NonceRegistry.fingerprint; asa_nonce_digest is that function, registered on the connection that
-- migrates). 128 bits: two pairs collide by chance about never, and making another party's pair
-- collide is a second preimage. A table without rowid: the key is the row.
--
-- The pairs recorded before this version move over as digests, so a request accepted just before
-- the upgrade is still refused as a replay after it.
DROP INDEX request_nonces_by_expiry;
ALTER TABLE request_nonces RENAME TO request_nonces_v008;
CREATE TABLE request_nonces (
  digest     BLOB    NOT NULL PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX request_nonces_by_expiry ON request_nonces (expires_at);
INSERT INTO request_nonces (digest, expires_at)
  SELECT asa_nonce_digest(key_id, nonce), expires_at FROM request_nonces_v008 WHERE true
  ON CONFLICT (digest) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at);
DROP TABLE request_nonces_v008;
