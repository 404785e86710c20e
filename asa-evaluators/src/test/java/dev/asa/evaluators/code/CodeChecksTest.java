package dev.asa.evaluators.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.Language;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Each check on a small fixture: the smell is found, with its line, and clean code is not. */
class CodeChecksTest {

  private static SourceReport python(String source) {
    return SourceAnalyzer.of(Language.PYTHON).analyze("app.py", source);
  }

  private static SourceReport js(String source) {
    return SourceAnalyzer.of(Language.JAVASCRIPT).analyze("app.js", source);
  }

  private static SourceReport ts(String source) {
    return SourceAnalyzer.of(Language.TYPESCRIPT).analyze("app.ts", source);
  }

  private static SourceReport java(String source) {
    return SourceAnalyzer.of(Language.JAVA).analyze("App.java", source);
  }

  /** The lines at which {@code check} was found. */
  private static List<Integer> lines(SourceReport r, Check check) {
    return java.util.stream.Stream.concat(
            java.util.stream.Stream.concat(r.findings().stream(), r.syntaxErrors().stream()),
            r.functions().stream().flatMap(f -> f.findings().stream()))
        .filter(f -> f.check() == check)
        .map(Finding::line)
        .toList();
  }

  @Nested
  class Python {
    @Test
    void aSyntaxErrorIsFoundWithItsLine() {
      SourceReport r = python("def ok():\n    return 1\n\ndef broken(:\n    pass\n");
      assertThat(r.parses()).isFalse();
      assertThat(lines(r, Check.SYNTAX_ERROR)).contains(4);
      assertThat(python("def ok():\n    return 1\n").parses()).isTrue();
    }

    @Test
    void securitySmellsAreFoundAtTheirLines() {
      SourceReport r =
          python(
              """
              import os, subprocess, pickle, requests
              API_KEY = "sk-live-0123456789abcdefghij"
              def run(user, name, data):
                  eval(user)
                  os.system("ls " + name)
                  subprocess.run(f"grep {name} /tmp", shell=True)
                  cursor.execute("SELECT * FROM users WHERE name = '" + name + "'")
                  cursor.execute(f"DELETE FROM users WHERE id = {name}")
                  requests.get("https://x", verify=False)
                  return pickle.loads(data)
              """);
      assertThat(lines(r, Check.HARDCODED_SECRET)).containsExactly(2);
      assertThat(lines(r, Check.DYNAMIC_EVAL)).containsExactly(4);
      assertThat(lines(r, Check.SHELL_CONCATENATION)).containsExactly(5, 6);
      assertThat(lines(r, Check.SQL_CONCATENATION)).containsExactly(7, 8);
      assertThat(lines(r, Check.TLS_DISABLED)).containsExactly(9);
      assertThat(lines(r, Check.UNSAFE_DESERIALIZATION)).containsExactly(10);
    }

    @Test
    void safeEquivalentsAreNotSmells() {
      SourceReport r =
          python(
              """
              import os, subprocess
              API_KEY = os.environ["API_KEY"]
              password_field = "password"
              SECRET_KEY = "YOUR_SECRET_KEY"
              token = "changeme-please"
              def run(name):
                  subprocess.run(["ls", name])
                  cursor.execute("SELECT * FROM users WHERE name = ?", (name,))
                  print("Please select one option from " + name)
                  return "%d items" % 3
              """);
      assertThat(r.findings()).filteredOn(f -> f.check().area() == Check.Area.SECURITY).isEmpty();
    }

    @Test
    void functionsAreMeasured() {
      StringBuilder longBody = new StringBuilder("def long_one(x):\n");
      for (int i = 0; i < 60; i++) {
        longBody.append("    x = x + ").append(i).append('\n');
      }
      longBody.append(
          """
          def nested(a):
              if a:
                  for i in a:
                      while i:
                          with open(i) as f:
                              if f:
                                  return 1
          def branchy(a, b):
              if a and b or a:
                  return 1
              elif b:
                  return 2
              return [x for x in a if x]
          """);
      SourceReport r = python(longBody.toString());
      FunctionMetrics longOne = function(r, "long_one");
      assertThat(longOne.lines()).isEqualTo(61);
      assertThat(function(r, "nested").nesting()).isEqualTo(5);
      // 1 + if + and + or + elif + for_in_clause + if_clause
      assertThat(function(r, "branchy").complexity()).isEqualTo(7);
      assertThat(lines(r, Check.LONG_FUNCTION)).containsExactly(1);
      assertThat(lines(r, Check.DEEP_NESTING)).containsExactly(62);
    }

