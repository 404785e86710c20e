package dev.asa.crypto;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Stores an Ed25519 private key in a file, as a JSON Web Key (RFC 8037):
 *
 * <pre>
 * {"kty":"OKP","crv":"Ed25519","d":"&lt;base64url seed&gt;","x":"&lt;base64url public key&gt;"}
 * </pre>
 *
 * <p>A JWK because tools in other languages read it without help. The public key is stored too, so
 * that a damaged or hand-edited file is noticed on {@link #read} instead of producing signatures
 * nobody can verify.
 */
public final class KeyFile {

  private static final Set<OpenOption> CREATE_NEW =
      Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

  private KeyFile() {}

  /**
   * Writes {@code key} to a new file at {@code path}, readable and writable by its owner only where
   * the file system has POSIX permissions.
   *
   * @throws FileAlreadyExistsException if {@code path} exists: a key file is never overwritten,
   *     since that would destroy the only copy of a private key
   * @throws IOException if the file cannot be written
   */
  public static void write(Path path, Ed25519PrivateKey key) throws IOException {
    ObjectNode jwk = Json.object();
    jwk.put("kty", "OKP");
    jwk.put("crv", "Ed25519");
    jwk.put("d", Base64Url.encode(key.seed()));
    jwk.put("x", key.publicKey().toBase64Url());
    byte[] content = (Json.write(jwk) + "\n").getBytes(StandardCharsets.UTF_8);

    SeekableByteChannel channel;
    try {
      channel = Files.newByteChannel(path, CREATE_NEW, ownerOnly(path));
    } catch (FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(
          path.toString(),
          null,
          "refusing to overwrite an existing key file; move it away or choose another path");
    }
    try (channel) {
      ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } catch (IOException e) {
      Files.deleteIfExists(path); // we created it: never leave a half-written key behind
      throw new IOException("could not write key file " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads and checks a key file written by {@link #write} (or any Ed25519 private JWK).
   *
   * @throws IOException if the file cannot be read, or is not a valid Ed25519 private JWK whose
   *     public key matches its private key; the message names the file
   */
  public static Ed25519PrivateKey read(Path path) throws IOException {
    byte[] content = Files.readAllBytes(path);
    JsonNode jwk;
    try {
      jwk = Json.parse(content);
    } catch (JsonProcessingException e) {
      throw corrupt(path, "it is not valid JSON (" + e.getOriginalMessage() + ")");
    }
    if (!jwk.isObject()) {
      throw corrupt(path, "it must hold a JSON object (a JWK)");
    }
    requireMember(path, jwk, "kty", "OKP");
    requireMember(path, jwk, "crv", "Ed25519");
    Ed25519PrivateKey key;
    Ed25519PublicKey stored;
    try {
      key = Ed25519PrivateKey.fromSeed(Base64Url.decode("member \"d\"", text(path, jwk, "d")));
      stored = Ed25519PublicKey.fromBase64Url(text(path, jwk, "x"));
    } catch (IllegalArgumentException e) {
      throw corrupt(path, e.getMessage());
    }
    if (!stored.equals(key.publicKey())) {
      throw corrupt(
          path,
          "its public key \"x\" does not match its private key \"d\"; restore it from a backup");
    }
    return key;
  }

  private static void requireMember(Path path, JsonNode jwk, String name, String expected)
      throws IOException {
    String actual = text(path, jwk, name);
    if (!actual.equals(expected)) {
      throw corrupt(
          path,
          "member \""
              + name
              + "\" is \""
              + actual
              + "\" but an Ed25519 key needs \""
              + expected
              + "\"");
    }
  }

  private static String text(Path path, JsonNode jwk, String name) throws IOException {
    JsonNode value = jwk.get(name);
    if (value == null || !value.isTextual()) {
      throw corrupt(path, "member \"" + name + "\" is missing or not a string");
    }
    return value.textValue();
  }

  private static IOException corrupt(Path path, String why) {
    return new IOException("key file " + path + " is corrupt or not an Ed25519 key file: " + why);
  }

  /** rw------- where the file system knows POSIX permissions; nothing to ask for elsewhere. */
  private static FileAttribute<?>[] ownerOnly(Path path) {
    if (!path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return new FileAttribute<?>[0];
    }
    return new FileAttribute<?>[] {
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
    };
  }
}
