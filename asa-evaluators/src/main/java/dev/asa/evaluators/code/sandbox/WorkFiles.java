package dev.asa.evaluators.code.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Files to put in a sandbox's work directory, checked before anything touches the disk: relative
 * paths of plain segments only, within the file and byte caps. A path can never name a symbolic
 * link: the map holds text, and writing refuses to follow a link that is already there.
 *
 * @param files relative path (with {@code /}) to UTF-8 content, in path order
 */
public record WorkFiles(Map<String, String> files) {

  // Printable, no backslash or control characters: a path that means the same on every tool.
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._+@=,-][A-Za-z0-9 ._+@=,-]*");
  private static final int MAX_PATH_CHARS = 255;
  private static final int MAX_DEPTH = 16;

  public WorkFiles {
    files.keySet().forEach(WorkFiles::checkPath);
    files = Collections.unmodifiableMap(new TreeMap<>(files));
  }

  /** Checks every path and the caps in {@code limits}; throws {@link RejectedFilesException}. */
  public static WorkFiles of(Map<String, String> files, Limits limits) {
    Objects.requireNonNull(files, "files");
    if (files.size() > limits.maxFiles()) {
      throw new RejectedFilesException(
          "too many files: " + files.size() + " (at most " + limits.maxFiles() + ")");
    }
    long bytes = 0;
    for (Map.Entry<String, String> e : files.entrySet()) {
      if (e.getValue() == null) {
        throw new RejectedFilesException("file " + e.getKey() + " has no content");
      }
      bytes += e.getValue().getBytes(StandardCharsets.UTF_8).length;
      if (bytes > limits.maxInputBytes()) {
        throw new RejectedFilesException(
            "files too large: more than " + limits.maxInputBytes() + " bytes in all");
      }
    }
    // A file and a directory of the same name cannot both exist: "a" and "a/b".
    for (String path : files.keySet()) {
      for (int i = path.indexOf('/'); i > 0; i = path.indexOf('/', i + 1)) {
        if (files.containsKey(path.substring(0, i))) {
          throw new RejectedFilesException(
              "path " + path + " runs through the file " + path.substring(0, i));
        }
      }
    }
    return new WorkFiles(files);
  }

  static void checkPath(String path) {
    if (path == null || path.isEmpty()) {
      throw new RejectedFilesException("empty file path");
    }
    if (path.length() > MAX_PATH_CHARS) {
      throw new RejectedFilesException("file path longer than " + MAX_PATH_CHARS + " characters");
    }
    if (path.startsWith("/") || path.startsWith("\\") || path.matches("^[A-Za-z]:.*")) {
      throw new RejectedFilesException("absolute file path refused: " + path);
    }
    String[] segments = path.split("/", -1);
    if (segments.length > MAX_DEPTH) {
      throw new RejectedFilesException("file path nested deeper than " + MAX_DEPTH + ": " + path);
    }
    for (String segment : segments) {
      if (segment.equals("..")) {
        throw new RejectedFilesException("file path leaves its directory (..): " + path);
      }
      if (segment.isEmpty() || segment.equals(".")) {
        throw new RejectedFilesException("file path with an empty or '.' segment: " + path);
      }
      if (!SEGMENT.matcher(segment).matches()) {
        throw new RejectedFilesException("file path with unusual characters refused: " + path);
      }
    }
  }

  /**
   * Writes the files under {@code root}, which must be an empty directory made by the caller.
   * Parent directories are created; nothing is followed through a symbolic link.
   */
  void writeTo(Path root) throws IOException {
    for (Map.Entry<String, String> e : files.entrySet()) {
      Path target = root.resolve(e.getKey()).normalize();
      if (!target.startsWith(root)) {
        throw new RejectedFilesException("file path leaves its directory: " + e.getKey());
      }
      Path parent = target.getParent();
      Files.createDirectories(parent);
      if (!parent.toRealPath().equals(parent)) {
        throw new RejectedFilesException("file path runs through a symbolic link: " + e.getKey());
      }
      Files.writeString(
          target,
          e.getValue(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE,
          LinkOption.NOFOLLOW_LINKS);
    }
  }
}
