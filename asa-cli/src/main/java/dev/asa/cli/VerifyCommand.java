package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.List;

/**
 * {@code asa agreements verify}: scores the delivered work. The server measures what it can by
 * itself (format, timeliness...); the judgement dimensions come from the evaluator, here on the
 * command line with {@code --score} or as a whole {@code evaluator_result} with {@code --result}.
 */
final class VerifyCommand implements Command {

  private static final List<String> SCORE_OPTIONS =
      List.of("--score", "--check", "--confidence", "--model");

  private static final Usage USAGE =
      Usage.of(
              "agreements verify",
              "ID [--score NAME=SCORE:EVIDENCE ...] [--check NAME=true|false ...] [--confidence C] [--model M] [--result FILE.json]",
              "Scores the delivered work and prints the verdict.\n"
                  + "Each dimension's score against its SLO, the composite, the determination and the share of the\n"
                  + "payment released. Without scores the server scores only\n"
                  + "what it can measure itself; it names any dimension still missing a score.")
          .positional("ID")
          .option(
              Option.repeated(
                  "--score",
                  "NAME=SCORE:EVIDENCE",
                  "the evaluator's score for a dimension and what it rests on, e.g. accuracy=88:'3 of 3 claims check out'"))
          .option(
              Option.repeated(
                  "--check",
                  "NAME=true|false",
                  "a named check used by quality gates, e.g. all_tests_pass=true"))
          .option(Option.value("--confidence", "C", "the evaluator's confidence, 0 to 1"))
          .option(Option.value("--model", "M", "the model that judged"))
          .option(
              Option.value(
                  "--result",
                  "FILE.json",
                  "a whole evaluator_result {dimensions, checks, model, confidence} instead"))
          .server();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    JsonNode evaluatorResult = evaluatorResult(args);
    String id = args.positional(0);
    ObjectNode answer =
        evaluatorResult == null
            ? session.client().verify(id)
            : session.client().verify(id, evaluatorResult);
    if (dev.asa.client.AsaClient.isPending(answer)) {
      // The server's own evaluators work in the background (semantic or composite depth): wait for
      // the verdict, then report it as a verification at structural depth is reported.
      String verificationId = answer.path("verification_id").asText();
      session.err().println("verification " + verificationId + " is running on the server...");
      JsonNode result =
          session
              .client()
              .awaitVerification(verificationId, java.time.Duration.ofMinutes(15), p -> {});
      ObjectNode done = dev.asa.json.Json.object();
      done.put("agreement_id", id);
      done.put("state", session.client().agreement(id).path("state").asText());
      done.set("verification", result);
      answer = done;
    }
    session.print(answer, VerificationReport::format);
    return 0;
  }

  /** The evaluator's result from the options, or null when none was given. */
  static JsonNode evaluatorResult(Arguments args) throws UsageException, CliException {
    if (args.has("--result")) {
      for (String option : SCORE_OPTIONS) {
        args.exclusive("--result", option);
      }
      return Inputs.jsonFile(args.value("--result"));
    }
    if (SCORE_OPTIONS.stream().noneMatch(args::has)) {
      return null;
    }
    ObjectNode result = Json.object();
    ArrayNode dimensions = result.putArray("dimensions");
    for (String score : args.values("--score")) {
      dimensions.add(score(score));
    }
    if (args.has("--check")) {
      ObjectNode checks = result.putObject("checks");
      for (String check : args.values("--check")) {
        int eq = check.indexOf('=');
        String value = eq > 0 ? check.substring(eq + 1) : "";
        if (!value.equals("true") && !value.equals("false")) {
          throw new UsageException("--check needs NAME=true or NAME=false, not '" + check + "'");
        }
        checks.put(check.substring(0, eq), Boolean.parseBoolean(value));
      }
    }
    if (args.has("--confidence")) {
      result.put("confidence", decimal("--confidence", args.value("--confidence")));
    }
    if (args.has("--model")) {
      result.put("model", args.value("--model"));
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
