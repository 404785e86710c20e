package dev.asa.cli;

import dev.asa.shadow.ShadowReport;
import dev.asa.shadow.TestSuite;
import dev.asa.shadow.UnusableTestResultsException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code asa shadow score}: the Shadow Score Spec's validator, offline. Its exit statuses are the
 * spec's CLI contract, not the rest of the CLI's: 1 means the score exceeds {@code --threshold} (a
 * CI gate), so input that cannot be scored must not also be 1; it is 2, like a usage error.
 */
@Command(
    name = "score",
    header = "Computes the Shadow Score of sealed test results and prints the Shadow Report.",
    customSynopsis =
        "asa shadow score --sealed FILE [--open FILE] [--threshold N] [--format json|summary]",
    description =
        "Input files are {\"tests\":[{name, status, category, expected, actual, message}]};"
            + " status is passed, failed, error or skipped (only passed counts as a pass). Exit 0,"
            + " or 1 when the reported score is strictly above --threshold, or 2 when an input"
            + " cannot be used.")
final class ShadowCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--sealed",
      paramLabel = "FILE",
      required = true,
      description = "results of the sealed suite, the one the implementer never saw")
  String sealed;

  @Option(
      names = "--open",
      paramLabel = "FILE",
      description =
          "results of the implementer's own suite: adds open_tests and coverage_comparison")
  String open;

  @Option(
      names = "--threshold",
      paramLabel = "N",
      description = "exit 1 when the score (as reported, one decimal) is above N, 0 to 100")
  String threshold;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "json (the report, default) or summary (a few lines for a person)")
  String format = "json";

  @Override
  public Integer call() throws Exception {
    Session session = new Session(Asa.of(spec).io(), null, null, false);
    if (!format.equals("json") && !format.equals("summary")) {
      throw new UsageException("--format must be json or summary, not '" + format + "'");
    }
    BigDecimal threshold = threshold(this.threshold);
    ShadowReport report;
    try {
      report = ShadowReport.of(suite("--sealed", sealed));
      if (open != null) {
        report = report.withOpen(suite("--open", open));
      }
    } catch (CliException e) {
      session.err().println(spec.qualifiedName() + ": " + e.getMessage());
      return 2;
    }
    if (format.equals("summary")) {
      session.out().print(report.summary());
    } else {
      session.printJson(report.toJson());
    }
    return threshold != null && report.score().exceeds(threshold) ? 1 : 0;
  }

  private static BigDecimal threshold(String text) throws UsageException {
    if (text == null) {
      return null;
    }
    try {
      BigDecimal n = new BigDecimal(text);
      if (n.signum() >= 0 && n.compareTo(BigDecimal.valueOf(100)) <= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--threshold must be a number from 0 to 100, not '" + text + "'");
  }

  /** The suite in a file; every reason it cannot be read names the option and the file. */
  private static TestSuite suite(String option, String file) throws CliException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(Path.of(file));
    } catch (IOException e) {
      throw new CliException(option + ": " + Inputs.fileProblem(file, e).getMessage());
    } catch (java.nio.file.InvalidPathException e) {
      throw new CliException(option + " " + file + ": not a usable file name");
    }
    try {
      return TestSuite.parse(bytes);
    } catch (UnusableTestResultsException e) {
      throw new CliException(option + " " + file + ": " + e.getMessage());
    }
  }
}
