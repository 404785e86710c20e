package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.StandaloneVerifier;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.evaluators.judgeeval.AnswerScorer;
import dev.asa.evaluators.judgeeval.Bootstrap;
import dev.asa.evaluators.judgeeval.JudgeReport;
import dev.asa.evaluators.judgeeval.JudgeRun;
import dev.asa.evaluators.judgeeval.LabelledFile;
import dev.asa.evaluators.judgeeval.LabelledFileException;
import dev.asa.evaluators.judgeeval.Scored;
import dev.asa.evaluators.judgeeval.StandaloneScorer;
import dev.asa.json.Json;
import dev.asa.server.verification.engine.EvaluationConfig;
import dev.asa.server.verification.engine.OfferedEvaluators;
import dev.asa.server.verification.engine.VerificationConfig;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code asa judge-eval FILE.jsonl}: how far a judge agrees with people, measured on records people
 * labelled. Each answer is verified standalone at semantic depth by the evaluators the server would
 * run for a {@code POST /verifications} asking for them (the same evaluators, plan and verifier),
 * so the figure describes the judge that decides payments; then the agreement (pairwise) or the
 * rank correlations (pointwise), overall and per category, with bootstrap intervals, and on request
 * the length baseline beside them.
 *
 * <p>Exit status: 0 done; 2 for a wrong command line; 5 for a file that cannot be used (missing, or
 * any bad line: nothing is scored then); 4 when an answer could not be evaluated (the judge
 * failed).
 */
@Command(
    name = "judge-eval",
    header =
        "Measures how far a judge agrees with people, on records they labelled, before you trust"
            + " it with payments.",
    customSynopsis =
        "asa judge-eval FILE.jsonl [--evaluators N|TYPE,...] [--judge openai|anthropic ...]"
            + " [--server URL [--key FILE]] [--baseline length] [--json]",
    description = {
      "FILE.jsonl holds one JSON object a line, all pairwise or all pointwise:",
      "  {\"request\", \"answer_a\", \"answer_b\", \"human\": \"a\"|\"b\", \"category\"?}"
          + "   agreement with the human pick",
      "  {\"request\", \"answer\", \"human_score\", \"category\"?}"
          + "                     Spearman and Kendall tau-b",
      "optionally with \"type\" (the deliverable type whose default dimensions score it;"
          + " general), \"format\" and \"id\".",
      "",
      "Each answer is verified standalone at semantic depth, as POST /verifications does; the pick"
          + " is the higher composite (a tie is a miss). A bad line stops the run before anything"
          + " is scored (exit 5), naming its line and member; a file mixing both kinds is refused."
          + " Intervals: percentile bootstrap, 95%%. The judge is the server's default evaluator:"
          + " the LLM judge with --judge, else the offline embedding model.",
      "",
      "With --server URL, each answer is sent to that server's POST /verifications instead,"
          + " signed with --key, and the figure is its judge's, as configured there."
    })
final class JudgeEvalCommand implements Callable<Integer> {

  /** Problems of a bad file printed before "... and N more". */
  static final int PROBLEMS_SHOWN = 20;

  @Spec CommandSpec spec;

  @Mixin JudgeOptions judgeOptions;

  @Parameters(paramLabel = "FILE", description = "the labelled records, JSON Lines")
  String file;

  @Option(
      names = "--evaluators",
      paramLabel = "N|TYPE,...",
      description =
          "N runs of the default evaluator, or types such as embedding,agent_as_judge (as"
              + " verification_config.evaluators)")
  String evaluators;

  @Option(
      names = "--baseline",
      paramLabel = "length",
      description =
          "also the longer-answer baseline (pairwise) or the length's correlation (pointwise)")
  String baseline;

  @Option(
      names = "--resamples",
      paramLabel = "N",
      description = "bootstrap resamples (default ${DEFAULT-VALUE})")
  String resamples = String.valueOf(Bootstrap.DEFAULT.resamples());

  @Option(
      names = "--seed",
      paramLabel = "S",
      description = "bootstrap seed (default ${DEFAULT-VALUE})")
  String seed = String.valueOf(Bootstrap.DEFAULT.seed());

  @Option(
      names = "--workers",
      paramLabel = "N",
      description = "answers verified at once (default 2, as asa serve --verification-workers)")
  String workers;

  @Option(
      names = "--server",
      paramLabel = "URL",
      description =
          "measure the judge of this ASA server, from outside: each answer through its POST"
              + " /verifications (--key signs the requests)")
  String server;

  @Option(
      names = "--key",
      paramLabel = "FILE",
      description = "with --server: your key file (default: $ASA_KEY)")
  String key;

  @Option(
      names = "--json",
      description = "print one JSON document: every figure, and each record's scores and picks")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Asa root = Asa.of(spec);
    String serverUrl = server != null ? server : root.server;
    Session session =
        new Session(root.io(), serverUrl, key != null ? key : root.key, json || root.json);
    boolean withBaseline = false;
    if (baseline != null) {
      if (!baseline.equals("length")) {
        throw new UsageException("--baseline must be length, not '" + baseline + "'");
      }
      withBaseline = true;
    }
    int resamples =
        Inputs.intValue("--resamples", this.resamples, Bootstrap.DEFAULT.resamples(), 100, 100_000);
    long seed = seed(this.seed);
    int workers = Inputs.intValue("--workers", this.workers, 2, 1, 16);
    if (serverUrl != null && judgeOptions.given() != null) {
      throw new UsageException(
          judgeOptions.given() + " chooses a judge here: with --server the server's judge works");
    }
    if (serverUrl == null && key != null) {
      throw new UsageException("--key signs requests to a server: give --server URL too");
    }
    JudgeConfig judge = serverUrl == null ? judgeOptions.config(session) : null;
    List<String> types = evaluatorTypes(evaluators);

