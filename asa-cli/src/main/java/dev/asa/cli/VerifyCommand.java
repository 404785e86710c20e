package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.VerificationJob;
import dev.asa.client.VerifyOutcome;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements verify}: scores the delivered work. The server measures what it can by
 * itself (format, timeliness...); the judgement dimensions come from the evaluator, here on the
 * command line with {@code --score} or as a whole {@code evaluator_result} with {@code --result}.
 */
@Command(
    name = "verify",
    header = "Scores the delivered work and prints the verdict.",
    customSynopsis =
        "asa agreements verify ID [--score NAME=SCORE:EVIDENCE ...] [--check NAME=true|false ...]"
            + " [--confidence C] [--model M] [--result FILE.json] [--depth D]",
    description =
        "Prints each dimension's score against its SLO, the composite, the determination and the"
            + " share of the payment released. Without scores the server scores only what it can"
            + " measure itself and names any dimension still missing a score; with --depth its own"
            + " evaluators verify at that depth (semantic and composite run as a job, awaited"
            + " here). Exit status 1 when the verdict is FAIL.")
final class VerifyCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Option(
      names = "--score",
      paramLabel = "NAME=SCORE:EVIDENCE",
      description =
          "the evaluator's score for a dimension and what it rests on, e.g. accuracy=88:'3 of 3"
              + " claims check out'")
  List<String> scores = new ArrayList<>();

  @Option(
      names = "--check",
      paramLabel = "NAME=true|false",
      description = "a named check used by quality gates, e.g. all_tests_pass=true")
  List<String> checks = new ArrayList<>();

  @Option(
      names = "--confidence",
      paramLabel = "C",
      description = "the evaluator's confidence, 0 to 1")
  String confidence;

  @Option(names = "--model", paramLabel = "M", description = "the model that judged")
  String model;

  @Option(
      names = "--result",
      paramLabel = "FILE.json",
      description = "a whole evaluator_result {dimensions, checks, model, confidence} instead")
  String result;

  @Option(
      names = "--depth",
      paramLabel = "D",
      description =
          "no scores: let the server's own evaluators verify at this depth: structural, semantic"
              + " or composite (where the terms name the built-in evaluator; else the named or"
              + " assigned evaluator judges and the server answers 409)")
  String depth;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    JsonNode evaluatorResult = evaluatorResult();
    ObjectNode answer;
    if (depth != null) {
      if (evaluatorResult != null) {
        throw new UsageException("--depth asks the server's evaluators: give it without scores");
      }
      if (!List.of("structural", "semantic", "composite").contains(depth)) {
        throw new UsageException(
            "--depth must be structural, semantic or composite, not '" + depth + "'");
      }
      answer = session.client().verifyWith(id, Json.object().put("depth", depth));
    } else {
      answer =
          evaluatorResult == null
              ? session.client().verify(id)
              : session.client().verify(id, evaluatorResult);
    }
    String route = "POST /agreements/" + id + "/verify";
    if (dev.asa.client.AsaClient.isPending(answer)) {
      // The server's own evaluators work in the background (semantic or composite depth): wait for
      // the verdict, then report it as a verification at structural depth is reported.
      VerificationJob job = Views.read(route, answer, VerificationJob::from);
      JsonNode done = VerificationJobs.await(session, job.verificationId());
      ObjectNode report = Json.object();
      report.put("agreement_id", id);
      report.put("state", session.client().agreements().get(id).state().name());
      report.set("verification", done);
      answer = report;
    }
    VerifyOutcome outcome = Views.read(route, answer, VerifyOutcome::from);
    session.print(outcome.json(), json -> VerificationReport.format(outcome));
    return VerificationReport.exitCode(outcome.verification());
  }

  /** The evaluator's result from the options, or null when none was given. */
  JsonNode evaluatorResult() throws UsageException, CliException {
    boolean scored = !scores.isEmpty() || !checks.isEmpty() || confidence != null || model != null;
    if (this.result != null) {
      if (scored) {
        String other =
            !scores.isEmpty()
                ? "--score"
                : !checks.isEmpty() ? "--check" : confidence != null ? "--confidence" : "--model";
        throw new UsageException("--result and " + other + " cannot be used together");
      }
      return Inputs.jsonFile(this.result);
    }
    if (!scored) {
      return null;
    }
    ObjectNode result = Json.object();
    ArrayNode dimensions = result.putArray("dimensions");
    for (String score : scores) {
      dimensions.add(score(score));
    }
    if (!checks.isEmpty()) {
      ObjectNode checks = result.putObject("checks");
      for (String check : this.checks) {
        int eq = check.indexOf('=');
        String value = eq > 0 ? check.substring(eq + 1) : "";
        if (!value.equals("true") && !value.equals("false")) {
          throw new UsageException("--check needs NAME=true or NAME=false, not '" + check + "'");
        }
        checks.put(check.substring(0, eq), Boolean.parseBoolean(value));
      }
    }
    if (confidence != null) {
      result.put("confidence", decimal("--confidence", confidence));
    }
    if (model != null) {
      result.put("model", model);
    }
    return result;
  }

  /**
   * {@code accuracy=88:3 of 3 claims check out} as {@code {name, score, evidence}}; the evidence
   * may hold colons.
   */
  static ObjectNode score(String text) throws UsageException {
    int eq = text.indexOf('=');
    int colon = eq < 0 ? -1 : text.indexOf(':', eq);
    if (eq <= 0 || colon < 0 || colon == text.length() - 1) {
      throw new UsageException(
          "--score needs NAME=SCORE:EVIDENCE (the evidence says what the score rests on), not '"
              + text
              + "'");
    }
    ObjectNode d = Json.object();
    d.put("name", text.substring(0, eq));
    String score = text.substring(eq + 1, colon);
    switch (score) {
      case "true", "false" -> d.put("score", Boolean.parseBoolean(score));
      default -> d.put("score", decimal("--score " + text.substring(0, eq), score));
    }
    d.put("evidence", text.substring(colon + 1));
    return d;
  }

  private static BigDecimal decimal(String what, String text) throws UsageException {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new UsageException(what + " must be a number, not '" + text + "'");
    }
  }
}
