package dev.asa.cli.mcp;

import dev.asa.client.AsaClient;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import java.net.URI;

/**
 * Whom the tools act for, and where: the holder of the key file, against one ASA server. Every call
 * goes out through the Java SDK as an ordinary signed request, so the tools can do nothing the key
 * holder could not do with the CLI.
 */
final class Caller {

  private final AsaClient unsigned;
  private final KeyHolder keyHolder;

  Caller(AsaClient unsigned, KeyHolder keyHolder) {
    this.unsigned = unsigned;
    this.keyHolder = keyHolder;
  }

  /** A client that signs with the key (read now if it was not yet). */
  AsaClient client() {
    return unsigned.withKey(keyHolder.key());
  }

  /** The key, for the SDK calls that sign something themselves (an agreement_hash). */
  Ed25519PrivateKey key() {
    return keyHolder.key();
  }

  /** The key holder's did:key. */
  String identity() {
    return DidKey.of(key().publicKey());
  }

  /** The key holder's public key as request signatures name it ({@code keyid}). */
  String keyId() {
    return key().publicKey().toBase64Url();
  }

  URI server() {
    return unsigned.server();
  }
}
