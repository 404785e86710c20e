package dev.asa.evaluators.code;

import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;

/**
 * Turns what the checks measured into scores, each with evidence saying how it was measured and the
 * file:line findings it rests on.
 *
 * <ul>
 *   <li>maintainability: 0.45 x share of functions within the limits (length, nesting, complexity)
 *       + 0.2 x (100 - 2 x duplicated %) + 0.15 x share of names following the convention + 0.2 x
 *       documentation coverage (left out, and the rest scaled up, when the criteria score
 *       documentation on its own or there is nothing public to document);
 *   <li>documentation: share of public functions, methods and classes with a docstring, Javadoc or
 *       JSDoc;
 *   <li>security: 100, less {@value #POINTS_PER_SMELL} a smell found;
 *   <li>correctness: the share of tests passing when tests ran; 0 when the code does not parse;
 *       otherwise not evaluated.
 * </ul>
 */
final class CodeScores {

  static final int POINTS_PER_SMELL = 25;
  private static final int LISTED = 10;
  private static final String SECURITY_CHECKS =
      "dynamic eval/exec, unsafe deserialisation, shell commands built from strings, SQL built by"
          + " concatenation, hard-coded secrets, disabled TLS checks";

  private final CodeReport report;
  private final TestRunner.Outcome tests;
  private final String naming;

  /**
   * @param naming how an undecided single file was named ({@link SingleFileName}), said with the
   *     correctness it may explain; empty when the name was decided
   */
  CodeScores(CodeReport report, TestRunner.Outcome tests, String naming) {
    this.report = report;
    this.tests = tests;
    this.naming = naming;
  }

  DimensionInput maintainability(String name, boolean includeDocumentation) {
    List<FunctionMetrics> functions = report.functions();
    long flagged = functions.stream().filter(f -> !f.findings().isEmpty()).count();
    double fn = functions.isEmpty() ? 100 : 100.0 * (functions.size() - flagged) / functions.size();
    Duplication dup = report.duplication();
    double duplication = Math.max(0, 100 - 2 * dup.percent());
    int names = report.namesChecked();
    int badNames = report.findings(Check.NAMING).size();
    double naming = names == 0 ? 100 : Math.max(0, 100.0 * (names - badNames) / names);
    List<Documentable> docs = report.documentables();
    boolean withDocs = includeDocumentation && !docs.isEmpty();
    double documented = withDocs ? coverage(docs) : 0;

    double wFn = 0.45;
    double wDup = 0.2;
    double wName = 0.15;
    double wDoc = withDocs ? 0.2 : 0;
    double sum = wFn + wDup + wName + wDoc;
    double score = (wFn * fn + wDup * duplication + wName * naming + wDoc * documented) / sum;

    StringBuilder e = new StringBuilder("measured by ").append(report.measuredBy()).append(": ");
    e.append(
        String.format(
            Locale.ROOT,
            "functions within the limits (at most %d lines, nesting %d, complexity %d): %s (%.0f)",
            FunctionMetrics.MAX_LINES,
            FunctionMetrics.MAX_NESTING,
            FunctionMetrics.MAX_COMPLEXITY,
            functions.isEmpty()
                ? "no functions"
                : (functions.size() - flagged) + " of " + functions.size(),
            fn));
    e.append(
        String.format(
            Locale.ROOT,
            "; duplication %.1f%% of %d code lines in repeated blocks of %d+ lines (%.0f)",
            dup.percent(),
            dup.lines(),
            Duplication.WINDOW,
            duplication));
    e.append(
        String.format(
            Locale.ROOT,
            "; names following the language's convention: %d of %d (%.0f)",
            names - badNames,
            names,
            naming));
    if (withDocs) {
      e.append(
          String.format(
              Locale.ROOT,
              "; documented public items: %d of %d (%.0f)",
              docs.stream().filter(Documentable::documented).count(),
              docs.size(),
              documented));
    }
    double k = 1 / sum;
    e.append(
        String.format(
            Locale.ROOT,
            "; score %.2f x functions + %.2f x duplication + %.2f x naming%s = %.1f",
            wFn * k,
            wDup * k,
            wName * k,
            withDocs ? String.format(Locale.ROOT, " + %.2f x documentation", wDoc * k) : "",
            score));
    List<Finding> findings = report.findings(Check.Area.MAINTAINABILITY);
    e.append(findings.isEmpty() ? "; no findings" : "; findings: " + list(findings));
    notParsed(e);
    return scored(name, score, e.toString(), 0.8);
  }

