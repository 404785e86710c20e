package dev.asa.signedrequests;

import dev.asa.crypto.Ed25519PublicKey;
import java.time.Instant;
import java.util.Objects;

/**
 * Who signed a request that {@link RequestVerifier} accepted. Authentication only: whether this key
 * may do what the request asks is for the handler to decide.
 *
 * @param key the caller's public key, taken from {@code keyid}
 * @param created when the caller says it signed the request
 * @param nonce the request's nonce, already recorded as used
 */
public record VerifiedCaller(Ed25519PublicKey key, Instant created, String nonce) {

  public VerifiedCaller {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(created, "created");
    Objects.requireNonNull(nonce, "nonce");
  }

  /** The key as unpadded base64url, the form {@code keyid} carries. */
  public String keyId() {
    return key.toBase64Url();
  }
}
