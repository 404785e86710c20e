package dev.asa.server;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.server.store.db.StoreUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The server's own Ed25519 key: it signs what the server itself asserts (built-in evaluator
 * results, and later sealed-envelope commitments and webhooks). Generated into the data directory
 * on first start (owner-only permissions) and reused after.
 */
public final class ServerKey {
  public static final String FILE_NAME = "server-key.jwk";

  private ServerKey() {}

  public static Ed25519PrivateKey loadOrCreate(Path dataDir) {
    Path file = dataDir.resolve(FILE_NAME);
    try {
      if (Files.exists(file)) {
        return KeyFile.read(file);
      }
      Files.createDirectories(dataDir);
      Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
      KeyFile.write(file, key);
      return key;
    } catch (IOException e) {
      throw new StoreUnavailableException(
          "cannot read or create the server key " + file.toAbsolutePath() + ": " + e.getMessage(),
          "Check that the data directory is writable, or restore the key file from a backup",
          e);
    }
  }
}
