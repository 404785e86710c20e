package dev.asa.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Role;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads what the user points the CLI at, turning every failure into a message that names the input.
 */
final class Inputs {
  private Inputs() {}

  static JsonNode jsonFile(String file) throws CliException {
    return json(file, textFile(file));
  }

  /** A JSON file, or standard input when {@code file} is {@code -}. */
  static JsonNode jsonFileOrStdin(String file, InputStream stdin) throws CliException {
    if (!file.equals("-")) {
      return jsonFile(file);
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .decode(ByteBuffer.wrap(stdin.readAllBytes()))
              .toString();
    } catch (CharacterCodingException e) {
      throw new CliException("standard input is not UTF-8 text");
    } catch (IOException e) {
      throw new CliException("cannot read standard input: " + e.getMessage(), e);
    }
    if (text.isBlank()) {
      throw new CliException("standard input is empty: expected JSON");
    }
    return json("standard input", text);
  }

  private static JsonNode json(String file, String text) throws CliException {
    try {
      return Json.parse(text);
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null
              ? ""
              : " (line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr()
                  + ")";
      throw new CliException(file + " is not valid JSON: " + e.getOriginalMessage() + where);
    }
  }

  static String textFile(String file) throws CliException {
    try {
      return Files.readString(Path.of(file));
    } catch (CharacterCodingException e) {
      throw new CliException(file + " is not UTF-8 text");
    } catch (IOException e) {
      throw fileProblem(file, e);
    }
  }

  static Ed25519PrivateKey keyFile(String file) throws CliException {
    try {
      return KeyFile.read(Path.of(file));
    } catch (IOException e) {
      throw fileProblem(file, e);
    }
  }

  /**
   * A public key as unpadded base64url (as {@code asa keys new} prints it) or as its {@code
   * did:key}.
   */
  static Ed25519PublicKey publicKey(String option, String text) throws UsageException {
    try {
      return text.startsWith("did:") ? DidKey.parse(text) : Ed25519PublicKey.fromBase64Url(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          option + " must be a public key in base64url or a did:key: " + e.getMessage());
    }
  }

  /**
   * A public key from a file: a JWK key file (its {@code x}; the private part is not needed and not
   * kept), or a text file holding a base64url key or a did:key.
   */
  static Ed25519PublicKey publicKeyFile(String option, String file)
      throws UsageException, CliException {
    String text = textFile(file).trim();
    if (text.startsWith("{")) {
      JsonNode jwk = jsonFile(file);
      if (!jwk.path("x").isTextual()) {
        throw new CliException(
            file + " is a JSON file without an \"x\" member: not an Ed25519 key file");
      }
      text = jwk.path("x").asText();
    }
    return publicKey(option, text);
  }

  /**
   * A whole number from {@code min} to {@code max} given to {@code option}, or {@code fallback}
   * when the option is absent.
   */
  static int intValue(String option, String text, int fallback, int min, int max)
      throws UsageException {
    if (text == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(text.strip());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(
        option + " must be a whole number from " + min + " to " + max + ", not '" + text + "'");
  }

  static long nonNegativeLong(String option, String text) throws UsageException {
    try {
      long n = Long.parseLong(text);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through to the usage error
    }
    throw new UsageException(
        option + " takes a whole number of seconds, 0 or more, not '" + text + "'");
  }

  /** {@code --as client|provider}: only the two signing parties act through these commands. */
  static Role signingRole(String option, String text) throws UsageException {
    return switch (text) {
      case "client" -> Role.CLIENT;
      case "provider" -> Role.PROVIDER;
      default ->
          throw new UsageException(option + " must be client or provider, not '" + text + "'");
    };
  }

  static CliException fileProblem(String file, IOException e) {
    if (e instanceof NoSuchFileException) {
      return new CliException("no such file: " + file);
    }
    if (e instanceof AccessDeniedException) {
      return new CliException("permission denied: " + file);
    }
    String message = e.getMessage();
    return new CliException(message == null ? "cannot read " + file : message, e);
  }
}
