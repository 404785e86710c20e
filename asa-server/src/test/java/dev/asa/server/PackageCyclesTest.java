package dev.asa.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The server's packages depend one way: a cycle (say {@code store} importing from {@code escrow}
 * while {@code escrow} imports from {@code store}) fails this test, naming the packages on it.
 *
 * <p>Read from the sources' imports, which is where a dependency shows (the build formats away
 * inline fully qualified names, and a same-package reference is no edge).
 */
class PackageCyclesTest {
  private static final Path SOURCES = Path.of("src/main/java/dev/asa/server");
  private static final Pattern IMPORT =
      Pattern.compile(
          "^import (?:static )?dev\\.asa\\.server\\.((?:[a-z0-9]+\\.)*)[A-Z]", Pattern.MULTILINE);
  private static final Pattern INLINE =
      Pattern.compile("\\bdev\\.asa\\.server\\.((?:[a-z0-9]+\\.)+)[A-Z]");

  @Test
  void noPackageDependsOnItselfThroughOthers() throws IOException {
    Map<String, Set<String>> edges = dependencies();
    assertThat(edges).isNotEmpty();
    List<List<String>> cycles = new ArrayList<>();
    for (String start : edges.keySet()) {
      findCycle(start, start, edges, new ArrayList<>(List.of(start)), new TreeSet<>(), cycles);
    }
    assertThat(cycles).as("package cycles").isEmpty();
  }

  @Test
  void theCheckSeesACycle() {
    Map<String, Set<String>> edges = new TreeMap<>();
    edges.put("a", Set.of("b"));
    edges.put("b", Set.of("c"));
    edges.put("c", Set.of("a"));
    List<List<String>> cycles = new ArrayList<>();
    findCycle("a", "a", edges, new ArrayList<>(List.of("a")), new TreeSet<>(), cycles);
    assertThat(cycles).containsExactly(List.of("a", "b", "c", "a"));
  }

  private static Map<String, Set<String>> dependencies() throws IOException {
    Map<String, Set<String>> edges = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      files
          .filter(f -> f.toString().endsWith(".java"))
          .forEach(f -> {
            String from = packageOf(f);
            Set<String> to = edges.computeIfAbsent(from, k -> new TreeSet<>());
            String text = read(f);
            for (Pattern p : List.of(IMPORT, INLINE)) {
              Matcher m = p.matcher(text);
              while (m.find()) {
                String target = "server" + (m.group(1).isEmpty() ? "" : "." + m.group(1));
                target = target.endsWith(".") ? target.substring(0, target.length() - 1) : target;
                if (!target.equals(from)) {
                  to.add(target);
                }
              }
            }
          });
    }
    return edges;
  }

  private static String packageOf(Path file) {
    Path dir = SOURCES.relativize(file).getParent();
    return dir == null ? "server" : "server." + dir.toString().replace('/', '.');
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Depth-first from {@code start}: records each path that returns to it (once per start). */
  private static void findCycle(
      String start,
      String at,
      Map<String, Set<String>> edges,
      List<String> path,
      Set<String> seen,
      List<List<String>> cycles) {
    for (String next : edges.getOrDefault(at, Set.of())) {
      if (next.equals(start)) {
        List<String> cycle = new ArrayList<>(path);
        cycle.add(start);
        cycles.add(cycle);
        return;
      }
      if (seen.add(next)) {
        path.add(next);
        findCycle(start, next, edges, path, seen, cycles);
        path.removeLast();
        if (!cycles.isEmpty()) {
          return;
        }
      }
    }
  }
}
