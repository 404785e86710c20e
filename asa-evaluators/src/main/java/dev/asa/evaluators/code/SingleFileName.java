package dev.asa.evaluators.code;

import dev.asa.evaluators.Language;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name a single-file deliverable is stored under. A client whose tests say {@code from solution
 * import slugify} gets tests that cannot load when the file is stored as {@code main.py}, and the
 * provider then loses for a name nobody asked it to choose. So the name comes from what the client
 * wrote: first the module its tests import (that is what must load), then a file its request names
 * ("write a module {@code solution.py}"); only when neither decides is it {@code main} with the
 * language's extension, and the decision says why, for the evidence.
 *
 * <p>Java needs no name from the client: javac wants a public class in a file of its name, and a
 * file without one compiles under any name.
 *
 * <p>The scans are single passes with patterns that cannot backtrack badly (no nested quantifiers):
 * the tests and the request are caller input.
 */
final class SingleFileName {
  private SingleFileName() {}

  /**
   * A chosen name, and how it was chosen.
   *
   * @param name the file's name
   * @param how for the evidence: "the name the client's tests import", or why no name could be
   *     decided
   * @param decided false when {@code main} was a guess because the client's words did not decide
   */
  record Choice(String name, String how, boolean decided) {}

  private static final Pattern PUBLIC_JAVA_TYPE =
      Pattern.compile(
          "(?m)^[ \\t]*public[ \\t]+(?:(?:final|abstract|sealed|static|strictfp)[ \\t]+)*(?:class|interface|enum|record|@interface)[ \\t]+([A-Za-z_$][A-Za-z0-9_$]*)");

  // "from solution import x", "import solution", "import solution as s, other".
  private static final Pattern PY_FROM =
      Pattern.compile("(?m)^[ \\t]*from[ \\t]+([A-Za-z_][A-Za-z0-9_]*)[ \\t]+import\\b");
  private static final Pattern PY_IMPORT =
      Pattern.compile("(?m)^[ \\t]*import[ \\t]+([A-Za-z_][A-Za-z0-9_., \\t]*)");

  // require('./solution'), require("./solution.js"), from './solution.mjs', import('./solution').
  private static final Pattern JS_RELATIVE =
      Pattern.compile(
          "(?:require|import|from)[ \\t]*\\(?[ \\t]*['\"]\\./([A-Za-z0-9_-]+(?:\\.[cm]?js)?)['\"]");

  // A file name in the request: `solution.py`, solution.js, "Solution.java".
  private static final Pattern REQUESTED_FILE =
      Pattern.compile("\\b([A-Za-z_][A-Za-z0-9_-]{0,80}\\.(py|js|mjs|cjs|java))\\b");

  /**
   * Modules of Python's standard library a test file commonly imports (and {@code pytest}, which a
   * test may import for its helpers): an import of one of these is not an import of the
   * deliverable.
   */
  private static final Set<String> PY_LIBRARY =
      Set.of(
          "unittest",
          "pytest",
          "os",
          "sys",
          "re",
          "math",
          "cmath",
          "json",
          "collections",
          "itertools",
          "functools",
          "operator",
          "typing",
          "dataclasses",
          "random",
          "string",
          "io",
          "time",
          "datetime",
          "decimal",
          "fractions",
          "statistics",
          "copy",
          "inspect",
          "types",
          "enum",
          "abc",
          "heapq",
          "bisect",
          "array",
          "textwrap",
          "tempfile",
          "pathlib",
          "shutil",
          "subprocess",
          "threading",
          "asyncio",
          "contextlib",
          "warnings",
          "logging",
          "hashlib",
          "base64",
          "csv",
          "struct",
          "uuid",
          "pprint",
          "doctest",
          "traceback",
          "weakref",
          "gc",
          "importlib",
          "numbers",
          "locale",
          "unicodedata",
          "zlib",
          "gzip",
          "secrets",
          "hmac",
          "signal",
          "socket",
          "sqlite3",
          "urllib",
          "http",
          "html",
          "xml",
          "email",
          "glob",
          "fnmatch",
          "difflib",
          "queue",
          "multiprocessing",
          "concurrent",
          "platform",
          "builtins",
          "__future__",
          "timeit",
          "calendar",
          "codecs",
          "ast",
          "dis",
          "pickle",
          "shelve",
          "errno");

