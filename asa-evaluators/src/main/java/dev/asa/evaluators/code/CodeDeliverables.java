package dev.asa.evaluators.code;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.Language;
import dev.asa.json.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Reads a code deliverable into a {@link CodeTree}, or refuses it with a message that says what to
 * change.
 *
 * <p>A deliverable is one source file, a JSON manifest {@code {"files": {"path": "content"}}}
 * (optionally with {@code "language"}), or a zip, tar or tar.gz archive in base64. Its language is
 * the {@code format} ({@code python}...), else a {@code code/<lang>} type, else the manifest's
 * {@code language}, else the language most of its source files are in. Hostile input is the normal
 * case: sizes and file counts are capped while reading (an archive that unpacks without bound stops
 * at the cap), and every path must be relative, without {@code ..}, and unique.
 */
public final class CodeDeliverables {
  private CodeDeliverables() {}

  /** At most this many files in a tree. */
  public static final int MAX_FILES = 200;

  /** At most this many bytes of text, all files together, once unpacked. */
  public static final long MAX_TOTAL_BYTES = 2L * 1024 * 1024;

  /** At most this many characters in a path. */
  static final int MAX_PATH_LENGTH = 240;

  private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/=\\s]{16,}");
  private static final Pattern CODE_TYPE = Pattern.compile("code/(.+)");

  /** What reading a deliverable gave. */
  public sealed interface Read permits Read.Tree, Read.Refused {
    /**
     * A tree to check, with how it was packed, for the evidence.
     *
     * @param named false when a single file's name was a guess the client's words did not decide:
     *     tests that import another name will not load, and the evidence should say why
     */
    record Tree(CodeTree tree, String packing, boolean named) implements Read {
      public Tree(CodeTree tree, String packing) {
        this(tree, packing, true);
      }
    }

    /** Not a code deliverable this evaluator can read; the reason says what to change. */
    record Refused(String reason) implements Read {}
  }

  /**
   * Whether a deliverable is code by what it declares: the type {@code code}, {@code
   * code_generation} or {@code code/<lang>}, or the format {@code code} or a language name. The
   * server uses it to give code to the code evaluator when the request names none.
   */
  public static boolean isCode(String deliverableType, String format) {
    String type = deliverableType == null ? "" : deliverableType.toLowerCase(Locale.ROOT);
    return type.equals("code")
        || type.equals("code_generation")
        || type.startsWith("code/")
        || "code".equalsIgnoreCase(format)
        || Language.named(format).isPresent();
  }

  public static Read read(Deliverable deliverable, String deliverableType) {
    return read(deliverable, deliverableType, null, "");
  }

  /**
   * Reads a deliverable; a single file is named from the client's {@code tests} (null for none) and
   * {@code request}, as {@link SingleFileName} decides.
   */
  public static Read read(
      Deliverable deliverable, String deliverableType, String tests, String request) {
    Optional<Language> declared = Language.named(deliverable.format());
    String typeProblem = null;
    if (declared.isEmpty() && deliverableType != null) {
      Matcher m = CODE_TYPE.matcher(deliverableType.toLowerCase(Locale.ROOT));
      if (m.matches()) {
        declared = Language.named(m.group(1));
        if (declared.isEmpty()) {
          typeProblem =
              "the type declares the language '"
                  + m.group(1)
                  + "', which the code evaluator does not read; it reads "
                  + Language.choices();
        }
      }
    }
    if (typeProblem != null) {
      return new Read.Refused(typeProblem);
    }
    String content = deliverable.content();
    if (content.isBlank()) {
      return new Read.Refused("the deliverable is blank: there is no code to check");
    }
    try {
      Unpacked unpacked = unpack(content);
      if (unpacked == null) {
        return single(content, declared, tests, request);
      }
      Optional<Language> language =
          declared.or(() -> unpacked.language).or(() -> majority(unpacked.files));
      if (language.isEmpty()) {
        return new Read.Refused(
            "none of the "
                + unpacked.files.size()
                + " files is source code the code evaluator reads ("
                + Language.choices()
                + "), and the deliverable declares no language");
      }
      return new Read.Tree(new CodeTree(language.get(), unpacked.files), unpacked.packing);
    } catch (RefusedException e) {
      return new Read.Refused(e.getMessage());
    }
  }

  private static Read single(
      String content, Optional<Language> declared, String tests, String request) {
    if (declared.isEmpty()) {
      return new Read.Refused(
          "the deliverable does not declare its language: give format "
              + Language.choices()
              + " (or type code/<language>), or send a manifest {\"files\": {\"path\": \"content\"}}"
              + " whose file names say it");
    }
    if (content.getBytes(StandardCharsets.UTF_8).length > MAX_TOTAL_BYTES) {
      return new Read.Refused(
          "the file is larger than the limit of " + MAX_TOTAL_BYTES + " bytes of code");
    }
    SingleFileName.Choice name = SingleFileName.of(declared.get(), content, tests, request);
    return new Read.Tree(
        new CodeTree(declared.get(), Map.of(name.name(), content)),
        "a single file, read as " + name.name() + ": " + name.how(),
        name.decided());
  }

  private record Unpacked(Map<String, String> files, Optional<Language> language, String packing) {}

  /** A manifest or an archive; null when the content is one source file. */
  private static Unpacked unpack(String content) {
    String trimmed = content.strip();
    if (trimmed.startsWith("{")) {
      JsonNode node;
      try {
        node = Json.parse(trimmed);
      } catch (JsonProcessingException e) {
        return null; // not JSON: a source file that starts with a brace
      }
      if (node.isObject() && node.has("files")) {
        return manifest(node);
      }
      return null;
    }
    if (!BASE64.matcher(trimmed).matches()) {
      return null;
    }
    byte[] bytes;
    try {
      bytes = Base64.getMimeDecoder().decode(trimmed);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (bytes.length > 4 && bytes[0] == 'P' && bytes[1] == 'K' && bytes[2] == 3 && bytes[3] == 4) {
      return new Unpacked(zip(bytes), Optional.empty(), "a zip archive in base64");
    }
    if (bytes.length > 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
        return new Unpacked(
            Tar.read(capped(in, "the gzip stream")),
            Optional.empty(),
            "a tar.gz archive in base64");
      } catch (IOException e) {
        throw new RefusedException("the gzip archive could not be read: " + e.getMessage());
      }
    }
    if (Tar.isTar(bytes)) {
      return new Unpacked(Tar.read(bytes), Optional.empty(), "a tar archive in base64");
    }
    return null;
  }

  private static Unpacked manifest(JsonNode node) {
    var names = node.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!n.equals("files") && !n.equals("language")) {
        throw new RefusedException(
            "the manifest has a member '" + n + "'; it takes only \"files\" and \"language\"");
      }
    }
    Optional<Language> language = Optional.empty();
    if (node.has("language")) {
      language = Language.named(node.get("language").asText(null));
      if (language.isEmpty()) {
        throw new RefusedException("the manifest's language must be one of " + Language.choices());
      }
    }
    JsonNode files = node.get("files");
    if (!files.isObject() || files.isEmpty()) {
      throw new RefusedException(
          "the manifest's \"files\" must be an object of path to content with at least one file");
    }
    Files collected = new Files();
    for (var f : files.properties()) {
      if (!f.getValue().isTextual()) {
        throw new RefusedException("the manifest's file '" + f.getKey() + "' is not a string");
      }
      collected.add(f.getKey(), f.getValue().textValue());
    }
    return new Unpacked(
        collected.files, language, "a JSON manifest of " + collected.files.size() + " files");
  }

  private static Map<String, String> zip(byte[] bytes) {
    Files collected = new Files();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(bytes))) {
      ZipEntry e;
      while ((e = in.getNextEntry()) != null) {
        if (e.isDirectory()) {
          continue;
        }
        collected.add(e.getName(), text(e.getName(), capped(in, "'" + e.getName() + "'")));
      }
    } catch (IOException e) {
      throw new RefusedException("the zip archive could not be read: " + e.getMessage());
    }
    if (collected.files.isEmpty()) {
      throw new RefusedException("the zip archive holds no file");
    }
    return collected.files;
  }

  /** Reads at most {@link #MAX_TOTAL_BYTES}, refusing anything larger (a decompression bomb). */
  static byte[] capped(InputStream in, String what) throws IOException {
    byte[] b = in.readNBytes((int) MAX_TOTAL_BYTES + 1);
    if (b.length > MAX_TOTAL_BYTES) {
      throw new RefusedException(
          what + " unpacks to more than the limit of " + MAX_TOTAL_BYTES + " bytes");
    }
    return b;
  }

  /** A file's bytes as UTF-8 text; refused when they are not (binary files are not code). */
  static String text(String path, byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new RefusedException("the file '" + path + "' is not UTF-8 text");
    }
  }

  private static Optional<Language> majority(Map<String, String> files) {
    Map<Language, Integer> counts = new LinkedHashMap<>();
    files
        .keySet()
        .forEach(p -> Language.ofPath(p).ifPresent(l -> counts.merge(l, 1, Integer::sum)));
    return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
  }

  /**
   * What is wrong with a path, or null when it is fine: relative, forward slashes, no {@code ..} or
   * {@code .} segment, no empty segment, no control character.
   */
  static String pathProblem(String path) {
    if (path.isEmpty()) {
      return "is empty";
    }
    if (path.length() > MAX_PATH_LENGTH) {
      return "is longer than " + MAX_PATH_LENGTH + " characters";
    }
    if (path.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      return "contains a control character";
    }
    if (path.contains("\\")) {
      return "uses a backslash; separate directories with /";
    }
    if (path.startsWith("/") || path.matches("[A-Za-z]:.*")) {
      return "is absolute; paths are relative to the deliverable's root";
    }
    for (String segment : path.split("/", -1)) {
      if (segment.equals("..")) {
        return "climbs out of the deliverable with '..'";
      }
      if (segment.equals(".")) {
        return "has a '.' segment; give the path without it";
      }
      if (segment.isEmpty()) {
        return "has an empty segment (a doubled or trailing /)";
      }
    }
    return null;
  }

  /** Files gathered one by one, each path checked and the caps kept. */
  static final class Files {
    final Map<String, String> files = new LinkedHashMap<>();
    private final Map<String, String> folded = new LinkedHashMap<>();
    private long bytes;

    void add(String path, String content) {
      String problem = pathProblem(path);
      if (problem != null) {
        throw new RefusedException("the path '" + printable(path) + "' " + problem);
      }
      if (files.containsKey(path)) {
        throw new RefusedException("the path '" + path + "' appears twice");
      }
      String other = folded.putIfAbsent(path.toLowerCase(Locale.ROOT), path);
      if (other != null) {
        throw new RefusedException(
            "the paths '" + other + "' and '" + path + "' differ only in case");
      }
      for (String existing : files.keySet()) {
        if (existing.startsWith(path + "/") || path.startsWith(existing + "/")) {
          throw new RefusedException(
              "'" + existing + "' and '" + path + "' make one path both a file and a directory");
        }
      }
      if (files.size() == MAX_FILES) {
        throw new RefusedException("the deliverable has more than " + MAX_FILES + " files");
      }
      bytes += content.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > MAX_TOTAL_BYTES) {
        throw new RefusedException(
            "the files together are larger than the limit of " + MAX_TOTAL_BYTES + " bytes");
      }
      files.put(path, content);
    }
  }

  private static String printable(String path) {
    String p = path.replaceAll("\\p{Cntrl}", "?");
    return p.length() > 80 ? p.substring(0, 77) + "..." : p;
  }

  /** A refusal while reading; its message is the reason given to the caller. */
  static final class RefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RefusedException(String message) {
      super(message, null, false, false);
    }
  }
}
