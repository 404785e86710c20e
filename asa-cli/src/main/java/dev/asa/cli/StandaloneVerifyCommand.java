package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.Service;
import dev.asa.client.AsaClient;
import dev.asa.client.VerificationJob;
import dev.asa.client.VerificationView;
import dev.asa.document.StandaloneCriteria;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.Language;
import dev.asa.evaluators.StandaloneVerifier;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.evaluators.code.CodeDeliverables;
import dev.asa.evaluators.code.CodeEvaluator;
import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.evaluators.judge.LlmJudge;
import dev.asa.evaluators.offline.EmbeddingEvaluator;
import dev.asa.json.Json;
import dev.asa.scoring.VerificationResult;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code asa verify FILE}: a standalone verification (whitepaper 5.4), on this machine (the
 * structural checks, then the offline embedding model or an LLM judge, scored against the default
 * dimensions of the deliverable's type or {@code --criteria}) or, with {@code --server}, on a
 * server ({@code POST /verifications}).
 */
@Command(
    name = "verify",
    header = "Verifies a deliverable against what was asked and prints the verdict.",
    customSynopsis =
        "asa verify FILE --request TEXT [--type TYPE] [--depth structural|semantic|composite]"
            + " [--judge openai|anthropic ...] [--server URL] [--json]",
    description = {
      "Here and now on this machine, or with --server URL on that server (POST /verifications,"
          + " signed with --key; a semantic verification runs there as a job, followed here until"
          + " it ends).",
      "",
      "Without --judge the semantic evaluator here is the offline embedding model (no network):"
          + " it judges relevance, coverage, sources and writing, and reports what it cannot judge"
          + " (accuracy, correctness...) as not evaluated. Exit status 1 when the verdict is FAIL."
    })
final class StandaloneVerifyCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin JudgeOptions judgeOptions;

  @Parameters(paramLabel = "FILE", description = "the deliverable, a UTF-8 text file")
  String file;

  @Option(
      names = "--request",
      paramLabel = "TEXT",
      required = true,
      description = "what was asked for, in words")
  String request;

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      completionCandidates = Types.class,
      description =
          "deliverable type for the default dimensions: ${COMPLETION-CANDIDATES} (default general)")
  String type = "general";

  @Option(
      names = "--format",
      paramLabel = "F",
      description = "markdown, text, json, csv, code... (default: from the file name)")
  String format;

  @Option(
      names = "--depth",
      paramLabel = "D",
      description =
          "structural, semantic (default) or composite (semantic only if the structural checks"
              + " pass)")
  String depth = "semantic";

  @Option(
      names = "--evaluators",
      paramLabel = "N",
      description = "run the semantic evaluator N times and take the median (default 1)")
  String evaluators;

  @Option(
      names = "--criteria",
      paramLabel = "FILE.json",
      description = "quality_criteria in the agreement schema instead of the type's defaults")
  String criteriaFile;

  @Option(
      names = "--provider-model",
      paramLabel = "M",
      description = "the model that produced the work (a judge refuses to judge its own model)")
  String providerModel;

  @Option(
      names = "--spot-check",
      paramLabel = "N",
      description = "claims the judge checks one by one (default 0)")
  String spotCheck;

  @Option(
      names = "--max-cost",
      paramLabel = "USD",
      description = "refuse up front when the judge's estimated cost is above this")
  String maxCost;

  @Option(
      names = "--server",
      paramLabel = "URL",
      description =
          "verify on this ASA server instead of here (POST /verifications; --key signs the"
              + " request)")
  String server;

  @Option(
      names = "--key",
      paramLabel = "FILE",
      description = "with --server: your key file (default: $ASA_KEY)")
  String key;

  @Option(names = "--json", description = "print the whole result (section 5.2) as JSON")
  boolean json;

  /** The deliverable types with default dimensions, for the help and completion. */
  static final class Types implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return StandaloneCriteria.TYPES.iterator();
    }
  }

  @Override
  public Integer call() throws Exception {
    Asa root = Asa.of(spec);
    Session session =
        new Session(
            root.io(),
            server != null ? server : root.server,
            key != null ? key : root.key,
            json || root.json);
    String content = Inputs.textFile(file);
    if (!StandaloneCriteria.isKnownType(type)) {
      throw new UsageException(
          "--type must be one of "
              + String.join(", ", StandaloneCriteria.TYPES)
              + ", not '"
              + type
              + "'");
    }
    VerificationEngine.Depth depth;
    try {
      depth = VerificationEngine.Depth.fromWire(this.depth);
    } catch (InvalidDocumentException e) {
      throw new UsageException("--depth must be structural, semantic or composite");
    }
    int runs = Inputs.intValue("--evaluators", evaluators, 1, 1, 7);
    String format = this.format != null ? this.format : formatOf(file);
    // A code file's extension names its language, which the code evaluator needs to parse it.
    String taskType =
        type.equals("code")
            ? Language.ofPath(file).map(l -> "code/" + l.wireName()).orElse(type)
            : type;
    JsonNode result =
        server != null || root.server != null
            ? onServer(session, content, format, taskType, runs)
            : here(session, content, format, taskType, depth, runs);
    if (session.json()) {
      session.printJson(result);
    }
    VerificationView view = Views.read("the verification", result, VerificationView::from);
    if (!session.json()) {
      session.out().print(VerificationReport.formatResult(view));
    }
    return VerificationReport.exitCode(view);
  }

  /**
   * {@code POST /verifications}: a structural verification answers at once; a semantic one is a
   * job, followed until it ends, its stage shown on standard error.
   */
  private JsonNode onServer(
      Session session, String content, String format, String taskType, int runs)
      throws UsageException, CliException {
    if (judgeOptions.given() != null) {
      throw new UsageException(
          judgeOptions.given() + " chooses a judge here: with --server the server's judge works");
    }
    for (String[] local : new String[][] {{"--spot-check", spotCheck}, {"--max-cost", maxCost}}) {
      if (local[1] != null) {
        throw new UsageException(local[0] + " applies to a verification here, not with --server");
      }
    }
    ObjectNode body = Json.object();
    ObjectNode deliverable =
        body.putObject("deliverable")
            .put("content", content)
            .put("format", format)
            .put("type", taskType);
    if (providerModel != null) {
      deliverable.put("provider_model", providerModel);
    }
    body.putObject("original_request").put("description", request);
    if (criteriaFile != null) {
      body.set("quality_criteria", Inputs.jsonFile(criteriaFile));
    }
    ObjectNode config = body.putObject("verification_config").put("depth", depth);
    if (runs > 1) {
      ArrayNode names = config.putArray("evaluators");
      for (int i = 0; i < runs; i++) {
        names.add("agent_as_judge");
      }
    }
    AsaClient client = session.client();
    ObjectNode answer = client.requestVerification(body);
    if (!AsaClient.isPending(answer)) {
      return answer;
    }
    VerificationJob job = Views.read("POST /verifications", answer, VerificationJob::from);
    return VerificationJobs.await(session, job.verificationId());
  }

  /**
   * On this machine: the structural checks, then the embedding model, the code evaluator or a
   * judge.
   */
  private JsonNode here(
      Session session,
      String content,
      String format,
      String taskType,
      VerificationEngine.Depth depth,
      int runs)
      throws UsageException, CliException {
    JudgeConfig judge = judgeOptions.config(session);
    QualityCriteria criteria;
    boolean defaults = criteriaFile == null;
    try {
      criteria =
          defaults
              ? StandaloneCriteria.forType(type)
              : StandaloneCriteria.parse(
                  Json.object()
                      .setAll(
                          (com.fasterxml.jackson.databind.node.ObjectNode)
                              Inputs.jsonFile(criteriaFile)));
    } catch (ClassCastException e) {
      throw new CliException(criteriaFile + " must hold a JSON object (quality_criteria)");
    } catch (InvalidDocumentException e) {
      throw new CliException(criteriaFile + ": " + e.getMessage());
    }
    BigDecimal cap = null;
    if (maxCost != null) {
      try {
        cap = new BigDecimal(maxCost);
      } catch (NumberFormatException e) {
        throw new UsageException("--max-cost takes an amount in USD such as 0.05");
      }
      if (cap.signum() < 0) {
        throw new UsageException("--max-cost cannot be negative");
      }
    }
    EvaluationTask.Options options =
        new EvaluationTask.Options(
            null, Inputs.intValue("--spot-check", spotCheck, 0, 0, 20), cap, true);
    List<Evaluator> semantic = new ArrayList<>();
    if (depth != VerificationEngine.Depth.STRUCTURAL) {
      Evaluator evaluator =
          judge != null
              ? LlmJudge.create(judge)
              : CodeDeliverables.isCode(taskType, format)
                  ? new CodeEvaluator()
                  : new EmbeddingEvaluator();
      for (int i = 0; i < runs; i++) {
        semantic.add(evaluator);
      }
    }
    VerificationEngine.Plan plan = new VerificationEngine.Plan(depth, semantic, true);
    Deliverable deliverable = Deliverable.of(content, format, Instant.now());
    ProgressDisplay progress =
        session.json() ? ProgressDisplay.silent() : ProgressDisplay.on(session.err(), "verify");
    EvaluationTask task =
        new EvaluationTask(
            deliverable,
            request,
            taskType,
            criteria,
            Service.Constraints.NONE,
            null,
            providerModel,
            options,
            progress);
    VerificationResult result;
    try {
      result =
          new StandaloneVerifier(new VerificationEngine(new StructuralEvaluator()))
              .verify(
                  task,
                  plan,
                  defaults,
                  "ver-local-" + deliverable.contentHash().toString().substring(7, 19),
                  Instant.now().truncatedTo(ChronoUnit.MILLIS),
                  new Identity("local", System.getProperty("user.name", "cli"), null));
    } catch (EvaluationException e) {
      throw new CliException("the evaluation failed: " + e.getMessage(), exitCode(e.reason()));
    } catch (InvalidDocumentException e) {
      throw new CliException(e.getMessage());
    } finally {
      progress.finish();
    }
    return result.toJson();
  }

  /**
   * A judge that cannot be reached or answers nothing usable is exit status 4; a verification the
   * options themselves rule out (over --max-cost, the judge is the provider's own model) is 2.
   */
  static int exitCode(EvaluationException.Reason reason) {
    return switch (reason) {
      case UNAVAILABLE, UNUSABLE_OUTPUT -> Exit.UNREACHABLE;
      case COST_CAP, SELF_JUDGING, INVALID_TASK -> Exit.USAGE;
    };
  }

  private static String formatOf(String file) {
    String name = file.toLowerCase(Locale.ROOT);
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot + 1);
    return switch (ext) {
      case "md", "markdown" -> "markdown";
      case "json" -> "json";
      case "csv" -> "csv";
      case "yaml", "yml" -> "yaml";
      case "xml" -> "xml";
      case "html", "htm" -> "html";
      case "java", "py", "js", "ts", "go", "rs", "c", "cpp", "kt", "rb" -> "code";
      default -> "text";
    };
  }
}
