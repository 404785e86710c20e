package dev.asa.server.store.db;

/**
 * A mutating request's nonce was found already used when its first transaction recorded it: another
 * node took the request first. The transaction, and with it every effect of the request, was rolled
 * back; answered 401 {@code replayed_nonce}, as a replay to the same node is.
 */
public final class NonceReplayedException extends RuntimeException {
  NonceReplayedException(String keyId) {
    super("this nonce was already used by key " + keyId + "; sign each request afresh");
  }
}
