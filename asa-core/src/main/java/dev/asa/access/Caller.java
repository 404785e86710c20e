package dev.asa.access;

import dev.asa.crypto.Ed25519PublicKey;
import java.util.Objects;

/**
 * Who is calling, as proven by a request signature: a key, possibly the operator's. The server's
 * own built-in evaluator acts inside the process and is {@link #SERVER}.
 */
public sealed interface Caller {

  Caller SERVER = new Server();

  /** A verified Ed25519 key; {@code operator} when it is the configured operator key. */
  record Key(Ed25519PublicKey key, boolean operator) implements Caller {
    public Key {
      Objects.requireNonNull(key, "key");
    }

    public String keyId() {
      return key.toBase64Url();
    }
  }

  /** The server itself (its built-in evaluator, its timers). */
  record Server() implements Caller {}

  /** The key id for logs and the event log, "server" for the server. */
  default String describe() {
    return switch (this) {
      case Key k -> (k.operator() ? "operator " : "") + k.keyId();
      case Server s -> "server";
    };
  }
}