    @Test
    void namingAndDocstrings() {
      SourceReport r =
          python(
              """
              class good_name:
                  \"\"\"A class.\"\"\"
                  def Method(self):
                      pass
                  def _private(self):
                      pass
              def f():
                  \"\"\"Documented.\"\"\"
              """);
      assertThat(lines(r, Check.NAMING)).containsExactly(1, 3, 7);
      assertThat(r.documentables())
          .extracting(Documentable::name, Documentable::documented)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("good_name", true),
              org.assertj.core.groups.Tuple.tuple("Method", false),
              org.assertj.core.groups.Tuple.tuple("f", true));
    }
  }

  @Nested
  class JavaScriptAndTypeScript {
    @Test
    void securitySmellsAreFoundAtTheirLines() {
      SourceReport r =
          js(
              """
              const { exec } = require('child_process');
              const apiKey = "abcdef0123456789";
              function run(user, name) {
                eval(user);
                exec(`ls ${name}`);
                db.query("SELECT * FROM t WHERE id = " + name);
                https.get({ host: 'x', rejectUnauthorized: false });
                return new Function(user);
              }
              """);
      assertThat(lines(r, Check.HARDCODED_SECRET)).containsExactly(2);
      assertThat(lines(r, Check.DYNAMIC_EVAL)).containsExactly(4, 8);
      assertThat(lines(r, Check.SHELL_CONCATENATION)).containsExactly(5);
      assertThat(lines(r, Check.SQL_CONCATENATION)).containsExactly(6);
      assertThat(lines(r, Check.TLS_DISABLED)).containsExactly(7);
    }

    @Test
    void jsDocCoverageAndSyntaxErrors() {
      SourceReport r =
          js(
              """
              /** Adds. */
              export function add(a, b) { return a + b; }
              export const sub = (a, b) => a - b;
              class Calc {
                /** Multiplies. */
                mul(a, b) { return a * b; }
                _hidden() {}
              }
              """);
      assertThat(r.parses()).isTrue();
      assertThat(r.documentables())
          .extracting(Documentable::name, Documentable::documented)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("add", true),
              org.assertj.core.groups.Tuple.tuple("sub", false),
              org.assertj.core.groups.Tuple.tuple("Calc", false),
              org.assertj.core.groups.Tuple.tuple("mul", true));
      assertThat(lines(js("function f( {\n  return 1;\n}\nconst x = ;\n"), Check.SYNTAX_ERROR))
          .isNotEmpty();
    }

    @Test
    void typeScriptParsesItsOwnSyntax() {
      SourceReport r =
          ts(
              """
              interface Point { x: number; y: number }
              export function norm(p: Point): number {
                return Math.sqrt(p.x * p.x + p.y * p.y);
              }
              """);
      assertThat(r.parses()).isTrue();
      assertThat(r.functions()).extracting(FunctionMetrics::name).containsExactly("norm");
      assertThat(ts("function f(a: number { }").parses()).isFalse();
    }
  }

  @Nested
  class JavaCode {
    @Test
    void aSyntaxErrorIsFoundWithItsLine() {
      SourceReport r = java("class A {\n  void f() {\n    int x = ;\n  }\n}\n");
      assertThat(r.parses()).isFalse();
      assertThat(lines(r, Check.SYNTAX_ERROR)).contains(3);
    }

    @Test
    void securitySmellsAreFoundAtTheirLines() {
      SourceReport r =
          java(
              """
              class A {
                private static final String PASSWORD = "hunter2hunter2";
                void f(String name, java.sql.Statement st) throws Exception {
                  Runtime.getRuntime().exec("rm -rf " + name);
                  st.executeQuery("SELECT * FROM users WHERE name = '" + name + "'");
                  new java.io.ObjectInputStream(null).readObject();
                  conn.setHostnameVerifier((h, s) -> true);
                }
                public void checkServerTrusted(Object[] chain, String auth) {}
              }
              """);
      assertThat(lines(r, Check.HARDCODED_SECRET)).containsExactly(2);
      assertThat(lines(r, Check.SHELL_CONCATENATION)).containsExactly(4);
      assertThat(lines(r, Check.SQL_CONCATENATION)).containsExactly(5);
      assertThat(lines(r, Check.UNSAFE_DESERIALIZATION)).containsExactly(6);
      assertThat(lines(r, Check.TLS_DISABLED)).containsExactlyInAnyOrder(7, 9);
    }

    @Test
    void metricsJavadocAndNaming() {
      SourceReport r =
          java(
              """
              /** A calculator. */
              public class Calc {
                /** Sums. */
                public int sum(int[] xs) {
                  int s = 0;
                  for (int x : xs) {
                    if (x > 0 && x < 10) {
                      s += x;
                    } else if (x < 0) {
                      s -= x;
                    }
                  }
                  return s;
                }
                public int Bad_Name() { return 0; }
                @Override public String toString() { return "Calc"; }
              }
              """);
      FunctionMetrics sum = function(r, "sum");
      assertThat(sum.nesting()).isEqualTo(2);
      // 1 + for + if + && + else-if
      assertThat(sum.complexity()).isEqualTo(5);
      assertThat(lines(r, Check.NAMING)).containsExactly(15);
      assertThat(r.documentables())
          .extracting(Documentable::name, Documentable::documented)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("Calc", true),
              org.assertj.core.groups.Tuple.tuple("sum", true),
              org.assertj.core.groups.Tuple.tuple("Bad_Name", false));
    }
  }

  @Test
  void duplicatedBlocksAreFoundAcrossFiles() {
    String block =
        String.join("\n", "a = 1", "b = a + 2", "c = b * 3", "d = c - 4", "e = d / 5", "f = e % 6");
    Duplication d =
        Duplication.of(
            java.util.Map.of("one.py", block + "\n", "two.py", "x = 0\n" + block + "\n"));
    assertThat(d.findings()).hasSize(1);
    Finding f = d.findings().getFirst();
    assertThat(f.describe()).contains("repeating");
    assertThat(d.duplicated()).isEqualTo(6);
    assertThat(Duplication.of(java.util.Map.of("one.py", block)).findings()).isEmpty();
  }

  private static FunctionMetrics function(SourceReport r, String name) {
    return r.functions().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
  }
}
