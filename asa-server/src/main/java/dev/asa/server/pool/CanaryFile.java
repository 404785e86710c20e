package dev.asa.server.pool;

import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Violation;
import dev.asa.integrity.CanarySet;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The canary set the operator gives at start-up ({@code asa serve --canaries FILE}): the file, read
 * once, and what it holds. The server loads it into the store at start, replacing the set stored
 * before; a file that cannot be read stops the start, naming each problem's canary, field and line.
 */
public record CanaryFile(Path path, CanarySet set) {

  /** Larger than any sensible canary set (10,000 canaries of 25 KiB), smaller than the heap. */
  public static final long MAX_BYTES = 256L * 1024 * 1024;

  public CanaryFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(set, "set");
  }

  /**
   * Reads a canary file: a JSON array of canaries, or one canary per line (JSON Lines), in UTF-8.
   *
   * @throws IllegalArgumentException saying what is wrong with the file: each problem on a line of
   *     its own, as {@code /3/tolerance: must be ... (line 4)}
   */
  public static CanaryFile read(Path path) {
    String text;
    try {
      if (Files.size(path) > MAX_BYTES) {
        throw new IllegalArgumentException(
            "the canary file " + path + " is larger than " + MAX_BYTES / (1024 * 1024) + " MiB");
      }
      byte[] bytes = Files.readAllBytes(path);
      text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("there is no canary file " + path);
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("the canary file " + path + " is not UTF-8 text");
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the canary file " + path + ": " + e);
    }
    try {
      return new CanaryFile(path, CanarySet.parse(text));
    } catch (InvalidDocumentException e) {
      StringBuilder s =
          new StringBuilder("the canary file ")
              .append(path)
              .append(" has ")
              .append(
                  e.violations().size() == 1 ? "a problem" : e.violations().size() + " problems")
              .append("; fix ")
              .append(e.violations().size() == 1 ? "it" : "them")
              .append(" and start again:");
      for (Violation v : e.violations()) {
        s.append("\n  ").append(v);
      }
      throw new IllegalArgumentException(s.toString(), e);
    }
  }

  /** How the set's origin is recorded: {@code asa serve --canaries /etc/asa/canaries.jsonl}. */
  public String source() {
    return "asa serve --canaries " + path.toAbsolutePath().normalize();
  }
}