  /**
   * The name for {@code content} in {@code language}, from the client's {@code tests} (may be null)
   * and {@code request} (may be empty).
   */
  static Choice of(Language language, String content, String tests, String request) {
    String extension = language.extension();
    if (language == Language.JAVA) {
      Matcher m = PUBLIC_JAVA_TYPE.matcher(content);
      return m.find()
          ? new Choice(m.group(1) + ".java", "the name of its public class", true)
          : new Choice("Main.java", "it declares no public class, so any name compiles", true);
    }
    Set<String> imported = tests == null ? Set.of() : imported(language, tests);
    Set<String> requested = requested(language, request == null ? "" : request);
    if (imported.size() == 1) {
      return new Choice(imported.iterator().next(), "the name the client's tests import", true);
    }
    if (imported.size() > 1) {
      Set<String> both = new LinkedHashSet<>(imported);
      both.retainAll(requested);
      if (both.size() == 1) {
        return new Choice(
            both.iterator().next(),
            "the name the request gives, among the modules the client's tests import",
            true);
      }
      return new Choice(
          "main" + extension,
          "the client's tests import "
              + String.join(", ", imported)
              + " and a single file can be only one of them, so it was read as main"
              + extension
              + "; send a manifest {\"files\": {...}} to name the files",
          false);
    }
    if (requested.size() == 1) {
      return new Choice(requested.iterator().next(), "the name the request gives", true);
    }
    String why =
        requested.isEmpty()
            ? (tests == null
                ? "no tests or request name it"
                : "neither the tests nor the request name it")
            : "the request names " + String.join(", ", requested) + ", more than one";
    return new Choice(
        "main" + extension,
        "the file's name could not be decided (" + why + "), so it was read as main" + extension,
        false);
  }

  private static Set<String> imported(Language language, String tests) {
    Set<String> names = new LinkedHashSet<>();
    switch (language) {
      case PYTHON -> {
        Matcher from = PY_FROM.matcher(tests);
        while (from.find()) {
          addPython(names, from.group(1));
        }
        Matcher imports = PY_IMPORT.matcher(tests);
        while (imports.find()) {
          for (String part : imports.group(1).split(",")) {
            String module = part.strip().split("[ \\t.]", 2)[0];
            if (!module.isEmpty()) {
              addPython(names, module);
            }
          }
        }
      }
      case JAVASCRIPT -> {
        Matcher m = JS_RELATIVE.matcher(tests);
        while (m.find()) {
          String file = m.group(1);
          names.add(file.matches(".*\\.[cm]?js") ? file : file + ".js");
        }
      }
      default -> {}
    }
    return names;
  }

  private static void addPython(Set<String> names, String module) {
    if (!PY_LIBRARY.contains(module)) {
      names.add(module + ".py");
    }
  }

  private static Set<String> requested(Language language, String request) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = REQUESTED_FILE.matcher(request);
    while (m.find()) {
      String file = m.group(1);
      boolean same =
          switch (language) {
            case PYTHON -> m.group(2).equals("py");
            case JAVASCRIPT -> m.group(2).endsWith("js");
            default -> false;
          };
      if (same && !isTestName(file)) {
        names.add(file);
      }
    }
    return names;
  }

  /** A test file the request mentions ("tests in test_solution.py") is not the deliverable. */
  private static boolean isTestName(String file) {
    String lower = file.toLowerCase(Locale.ROOT);
    return lower.startsWith("test_") || lower.contains("_test.") || lower.contains(".test.");
  }
}
