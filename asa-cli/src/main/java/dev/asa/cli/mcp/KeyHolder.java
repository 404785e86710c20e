package dev.asa.cli.mcp;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The key file {@code asa mcp} acts for. It is read when a tool first needs it and read again after
 * a failure, so a file that could not be read at start (a permission not yet granted, a path
 * mistyped in the host's configuration) works once it is fixed, without restarting the agent's
 * host. The private key stays in this object: no message says anything of its content.
 */
final class KeyHolder {

  private final Path file;
  private volatile Ed25519PrivateKey key;

  KeyHolder(Path file) {
    this.file = file;
  }

  /** The key, read now if it was not yet. */
  Ed25519PrivateKey key() {
    Ed25519PrivateKey read = key;
    if (read == null) {
      read = read();
      key = read;
    }
    return read;
  }

  private Ed25519PrivateKey read() {
    try {
      return KeyFile.read(file);
    } catch (NoSuchFileException e) {
      throw unreadable("there is no such file");
    } catch (AccessDeniedException e) {
      throw unreadable("permission denied");
    } catch (IOException e) {
      // A file that reads but does not hold a key: the parser's message could quote what it holds.
      throw unreadable(
          Files.isRegularFile(file) && Files.isReadable(file)
              ? "it does not hold an Ed25519 key (a JWK as 'asa keys new --out FILE' writes)"
              : "it cannot be read");
    }
  }

  private ToolError unreadable(String why) {
    return new ToolError(
        "The key file "
            + file
            + " cannot be used: "
            + why
            + ". Every call is signed with it, so nothing was sent. Fix the file and call again;"
            + " this MCP server keeps running and reads it anew.");
  }
}
