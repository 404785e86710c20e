package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.Service;
import dev.asa.agreement.StandaloneCriteria;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.StandaloneVerifier;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.evaluators.code.CodeDeliverables;
import dev.asa.evaluators.code.CodeEvaluator;
import dev.asa.evaluators.code.Language;
import dev.asa.evaluators.embedding.EmbeddingEvaluator;
import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.evaluators.judge.LlmJudge;
import dev.asa.json.Json;
import dev.asa.scoring.VerificationResult;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code asa verify FILE}: a standalone verification (whitepaper 5.4) on this machine, without a
 * server: the structural checks, then the offline embedding model or an LLM judge, scored against
 * the default dimensions of the deliverable's type (or {@code --criteria}).
 */
final class StandaloneVerifyCommand implements Command {

  private static final Usage USAGE = buildUsage();

  private static Usage buildUsage() {
    Usage u =
        Usage.of(
                "verify",
                "FILE --request TEXT [--type TYPE] [--depth structural|semantic|composite] [--judge openai|anthropic ...] [--json]",
                "Verifies a deliverable against what was asked, here and now, and prints the verdict.\n"
                    + "Without --judge the semantic evaluator is the offline embedding model (no network): it judges relevance,\n"
                    + "coverage, sources and writing, and reports what it cannot judge (accuracy, correctness...) as not evaluated.")
            .positional("FILE")
            .option(Option.required("--request", "TEXT", "what was asked for, in words"))
            .option(
                Option.value(
                    "--type",
                    "TYPE",
                    "deliverable type for the default dimensions: "
                        + String.join(", ", StandaloneCriteria.TYPES)
                        + " (default general)"))
            .option(
                Option.value(
                    "--format",
                    "F",
                    "markdown, text, json, csv, code... (default: from the file name)"))
            .option(
                Option.value(
                    "--depth",
                    "D",
                    "structural, semantic (default) or composite (semantic only if the structural checks pass)"))
            .option(
                Option.value(
                    "--evaluators",
                    "N",
                    "run the semantic evaluator N times and take the median (default 1)"))
            .option(
                Option.value(
                    "--criteria",
                    "FILE.json",
                    "quality_criteria in the agreement schema instead of the type's defaults"))
            .option(
                Option.value(
                    "--provider-model",
                    "M",
                    "the model that produced the work (a judge refuses to judge its own model)"))
            .option(
                Option.value("--spot-check", "N", "claims the judge checks one by one (default 0)"))
            .option(
                Option.value(
                    "--max-cost",
                    "USD",
                    "refuse up front when the judge's estimated cost is above this"))
            .option(Option.flag("--json", "print the whole result (section 5.2) as JSON"));
    for (Option o : JudgeOptions.options()) {
      u = u.option(o);
    }
    return u;
  }

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    String file = args.positional(0);
    String content = Inputs.textFile(file);
    String type = args.value("--type", "general");
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
      depth = VerificationEngine.Depth.fromWire(args.value("--depth", "semantic"));
    } catch (InvalidDocumentException e) {
      throw new UsageException("--depth must be structural, semantic or composite");
    }
    int runs = args.intValue("--evaluators", 1, 1, 7);
    JudgeConfig judge = JudgeOptions.config(args, session);
    QualityCriteria criteria;
    boolean defaults = !args.has("--criteria");
    try {
      criteria =
          defaults
              ? StandaloneCriteria.forType(type)
              : StandaloneCriteria.parse(
                  Json.object()
                      .setAll(
                          (com.fasterxml.jackson.databind.node.ObjectNode)
                              Inputs.jsonFile(args.value("--criteria"))));
    } catch (ClassCastException e) {
      throw new CliException(
          args.value("--criteria") + " must hold a JSON object (quality_criteria)");
    } catch (InvalidDocumentException e) {
      throw new CliException(args.value("--criteria") + ": " + e.getMessage());
    }
    BigDecimal maxCost = null;
    if (args.has("--max-cost")) {
      try {
        maxCost = new BigDecimal(args.value("--max-cost"));
      } catch (NumberFormatException e) {
        throw new UsageException("--max-cost takes an amount in USD such as 0.05");
      }
      if (maxCost.signum() < 0) {
        throw new UsageException("--max-cost cannot be negative");
      }
    }
    EvaluationTask.Options options =
        new EvaluationTask.Options(null, args.intValue("--spot-check", 0, 0, 20), maxCost, true);

    String format = args.value("--format", formatOf(file));
    // A code file's extension names its language, which the code evaluator needs to parse it.
    String taskType =
        type.equals("code")
            ? Language.ofPath(file).map(l -> "code/" + l.wireName()).orElse(type)
            : type;
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
    ProgressLine progress = new ProgressLine(session.err(), !args.flag("--json"));
    EvaluationTask task =
        new EvaluationTask(
            deliverable,
            args.value("--request"),
            taskType,
            criteria,
            Service.Constraints.NONE,
            null,
            args.value("--provider-model"),
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
      progress.clear();
      throw new CliException("the evaluation failed: " + e.getMessage());
    } catch (InvalidDocumentException e) {
      progress.clear();
      throw new CliException(e.getMessage());
    }
    progress.clear();
    JsonNode json = result.toJson();
    if (args.flag("--json")) {
      session
          .out()
          .println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json));
    } else {
      session.out().print(VerificationReport.formatResult(json));
    }
    return "PASS".equals(result.determination().result()) ? 0 : 1;
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

  /** One line on stderr, rewritten as the evaluation moves on, so a slow judge shows life. */
  private static final class ProgressLine implements dev.asa.evaluators.Progress {
    private final PrintStream err;
    private final boolean enabled;
    private int width;

    ProgressLine(PrintStream err, boolean enabled) {
      this.err = err;
      this.enabled = enabled;
    }

    @Override
    public synchronized void update(String stage, int done, int total) {
      if (!enabled) {
        return;
      }
      String line =
          "["
              + done
              + "/"
              + total
              + "] "
              + (stage.length() > 70 ? stage.substring(0, 67) + "..." : stage);
      err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
      err.flush();
      width = line.length();
    }

    synchronized void clear() {
      if (enabled && width > 0) {
        err.print("\r" + " ".repeat(width) + "\r");
        err.flush();
        width = 0;
      }
    }
  }
}
