/**
 * Chain of Consciousness (CoC) provenance chains as pure code (whitepaper section 9.1): the entry
 * format of the public reference implementation, its hashes, a streaming verifier that names the
 * entry that breaks, and the anchor entry ASA hands a party to append to its own chain.
 *
 * <p>CoC hashes are bare lowercase hex SHA-256 over UTF-8 text ({@code data_hash} over the entry's
 * {@code data}, {@code entry_hash} over {@code seq|ts|type|agent|data_hash|prev_hash}); ASA's are
 * {@code sha256:}-prefixed, usually over JCS. The two meet only in {@link CocHashes}: a CoC hash
 * becomes an ASA {@link dev.asa.crypto.Digest} of the same 32 bytes, nothing is re-hashed.
 */
package dev.asa.coc;