    LabelledFile labelled;
    try {
      labelled = LabelledFile.read(Path.of(file));
    } catch (NoSuchFileException e) {
      return badFile(session, "no such file: " + file);
    } catch (AccessDeniedException e) {
      return badFile(session, "permission denied: " + file);
    } catch (IOException e) {
      return badFile(session, file + " cannot be read: " + e.getMessage());
    } catch (LabelledFileException e) {
      return badFile(session, e, file);
    }

    AnswerScorer scorer;
    List<String> evaluatorIds;
    ServerScorer remote = null;
    if (serverUrl != null) {
      remote = new ServerScorer(session.client(), types);
      scorer = remote;
      evaluatorIds = null; // named by the server's results
    } else {
      // The server's own evaluators and plan: what POST /verifications at semantic depth
      // runs.
      OfferedEvaluators offered = VerificationConfig.standard(judge, workers).offered();
      VerificationEngine.Plan plan = plan(offered, types, judge);
      scorer =
          new StandaloneScorer(
              new StandaloneVerifier(new VerificationEngine(new StructuralEvaluator())), plan);
      evaluatorIds = plan.semantic().stream().map(Evaluator::id).toList();
    }

    ProgressDisplay progress = ProgressDisplay.on(session.err(), "judge-eval");
    List<List<Scored>> scores;
    try {
      scores = JudgeRun.score(labelled.records(), scorer, workers, progress);
    } catch (JudgeRun.FailedException e) {
      progress.finish();
      throw new CliException(
          "stopped: an answer could not be evaluated, so no figure is given: " + e.getMessage(),
          Exit.UNREACHABLE);
    }
    progress.finish();
    if (remote != null) {
      evaluatorIds = remote.evaluatorsSeen();
    }
    JudgeReport report =
        JudgeReport.of(labelled, scores, new Bootstrap(resamples, seed), withBaseline);

    if (session.json()) {
      ObjectNode document = Json.object();
      document.put("file", file);
      if (serverUrl != null) {
        document.put("server", serverUrl);
      }
      document.put("depth", "semantic");
      document.set("evaluators", Json.mapper().valueToTree(evaluatorIds));
      document.setAll(report.toJson());
      session.printJson(document);
    } else {
      session.out().print(JudgeEvalText.render(report, file, evaluatorIds, serverUrl));
    }
    return Exit.OK;
  }

  /** The plan the server makes for a request naming these evaluator types at semantic depth. */
  private static VerificationEngine.Plan plan(
      OfferedEvaluators offered, List<String> types, JudgeConfig judge) throws UsageException {
    for (String type : types) {
      if (type != null && offered.evaluator(type).isEmpty()) {
        throw new UsageException(
            "--evaluators: there is no '"
                + type
                + "' evaluator; there are "
                + String.join(", ", offered.types())
                + (judge == null ? " (agent_as_judge needs --judge openai|anthropic)" : ""));
      }
    }
    return offered.plan(
        new EvaluationConfig(
            VerificationEngine.Depth.SEMANTIC,
            types,
            true,
            null,
            dev.asa.agreement.EvaluatorSettings.NONE),
        VerificationEngine.Depth.SEMANTIC);
  }

  private static long seed(String s) throws UsageException {
    if (s == null) {
      return Bootstrap.DEFAULT.seed();
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new UsageException("--seed must be a whole number, not '" + s + "'");
    }
  }

  /**
   * The types of {@code --evaluators}, one entry a run, null for the default type; empty for one
   * run of the default, as a request without {@code evaluators}.
   */
  static List<String> evaluatorTypes(String v) throws UsageException {
    if (v == null) {
      return List.of();
    }
    if (v.chars().allMatch(Character::isDigit) && !v.isEmpty()) {
      int n = Inputs.intValue("--evaluators", v, 1, 1, EvaluationConfig.MAX_EVALUATORS);
      return Collections.nCopies(n, null);
    }
    List<String> types = new ArrayList<>();
    for (String t : v.split(",", -1)) {
      if (t.isBlank()) {
        throw new UsageException(
            "--evaluators takes a count or a comma-separated list of types, not '" + v + "'");
      }
      types.add(t.strip());
    }
    if (types.size() > EvaluationConfig.MAX_EVALUATORS) {
      throw new UsageException(
          "--evaluators lists at most " + EvaluationConfig.MAX_EVALUATORS + " evaluators");
    }
    return types;
  }

  private static int badFile(Session session, String message) {
    session.err().println("asa judge-eval: " + message);
    return Exit.LOCAL_IO;
  }

  private static int badFile(Session session, LabelledFileException e, String file) {
    List<LabelledFileException.Problem> problems = e.problems();
    session
        .err()
        .println(
            "asa judge-eval: "
                + file
                + " cannot be used ("
                + problems.size()
                + (problems.size() == 1 ? " problem" : " problems")
                + "); nothing was scored:");
    problems.stream().limit(PROBLEMS_SHOWN).forEach(p -> session.err().println("  " + p));
    if (problems.size() > PROBLEMS_SHOWN) {
      session.err().println("  ... and " + (problems.size() - PROBLEMS_SHOWN) + " more");
    }
    return Exit.LOCAL_IO;
  }
}
