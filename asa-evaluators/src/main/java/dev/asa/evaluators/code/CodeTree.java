package dev.asa.evaluators.code;

import dev.asa.evaluators.Language;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A code deliverable unpacked: its language and its files, path to text, in path order. What the
 * static checks read and what the sandbox runner takes. Paths are already checked (relative, no
 * {@code ..}, no duplicates) by {@link CodeDeliverables}.
 *
 * @param language the language the deliverable declared (or its files' one language)
 * @param files path to content, sorted by path so that every reading of a tree is the same
 */
public record CodeTree(Language language, Map<String, String> files) {

  public CodeTree {
    Objects.requireNonNull(language, "language");
    if (files.isEmpty()) {
      throw new IllegalArgumentException("a code tree has at least one file");
    }
    files = Collections.unmodifiableMap(new TreeMap<>(files));
  }

  /** The files in {@code language} (by extension), which the language's checks read. */
  public Map<String, String> sources(Language l) {
    Map<String, String> out = new TreeMap<>();
    files.forEach((path, text) -> {
      if (Language.ofPath(path).orElse(null) == l) {
        out.put(path, text);
      }
    });
    return out;
  }

  /** Bytes of all files in UTF-8. */
  public long sizeBytes() {
    return files.values().stream().mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length).sum();
  }
}
