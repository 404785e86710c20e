package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.EvaluatorTask;
import dev.asa.client.TaskReceipt;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa evaluator tasks|show|submit}: an evaluator's work queue, read and answered with its
 * own key. Real work and canary tasks look alike and are answered alike; the answer is
 * acknowledged, and the verdict appears on the agreement once every task of the delivery is
 * answered.
 */
@Command(
    name = "evaluator",
    header = "Reads and answers your evaluator work queue, with your evaluator key.",
    customSynopsis = "asa evaluator COMMAND ...",
    subcommands = {
      EvaluatorTaskCommands.Tasks.class,
      EvaluatorTaskCommands.ShowTask.class,
      EvaluatorTaskCommands.Submit.class
    })
final class EvaluatorTaskCommands extends Group {

  /** {@code asa evaluator tasks}: the caller's open tasks, soonest due first. */
  @Command(
      name = "tasks",
      header = "Lists your open evaluation tasks, soonest due first.",
      customSynopsis = "asa evaluator tasks",
      description =
          "The queue is your evaluator key's (--key, or $ASA_KEY). Each task shows its service"
              + " type, deadline, deliverable, the dimensions to score and the request. Real work"
              + " and canary tasks look alike: judge each with care. Show one whole with 'asa"
              + " evaluator show TASK_ID'; answer it with 'asa evaluator submit'.")
  static final class Tasks implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      requireKey(session);
      ObjectNode answer = session.client().evaluatorTasks();
      List<EvaluatorTask> tasks = Views.read(QUEUE, answer, EvaluatorTask::listFrom);
      session.print(answer, json -> table(tasks));
      return Exit.OK;
    }
  }

  /** {@code asa evaluator show TASK_ID}: one open task, whole: criteria and deliverable. */
  @Command(
      name = "show",
      header = "Shows one of your open tasks whole.",
      customSynopsis = "asa evaluator show TASK_ID",
      description =
          "The request, the criteria of each dimension to score, and the deliverable's content (or"
              + " its URL and digest), then how to answer it.")
  static final class ShowTask implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "TASK_ID", description = "the task, as 'asa evaluator tasks' lists it")
    String id;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      requireKey(session);
      EvaluatorTask task = null;
      for (EvaluatorTask t :
          Views.read(QUEUE, session.client().evaluatorTasks(), EvaluatorTask::listFrom)) {
        if (t.taskId().equals(id)) {
          task = t;
        }
      }
      if (task == null) {
        throw new CliException(
            "no open task '"
                + id
                + "' in your work queue (answered, past its deadline, or not yours);"
                + " 'asa evaluator tasks' lists your open tasks",
            Exit.REFUSED);
      }
      EvaluatorTask shown = task;
      session.print(shown.json(), json -> whole(shown));
      return Exit.OK;
    }
  }

  /** {@code asa evaluator submit TASK_ID ...}: answers one task with the evaluator's scores. */
  @Command(
      name = "submit",
      header = "Answers one of your open tasks with your scores.",
      customSynopsis =
          "asa evaluator submit TASK_ID (--scores FILE|- | --score NAME=SCORE[:EVIDENCE] [--evidence"
              + " NAME=TEXT] ...) [--check NAME=true|false ...] [--model M] [--confidence C]",
      description =
          "Score every dimension the task lists, each once, from 0 to 100 (true or false for a"
              + " boolean dimension), each with the evidence it rests on. The server acknowledges"
              + " the answer; the verdict is recorded on the agreement once every task of that"
              + " delivery is answered, never in this answer. A task takes one answer, before its"
              + " deadline.")
  static final class Submit implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "TASK_ID", description = "the task, as 'asa evaluator tasks' lists it")
    String id;

    @Option(
        names = "--scores",
        paramLabel = "FILE|-",
        description =
            "the evaluator_result as JSON, from a file or standard input (-): {\"dimensions\":"
                + " [{\"name\", \"score\", \"evidence\"}, ...], \"checks\"?, \"model\"?,"
                + " \"confidence\"?}")
    String scoresFile;

    @Option(
        names = "--score",
        paramLabel = "NAME=SCORE[:EVIDENCE]",
        description =
            "a dimension's score, e.g. accuracy=88, relevance=90:'on topic throughout' or"
                + " timeliness=true")
    List<String> scores = new ArrayList<>();

    @Option(
        names = "--evidence",
        paramLabel = "NAME=TEXT",
        description = "what a score rests on, e.g. accuracy='3 of 3 claims check out'")
    List<String> evidence = new ArrayList<>();

    @Option(
        names = "--check",
        paramLabel = "NAME=true|false",
        description = "a named check the criteria's quality gates use, e.g. all_tests_pass=true")
    List<String> checks = new ArrayList<>();

    @Option(names = "--model", paramLabel = "M", description = "the model that judged")
    String model;

    @Option(
        names = "--confidence",
        paramLabel = "C",
        description = "your confidence in the scores, 0 to 1")
    String confidence;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      ObjectNode result = evaluatorResult(session);
      requireKey(session);
      JsonNode answer = session.client().answerTask(id, result);
      if (session.json()) {
        session.printJson(answer);
        return Exit.OK;
      }
      TaskReceipt ack =
          Views.read("POST /evaluator/tasks/" + id + "/result", answer, TaskReceipt::from);
      session
          .out()
          .println("answered " + ack.taskId() + ": " + ack.status() + " at " + ack.receivedAt());
      session
          .out()
          .println(
              "the verdict is recorded on the agreement once every task of the delivery is answered");
      return Exit.OK;
    }

    /** The evaluator_result the options describe, checked as far as it can be without the task. */
    ObjectNode evaluatorResult(Session session) throws UsageException, CliException {
      if (scoresFile != null) {
        String other =
            !scores.isEmpty()
                ? "--score"
                : !evidence.isEmpty() ? "--evidence" : !checks.isEmpty() ? "--check" : null;
        if (other != null) {
          throw new UsageException("--scores and " + other + " cannot be used together");
        }
        ObjectNode result = fromFile(scoresFile, session);
        if (model != null) {
          requireAbsent(result, "model", "--model", scoresFile);
          result.put("model", model);
        }
        if (confidence != null) {
          requireAbsent(result, "confidence", "--confidence", scoresFile);
          result.put("confidence", confidence(confidence));
        }
        return result;
      }
      if (scores.isEmpty()) {
        throw new UsageException(
            "missing --scores FILE or --score NAME=SCORE: score every dimension the task lists");
      }
      Map<String, ObjectNode> byName = new LinkedHashMap<>();
      for (String text : scores) {
        ObjectNode d = score(text);
        String name = d.path("name").asText();
        if (byName.putIfAbsent(name, d) != null) {
          throw new UsageException("--score " + name + " is given more than once");
        }
      }
      for (String text : evidence) {
        int eq = text.indexOf('=');
        if (eq <= 0 || text.substring(eq + 1).isBlank()) {
          throw new UsageException(
              "--evidence needs NAME=TEXT (what the score rests on), not '" + text + "'");
        }
        String name = text.substring(0, eq);
        ObjectNode d = byName.get(name);
        if (d == null) {
          throw new UsageException(
              "--evidence " + name + " has no score: add --score " + name + "=SCORE");
        }
        if (d.has("evidence")) {
          throw new UsageException(
              "the evidence for " + name + " is given twice (in --score and --evidence)");
        }
        d.put("evidence", text.substring(eq + 1));
      }
      ObjectNode result = Json.object();
      ArrayNode dimensions = result.putArray("dimensions");
      for (ObjectNode d : byName.values()) {
        if (!d.has("evidence")) {
          String name = d.path("name").asText();
          throw new UsageException(
              "--score "
                  + name
                  + " has no evidence: add --evidence "
                  + name
                  + "=TEXT (what the score rests on)");
        }
        dimensions.add(d);
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
      if (model != null) {
        result.put("model", model);
      }
      if (confidence != null) {
        result.put("confidence", confidence(confidence));
      }
      return result;
    }

    /**
     * {@code accuracy=88}, {@code accuracy=88:3 of 3 claims hold} or {@code timeliness=true} as
     * {@code {name, score, evidence?}}; the evidence may hold colons.
     */
    static ObjectNode score(String text) throws UsageException {
      int eq = text.indexOf('=');
      if (eq <= 0) {
        throw new UsageException(
            "--score needs NAME=SCORE, e.g. accuracy=88 or timeliness=true, not '" + text + "'");
      }
      String name = text.substring(0, eq);
      int colon = text.indexOf(':', eq);
      String value = colon < 0 ? text.substring(eq + 1) : text.substring(eq + 1, colon);
      ObjectNode d = Json.object();
      d.put("name", name);
      switch (value) {
        case "true", "false" -> d.put("score", Boolean.parseBoolean(value));
        default -> d.put("score", points("--score " + name, value));
      }
      if (colon >= 0) {
        String evidence = text.substring(colon + 1);
        if (evidence.isBlank()) {
          throw new UsageException(
              "--score " + name + " has an empty evidence after ':'; say what the score rests on");
        }
        d.put("evidence", evidence);
      }
      return d;
    }

    private static BigDecimal points(String what, String text) throws UsageException {
      try {
        BigDecimal n = new BigDecimal(text);
        if (n.signum() >= 0 && n.compareTo(BigDecimal.valueOf(100)) <= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new UsageException(
          what + " must be a score from 0 to 100, or true or false, not '" + text + "'");
    }

    private static BigDecimal confidence(String text) throws UsageException {
      try {
        BigDecimal c = new BigDecimal(text);
        if (c.signum() >= 0 && c.compareTo(BigDecimal.ONE) <= 0) {
          return c;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new UsageException("--confidence must be a number from 0 to 1, not '" + text + "'");
    }

    /**
     * The file's evaluator_result: the object itself, or the {@code evaluator_result} of a whole
     * request body {@code {"evaluator_result": {...}}}.
     */
    private static ObjectNode fromFile(String file, Session session) throws CliException {
      JsonNode json = Inputs.jsonFileOrStdin(file, session.in());
      String name = file.equals("-") ? "standard input" : file;
      if (json instanceof ObjectNode o
          && o.size() == 1
          && o.get("evaluator_result") instanceof ObjectNode inner) {
        json = inner;
      }
      if (!(json instanceof ObjectNode result)) {
        throw new CliException(
            name
                + " must hold a JSON object, the evaluator_result:"
                + " {\"dimensions\": [{\"name\", \"score\", \"evidence\"}, ...]}");
      }
      return result;
    }

    private static void requireAbsent(ObjectNode result, String member, String option, String file)
        throws UsageException {
      if (result.has(member)) {
        throw new UsageException(
            option
                + " and the \""
                + member
                + "\" in "
                + (file.equals("-") ? "standard input" : file)
                + " cannot be used together; give it in one place");
      }
    }
  }

  /** The queue is the evaluator's own: it is read and answered only with the evaluator's key. */
  static void requireKey(Session session) throws UsageException {
    if (session.keyFileName() == null) {
      throw new UsageException(
          "missing --key: the work queue is your evaluator key's own; pass --key FILE or set"
              + " ASA_KEY");
    }
  }

  private static final String QUEUE = "GET /evaluator/tasks";

  /** The open tasks as a table, soonest due first, and how to go on. */
  static String table(List<EvaluatorTask> tasks) {
    if (tasks.isEmpty()) {
      return "no open tasks\n";
    }
    Table t =
        Table.withHeaders(
            "TASK", "SERVICE TYPE", "DEADLINE", "DELIVERABLE", "DIMENSIONS", "REQUEST");
    for (EvaluatorTask task : tasks) {
      t.row(
          task.taskId(),
          task.serviceType(),
          seconds(task.deadline()),
          deliverable(task),
          Formats.list(task.dimensions()),
          Formats.cut(task.description(), 60));
    }
    return t.render()
        + tasks.size()
        + (tasks.size() == 1 ? " open task" : " open tasks")
        + "; show one with 'asa evaluator show TASK_ID', answer with 'asa evaluator submit TASK_ID'\n";
  }

  /** {@code 412 bytes, markdown}, or {@code by URL, sha256 0123456789ab}. */
  static String deliverable(EvaluatorTask task) {
    String format = task.format().map(f -> ", " + f).orElse("");
    if (task.content().isPresent()) {
      return task.content().get().getBytes(StandardCharsets.UTF_8).length + " bytes" + format;
    }
    return "by URL, sha256 " + Formats.shortHash(task.contentHash().orElse("")) + format;
  }

  /** One task whole: what was asked, how each dimension is judged, the deliverable itself. */
  static String whole(EvaluatorTask task) {
    String id = task.taskId();
    // The request's constraints and the criteria are the agreement's own terms (the protocol's
    // document), read as asa agreements get reads them.
    JsonNode terms = task.json();
    Table t =
        Table.plain()
            .row("task", id)
            .row("service type", task.serviceType())
            .row("deadline", seconds(task.deadline()))
            .row("created", seconds(task.createdAt()))
            .row("deliverable", deliverable(task));
    JsonNode constraints = terms.path("request").path("constraints");
    if (constraints.isObject() && !constraints.isEmpty()) {
      StringBuilder c = new StringBuilder();
      constraints
          .properties()
          .forEach(p ->
              c.append(c.isEmpty() ? "" : ", ")
                  .append(p.getKey())
                  .append(' ')
                  .append(Formats.target(p.getValue())));
      t.row("constraints", c);
    }
    StringBuilder s = new StringBuilder(t.render());
    s.append("\nrequest:\n").append(indent(task.description())).append('\n');

    JsonNode criteria = terms.path("criteria");
    Table dims = Table.withHeaders("DIMENSION", "METRIC", "SLO", "WEIGHT", "WHAT IT MEASURES");
    for (JsonNode d : criteria.path("dimensions")) {
      dims.row(
          d.path("name").asText(),
          d.path("metric").asText(),
          Formats.slo(d.path("slo")),
          Formats.number(d.path("weight")),
          d.path("description").asText(""));
    }
    s.append("\nscore each dimension (0 to 100; true or false when boolean):\n")
        .append(dims.render());
    if (criteria.has("composite_threshold")) {
      s.append("composite threshold: ")
          .append(Formats.number(criteria.path("composite_threshold")))
          .append('\n');
    }
    JsonNode gates = criteria.path("quality_gates");
    if (gates.isArray() && !gates.isEmpty()) {
      StringBuilder g = new StringBuilder();
      gates.forEach(
          gate -> g.append(g.isEmpty() ? "" : ", ").append(gate.path("condition").asText()));
      s.append("quality gates (")
          .append(criteria.path("gate_logic").asText("all_must_pass"))
          .append("): ")
          .append(g)
          .append('\n');
    }

    if (task.content().isPresent()) {
      s.append("\ndeliverable:\n").append(indent(task.content().get())).append('\n');
    } else {
      s.append("\ndeliverable: fetch ")
          .append(task.contentUrl().orElse(""))
          .append(" and check its digest ")
          .append(task.contentHash().orElse(""))
          .append('\n');
    }

    StringBuilder example = new StringBuilder("asa evaluator submit ").append(id);
    for (String name : task.dimensions()) {
      example
          .append(" \\\n    --score ")
          .append(name)
          .append("=SCORE --evidence ")
          .append(name)
          .append("=TEXT");
    }
    s.append("\nanswer with:\n  ").append(example).append('\n');
    return s.toString();
  }

  /** An instant to the second, as people read it ({@code --json} keeps the server's precision). */
  private static String seconds(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** Text set off by two spaces a line, so that it stands apart from the labels around it. */
  private static String indent(String text) {
    StringBuilder s = new StringBuilder();
    for (String line : text.strip().split("\n", -1)) {
      s.append(line.isEmpty() ? "" : "  " + line).append('\n');
    }
    return s.toString().stripTrailing();
  }
}
