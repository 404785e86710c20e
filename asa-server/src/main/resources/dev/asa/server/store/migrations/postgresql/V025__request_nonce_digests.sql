-- Request nonces kept as 16-byte digests (issue 59: bytes per agreement, postgresql). Keep in step
-- with ../sqlite/V025__request_nonce_digests.sql, which says why.
--
-- The digest is the first 16 bytes of SHA-256(len(key id) as 4 bytes big-endian || key id ||
-- nonce), UTF-8, as NonceRegistry.fingerprint computes it (int4send writes the 4 bytes).
-- The pairs recorded before this version move over as digests.
DROP INDEX request_nonces_by_expiry;
ALTER TABLE request_nonces RENAME TO request_nonces_v008;
ALTER TABLE request_nonces_v008 RENAME CONSTRAINT request_nonces_pkey TO request_nonces_v008_pkey;
CREATE TABLE request_nonces (
  digest     BYTEA  NOT NULL PRIMARY KEY,
  expires_at BIGINT NOT NULL
);
CREATE INDEX request_nonces_by_expiry ON request_nonces (expires_at);
INSERT INTO request_nonces (digest, expires_at)
  SELECT substring(
           sha256(int4send(octet_length(convert_to(key_id, 'UTF8')))
                  || convert_to(key_id, 'UTF8') || convert_to(nonce, 'UTF8'))
           FROM 1 FOR 16),
         max(expires_at)
    FROM request_nonces_v008
   GROUP BY 1;
DROP TABLE request_nonces_v008;
