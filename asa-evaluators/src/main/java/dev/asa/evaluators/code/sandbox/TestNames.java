package dev.asa.evaluators.code.sandbox;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cross-check of reported tests against the test file, read statically on this side (a
 * tripwire, with {@link Tripwire}): a reported test the file does not define, a test reported
 * twice, or a test the harness surely runs that was never reported, marks the run tampered. The
 * reading is lexical, so it is lenient where a plain reading cannot be sure (Python helpers named
 * {@code test*} with parameters, JavaScript names built at run time): it then checks less rather
 * than accuse honest code.
 */
final class TestNames {
  private static final Pattern PY_DEF =
      Pattern.compile(
          "^([ \\t]*)(?:async\\s+)?def\\s+(test\\w*)\\s*\\(([^)]*)\\)", Pattern.MULTILINE);
  private static final Pattern JS_CALL =
      Pattern.compile("\\b(?:test|it)(?:\\.(?:only|skip|todo))?\\s*\\(");
  private static final Pattern JS_LITERAL =
      Pattern.compile(
          "\\b(?:test|it)(?:\\.(?:only|skip|todo))?\\s*\\(\\s*(?:'((?:\\\\.|[^'\\\\\\n])*)'|\"((?:\\\\.|[^\"\\\\\\n])*)\"|`((?:\\\\.|[^`\\\\])*)`)");
  private static final Pattern JAVA_METHOD =
      Pattern.compile(
          "((?:\\b(?:public|static|final|synchronized|strictfp)\\s+)*)void\\s+(test\\w*)\\s*\\(\\s*\\)");

  private static final Pattern JAVA_COMMENT =
      Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

  private TestNames() {}

  /** Why the reported names do not fit the test file, when they do not. */
  static Optional<String> check(Language language, TestFile file, List<String> reported) {
    return switch (language) {
      case PYTHON -> python(file.content(), reported);
      case JAVASCRIPT -> javascript(file, reported);
      case JAVA -> java(file.content(), reported);
    };
  }

  private static Optional<String> python(String source, List<String> reported) {
    Set<String> defined = new HashSet<>();
    Set<String> certain = new HashSet<>();
    Matcher m = PY_DEF.matcher(source);
    while (m.find()) {
      defined.add(m.group(2));
      if (m.group(1).isEmpty() && m.group(3).isBlank() && !decorated(source, m.start())) {
        certain.add(m.group(2)); // a plain module-level test function without parameters: it runs
      }
    }
    Set<String> seen = new HashSet<>();
    for (String name : reported) {
      String method = name.substring(name.lastIndexOf('.') + 1);
      if (!defined.contains(method)) {
        return Optional.of("test " + name + " was reported but the test file defines no " + method);
      }
      if (!seen.add(name)) {
        return Optional.of("test " + name + " was reported twice");
      }
    }
    for (String name : certain) {
      if (!seen.contains(name)) {
        return Optional.of("test " + name + " is in the test file but was never reported");
      }
    }
    return Optional.empty();
  }

  private static Optional<String> javascript(TestFile file, List<String> reported) {
    String source = file.content();
    int calls = count(JS_CALL.matcher(source));
    Map<String, Integer> literal = new HashMap<>();
    Matcher m = JS_LITERAL.matcher(source);
    int literals = 0;
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      if (m.group(3) != null && name.contains("${")) {
        return Optional.empty(); // a name built at run time: no static list to hold it to
      }
      literals++;
      literal.merge(unescape(name), 1, Integer::sum);
    }
    if (literals != calls) {
      return Optional.empty(); // a call this reading cannot name (or a .test( that is no test)
    }
    for (String name : reported) {
      // node reports a file that failed to load under the file's own path.
      if (name.equals(file.path()) || name.endsWith("/" + file.path())) {
        continue;
      }
      if (!literal.containsKey(name)) {
        return Optional.of("test " + name + " was reported but the test file names no such test");
      }
    }
    return Optional.empty();
  }

  private static Optional<String> java(String text, List<String> reported) {
    // A method commented out is no test (a // inside a string literal may hide a line's end from
    // this reading: then it checks that line less, which is the lenient side).
    String source = JAVA_COMMENT.matcher(text).replaceAll(" ");
    Set<String> defined = new HashSet<>();
    List<String> certain = new ArrayList<>();
    Matcher m = JAVA_METHOD.matcher(source);
    while (m.find()) {
      defined.add(m.group(2));
      if (m.group(1).contains("public")) {
        certain.add(m.group(2));
      }
    }
    Set<String> seen = new HashSet<>();
    for (String name : reported) {
      String method = name.substring(name.lastIndexOf('.') + 1);
      if (!defined.contains(method)) {
        return Optional.of("test " + name + " was reported but the test file defines no " + method);
      }
      if (!seen.add(method)) {
        return Optional.of("test " + name + " was reported twice");
      }
    }
    for (String name : certain) {
      if (!seen.contains(name)) {
        return Optional.of("test " + name + " is in the test file but was never reported");
      }
    }
    return Optional.empty();
  }

  /** The line before {@code start} is a decorator, which may have made the function anything. */
  private static boolean decorated(String source, int start) {
    int end = source.lastIndexOf('\n', start - 1);
    if (end < 0) {
      return false;
    }
    int begin = source.lastIndexOf('\n', end - 1) + 1;
    return source.substring(begin, end).strip().startsWith("@");
  }

  private static int count(Matcher m) {
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  private static String unescape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        b.append(
            switch (n) {
              case 'n' -> '\n';
              case 't' -> '\t';
              default -> n;
            });
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