  DimensionInput documentation(String name) {
    List<Documentable> docs = report.documentables();
    if (docs.isEmpty()) {
      return DimensionInput.notEvaluated(
          name,
          "there is no public function, method or class to document (measured by "
              + report.measuredBy()
              + ")");
    }
    double score = coverage(docs);
    List<Documentable> missing = docs.stream().filter(d -> !d.documented()).toList();
    StringBuilder e =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "documentation coverage measured by %s: %d of %d public functions, methods and"
                    + " classes have a docstring, Javadoc or JSDoc (%.0f%%)",
                report.measuredBy(),
                docs.size() - missing.size(),
                docs.size(),
                score));
    if (!missing.isEmpty()) {
      e.append("; undocumented: ")
          .append(
              list(
                  missing.stream()
                      .map(d ->
                          new Finding(
                              Check.UNDOCUMENTED, d.file(), d.line(), d.kind() + " " + d.name()))
                      .toList()));
    }
    e.append("; whether the comments are accurate and useful needs a reader");
    notParsed(e);
    return scored(name, score, e.toString(), 0.9);
  }

  DimensionInput security(String name) {
    List<Finding> smells = report.findings(Check.Area.SECURITY);
    double score = Math.max(0, 100 - POINTS_PER_SMELL * smells.size());
    StringBuilder e = new StringBuilder();
    if (smells.isEmpty()) {
      e.append("no security smell found by ")
          .append(report.measuredBy())
          .append(", checking for ")
          .append(SECURITY_CHECKS)
          .append("; these checks read the syntax tree for known smells, not every vulnerability");
    } else {
      e.append(smells.size())
          .append(smells.size() == 1 ? " security smell" : " security smells")
          .append(" found by ")
          .append(report.measuredBy())
          .append(": ")
          .append(list(smells))
          .append("; score 100 less ")
          .append(POINTS_PER_SMELL)
          .append(" a smell");
    }
    notParsed(e);
    return scored(name, score, e.toString(), smells.isEmpty() ? 0.6 : 0.85);
  }

  DimensionInput correctness(String name) {
    if (tests instanceof TestRunner.Outcome.Ran ran) {
      TestResults r = ran.results();
      if (r.total() == 0) {
        return DimensionInput.notEvaluated(name, "no test ran: " + r.summary());
      }
      double score = 100.0 * r.passed() / r.total();
      return scored(
          name,
          score,
          String.format(
              Locale.ROOT,
              "%d of %d tests passed in %.2f s%s%s",
              r.passed(),
              r.total(),
              r.elapsed().toMillis() / 1000.0,
              r.summary().isEmpty() ? "" : "; " + r.summary(),
              naming.isEmpty() ? "" : "; " + naming),
          0.95);
    }
    List<Finding> syntax = report.syntaxErrors();
    String reason = ((TestRunner.Outcome.NotRun) tests).reason();
    if (!syntax.isEmpty()) {
      return scored(
          name,
          0,
          "the code does not parse ("
              + report.measuredBy()
              + "): "
              + list(syntax)
              + "; code that does not parse cannot run, let alone correctly (tests did not run: "
              + reason
              + ")",
          0.95);
    }
    return DimensionInput.notEvaluated(
        name, reason + "; statically, every file parses (" + report.measuredBy() + ")");
  }

  DimensionInput performance(String name) {
    if (!(tests instanceof TestRunner.Outcome.Ran ran)) {
      return DimensionInput.notEvaluated(name, ((TestRunner.Outcome.NotRun) tests).reason());
    }
    TestResults r = ran.results();
    double seconds = r.elapsed().toMillis() / 1000.0;
    if (r.timeLimit() == null) {
      return DimensionInput.notEvaluated(
          name,
          String.format(
              Locale.ROOT,
              "the tests ran in %.2f s, but the criteria set no time limit to measure it against",
              seconds));
    }
    double limit = r.timeLimit().toMillis() / 1000.0;
    double score = seconds <= limit ? 100 : 100 * limit / seconds;
    return scored(
        name,
        score,
        String.format(
            Locale.ROOT,
            "the tests ran in %.2f s against a limit of %.2f s; score 100 within the limit, else"
                + " 100 x limit / time",
            seconds,
            limit),
        0.7);
  }

  DimensionInput testCoverage(String name) {
    if (!(tests instanceof TestRunner.Outcome.Ran ran)) {
      return DimensionInput.notEvaluated(name, ((TestRunner.Outcome.NotRun) tests).reason());
    }
    TestResults r = ran.results();
    if (r.coveragePercent() == null && r.total() > 0 && r.passed() == 0) {
      // Tests that did not load or all failed vouch for nothing they ran; left unscored, the
      // weight would leave the composite uncomputable and the verdict undecided.
      return scored(
          name,
          0,
          "no test passed, so the tests cover nothing they could vouch for: " + r.summary(),
          0.9);
    }
    if (r.coveragePercent() == null) {
      return DimensionInput.notEvaluated(
          name,
          "the tests ran, but no coverage tool for "
              + report.tree().language().wireName()
              + " was available to measure coverage");
    }
    return scored(
        name,
        r.coveragePercent(),
        String.format(Locale.ROOT, "line coverage of the tests: %.1f%%", r.coveragePercent()),
        0.9);
  }

  CheckResult parsesCheck() {
    List<Finding> syntax = report.syntaxErrors();
    if (syntax.isEmpty()) {
      return CheckResult.passed("every source file parses (" + report.measuredBy() + ")");
    }
    return CheckResult.failed("does not parse: " + list(syntax));
  }

  static CheckResult testsPass(TestResults r) {
    String counts = r.passed() + " of " + r.total() + " tests passed";
    return r.total() > 0 && r.failed() == 0
        ? CheckResult.passed(counts)
        : CheckResult.failed(r.total() == 0 ? "no test ran" : counts + "; " + r.summary());
  }

  private void notParsed(StringBuilder e) {
    long broken = report.files().stream().filter(f -> !f.parses()).count();
    if (broken > 0) {
      e.append("; ")
          .append(broken)
          .append(broken == 1 ? " file does" : " files do")
          .append(" not parse, measured on what parsed");
    }
  }

  private static double coverage(List<Documentable> docs) {
    return 100.0 * docs.stream().filter(Documentable::documented).count() / docs.size();
  }

  /** "a.py:3 ..., b.py:9 ... and 4 more". */
  static String list(List<Finding> findings) {
    String shown =
        String.join("; ", findings.stream().limit(LISTED).map(Finding::describe).toList());
    return findings.size() > LISTED
        ? shown + "; and " + (findings.size() - LISTED) + " more"
        : shown;
  }

  private static DimensionInput scored(
      String name, double score, String evidence, double confidence) {
    return DimensionInput.scored(
        name,
        BigDecimal.valueOf(score).setScale(1, RoundingMode.HALF_EVEN),
        evidence,
        BigDecimal.valueOf(confidence).setScale(2, RoundingMode.HALF_EVEN),
        CodeEvaluator.TYPE);
  }
}
