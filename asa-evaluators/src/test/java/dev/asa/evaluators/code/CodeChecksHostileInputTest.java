package dev.asa.evaluators.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.evaluators.Deadline;
import dev.asa.evaluators.Language;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Hostile input is the normal case: whatever text arrives, every parser returns a report (never an
 * exception, never a crash of the process) and every finding points at a line of the file.
 */
class CodeChecksHostileInputTest {

  private static final String PYTHON =
      "def f(a, b):\n    if a and b:\n        return eval(a + \"x\")\n    return [x for x in b]\n";
  private static final String JS =
      "/** doc */\nexport function f(a) {\n  if (a) { exec(`ls ${a}`); }\n  return a ?? 1;\n}\n";
  private static final String TS =
      "interface P { x: number }\nfunction g(p: P): number {\n  return p.x > 0 ? p.x : -p.x;\n}\n";
  private static final String JAVA =
      "public class A {\n  int f(int x) {\n    if (x > 0 && x < 9) { return x; }\n    return -x;\n  }\n}\n";

  private static final String NOISE = "(){}[]:;,.'\"`\\\n\t #/*+-=<>!?$@ifdefclassreturn";

  @Test
  void randomlyMutatedSourcesAlwaysGiveAReport() {
    Random random = new Random(20261124L);
    List<Object[]> cases = new ArrayList<>();
    cases.add(new Object[] {Language.PYTHON, "m.py", PYTHON});
    cases.add(new Object[] {Language.JAVASCRIPT, "m.js", JS});
    cases.add(new Object[] {Language.TYPESCRIPT, "m.ts", TS});
    cases.add(new Object[] {Language.JAVA, "M.java", JAVA});
    for (Object[] c : cases) {
      Language language = (Language) c[0];
      for (int i = 0; i < 150; i++) {
        String source = mutate((String) c[2], random);
        SourceReport r = SourceAnalyzer.of(language).analyze((String) c[1], source);
        int lines = Math.max(1, r.lines()) + 1;
        r.syntaxErrors().forEach(f -> assertThat(f.line()).isBetween(1, lines));
        r.findings().forEach(f -> assertThat(f.line()).isBetween(1, lines));
        r.functions().forEach(f -> assertThat(f.line()).isBetween(1, lines));
      }
    }
  }

  @Test
  void absurdNestingIsReportedNotFatal() {
    String deep = "x = " + "(".repeat(20_000) + "1" + ")".repeat(20_000) + "\n";
    SourceReport py = SourceAnalyzer.of(Language.PYTHON).analyze("deep.py", deep);
    assertThat(py.file()).isEqualTo("deep.py");
    String deepJava =
        "class D { int f() { return " + "(".repeat(20_000) + "1" + ")".repeat(20_000) + "; } }";
    SourceReport java = SourceAnalyzer.of(Language.JAVA).analyze("D.java", deepJava);
    assertThat(java.file()).isEqualTo("D.java");
  }

  /**
   * Text shaped against the checks' own cost, in each language: a built string saying "select"
   * 60,000 times and never "from" (the SQL pattern ran to the end of the text from each one), and a
   * chain of 600 concatenations (each node asked the chain below it whether it held a string). Each
   * is read in well under a second of the minutes it took; the SQL check still finds SQL.
   */
  @Test
  void textShapedAgainstTheChecksIsReadInLinearTime() {
    String selects = "select ".repeat(60_000);
    StringBuilder chain = new StringBuilder("(\"select \" + x");
    for (int i = 0; i < 600; i++) {
      chain.append(" + \"select \" + x");
    }
    chain.append(')');
    List<String[]> cases =
        List.of(
            new String[] {"python", "m.py", "q = \"" + selects + "\" + t\n"},
            new String[] {"python", "c.py", "q = " + chain + "\n"},
            new String[] {"javascript", "m.js", "const q = `" + selects + "${t}`;\n"},
            new String[] {
              "java", "M.java", "class M { String q(String t) { return \"" + selects + "\" + t; } }"
            },
            new String[] {
              "java", "C.java", "class C { String q(String x) { return " + chain + "; } }"
            });
    for (String[] c : cases) {
      long started = System.nanoTime();
      SourceReport r = SourceAnalyzer.of(Language.named(c[0]).orElseThrow()).analyze(c[1], c[2]);
      long millis = (System.nanoTime() - started) / 1_000_000;
      System.out.printf("%s (%d KB): %d ms%n", c[1], c[2].length() / 1024, millis);
      assertThat(millis).as(c[1]).isLessThan(5_000);
      assertThat(r.findings()).noneMatch(f -> f.check() == Check.SQL_CONCATENATION);
    }
    SourceReport sql =
        SourceAnalyzer.of(Language.PYTHON)
            .analyze("q.py", "q = \"" + selects + "* FROM users WHERE id = \" + uid\n");
    assertThat(sql.findings()).anyMatch(f -> f.check() == Check.SQL_CONCATENATION);
  }

  /** An analysis whose thread is interrupted (its job's deadline) stops instead of finishing. */
  @Test
  void anInterruptedAnalysisStops() {
    String code = "q = \"" + "select ".repeat(1_000) + "\" + t\n";
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> SourceAnalyzer.of(Language.PYTHON).analyze("m.py", code))
          .isInstanceOf(Deadline.Passed.class);
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void binaryLookingTextAndEmptyFilesAreHandled() {
    for (Language l : Language.values()) {
      String name = "f" + (l == Language.JAVA ? ".java" : l.extension());
      assertThat(SourceAnalyzer.of(l).analyze(name, "").lines()).isZero();
      assertThat(SourceAnalyzer.of(l).analyze(name, "\u0001\u0002\uFFFD\u00e9\u4e2d").parses())
          .isFalse();
    }
  }

  private static String mutate(String source, Random random) {
    StringBuilder s = new StringBuilder(source);
    int edits = 1 + random.nextInt(6);
    for (int e = 0; e < edits; e++) {
      int at = random.nextInt(s.length() + 1);
      switch (random.nextInt(3)) {
        case 0 -> s.insert(at, NOISE.charAt(random.nextInt(NOISE.length())));
        case 1 -> {
          if (at < s.length()) {
            s.deleteCharAt(at);
          }
        }
        default -> s.insert(at, (char) (random.nextInt(0x2FFF) + 1));
      }
    }
    return s.toString();
  }
}
