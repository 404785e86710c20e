package dev.asa.cli;

import dev.asa.shadow.ShadowReport;
import dev.asa.shadow.TestSuite;
import dev.asa.shadow.UnusableTestResultsException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code asa shadow score}: the Shadow Score Spec's validator, offline. Its exit statuses are the
 * spec's CLI contract, not the rest of the CLI's: 1 means the score exceeds {@code --threshold} (a
 * CI gate), so input that cannot be scored must not also be 1; it is 2, like a usage error.
 */
final class ShadowCommand implements Command {

  private static final Usage USAGE =
      Usage.of(
              "shadow score",
              "--sealed FILE [--open FILE] [--threshold N] [--format json|summary]",
              "Computes the Shadow Score of sealed test results and prints the Shadow Report.\n"
                  + "Input files are {\"tests\":[{name, status, category, expected, actual, message}]}; status is passed,\n"
                  + "failed, error or skipped (only passed counts as a pass). Exit 0, or 1 when the reported score is\n"
                  + "strictly above --threshold, or 2 when an input cannot be used.")
          .option(
              Option.required(
                  "--sealed",
                  "FILE",
                  "results of the sealed suite, the one the implementer never saw"))
          .option(
              Option.value(
                  "--open",
                  "FILE",
                  "results of the implementer's own suite: adds open_tests and coverage_comparison"))
          .option(
              Option.value(
                  "--threshold",
                  "N",
                  "exit 1 when the score (as reported, one decimal) is above N, 0 to 100"))
          .option(
              Option.value(
                  "--format",
                  "FORMAT",
                  "json (the report, default) or summary (a few lines for a person)"));

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    String format = args.value("--format", "json");
    if (!format.equals("json") && !format.equals("summary")) {
      throw new UsageException("--format must be json or summary, not '" + format + "'");
    }
    BigDecimal threshold = threshold(args.value("--threshold"));
    ShadowReport report;
    try {
      report = ShadowReport.of(suite("--sealed", args.value("--sealed")));
      if (args.has("--open")) {
        report = report.withOpen(suite("--open", args.value("--open")));
      }
    } catch (CliException e) {
      session.err().println("asa " + USAGE.command() + ": " + e.getMessage());
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
