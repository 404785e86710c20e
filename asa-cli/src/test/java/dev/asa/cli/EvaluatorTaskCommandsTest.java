package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.pool.CanaryFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asa evaluator tasks|show|submit} against the real server started in this JVM, the way the
 * pooled-evaluator walk-through of docs/walkthroughs.md runs them: an evaluator registers,
 * qualifies on a canary from its work queue, is assigned to an agreement that names no evaluator,
 * finds the delivery in its queue and answers it; and every bad answer is named, by the CLI before
 * any request or by the server with its pointer.
 */
class EvaluatorTaskCommandsTest {

  record Result(int status, String out, String err) {
    JsonNode json() throws Exception {
      return Json.parse(out);
    }
  }

  /** One known-bad canary posing as general work, as an operator's canary file holds it. */
  static final String CANARY =
      """
      {"id": "general-bad-01", "service_type": "general",
       "request": {"description": "Explain how a browser checks a TLS certificate"},
       "deliverable": {"content": "# Certificates\\n\\nBrowsers check certificates.\\n", "format": "markdown"},
       "criteria": {"dimensions": [
           {"name": "accuracy", "weight": 0.5, "metric": "percentage", "slo": {"operator": "gte", "value": 80}},
           {"name": "completeness", "weight": 0.5, "metric": "percentage", "slo": {"operator": "gte", "value": 70}}],
         "composite_threshold": 70},
       "known_scores": {"accuracy": 20, "completeness": 10}, "tolerance": 15}
      """
          .replace("\n", " ")
          .strip();

  static final String REPORT =
      "# Federated learning and privacy\n\n"
          + "Differential privacy bounds what a trained model reveals about any one record.\n";

  @TempDir Path dir;
  private AsaServer server;
  private String url;
  private String client;
  private String provider;
  private String evaluator;

  @BeforeEach
  void start() throws Exception {
    Path canaries = dir.resolve("canaries.jsonl");
    Files.writeString(canaries, CANARY + "\n");
    // One canary to qualify on (as asa serve --qualify-min-evaluations 1 --canaries FILE), so that
    // the test runs the whole path of a newly registered evaluator. The CLI signs with the real
    // time, so the server keeps the real clock.
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withQualification(
                    new QualificationPolicy(1, new BigDecimal("0.90"), BigDecimal.TEN))
                .withCanaries(CanaryFile.read(canaries)));
    url = server.url("127.0.0.1");
    client = dir.resolve("client.key").toString();
    provider = dir.resolve("provider.key").toString();
    evaluator = dir.resolve("evaluator.key").toString();
    asa("keys", "new", "--out", client);
    asa("keys", "new", "--out", provider);
    asa("keys", "new", "--out", evaluator);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Result run(String... args) {
    return run(Map.of(), "", args);
  }

  private Result run(Map<String, String> env, String stdin, String... args) {
    Map<String, String> all = new HashMap<>(env);
    all.put("ASA_SERVER", url);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(all)
            .run(
                args,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Result asa(String... args) {
    return succeeds(run(args), args);
  }

  private static Result succeeds(Result r, String... args) {
    assertThat(r.status())
        .as("asa %s\nstdout: %s\nstderr: %s", String.join(" ", args), r.out(), r.err())
        .isZero();
    return r;
  }

  private static void refused(Result r, int status, String... messages) {
    assertThat(r.status()).as("stdout: %s\nstderr: %s", r.out(), r.err()).isEqualTo(status);
    assertThat(r.err()).contains(messages);
  }

  /**
   * The evaluator registers and answers its qualification canary from standard input; then a pooled
   * agreement is signed (the evaluator is assigned), funded and delivered.
   */
  private String qualifiedAndDelivered() throws Exception {
    asa(
        "evaluators",
        "register",
        "--key",
        evaluator,
        "--identity",
        "judge-7",
        "--name",
        "Judge Seven",
        "--service-type",
        "general",
        "--organization",
        "Impartial Ltd");
    Result canaries = asa("evaluator", "tasks", "--key", evaluator);
    assertThat(canaries.out())
        .startsWith("TASK")
        .contains("general")
        .contains("accuracy, completeness")
        .contains("Explain how a browser checks a TLS certificate")
        .contains("1 open task;");
    String canary =
        asa("evaluator", "tasks", "--key", evaluator, "--json")
            .json()
            .path("tasks")
            .get(0)
            .path("task_id")
            .asText();
    String answer =
        """
        {"dimensions": [
          {"name": "accuracy", "score": 25, "evidence": "no claim is explained"},
          {"name": "completeness", "score": 10, "evidence": "none of the steps"}]}
        """;
    String[] submit = {"evaluator", "submit", canary, "--scores", "-", "--key", evaluator};
    assertThat(succeeds(run(Map.of(), answer, submit), submit).out())
        .startsWith("answered " + canary + ": received at ");
    // Qualified now (the draw reads the record as it is), but the record it is shown moves only
    // every 10 changes, so that no single answer's outcome can be read off it.
    assertThat(asa("evaluators", "show", "--key", evaluator).out()).doesNotContain("1 of 1 passed");
    assertThat(asa("evaluator", "tasks", "--key", evaluator).out()).isEqualTo("no open tasks\n");

    String id =
        asa(
                "agreements",
                "create",
                "--template",
                "general",
                "--client-key",
                client,
                "--provider-key",
                provider,
                "--description",
                "Summarise recent work on federated learning privacy",
                "--amount",
                "10.00",
                "--currency",
                "USD",
                "--json")
            .json()
            .path("agreement_id")
            .asText();
    asa("agreements", "sign", id, "--key", client, "--as", "client");
    JsonNode active =
        asa("agreements", "sign", id, "--key", provider, "--as", "provider", "--json").json();
    assertThat(active.path("state").asText()).isEqualTo("ACTIVE");
    assertThat(
            active
                .at("/agreement/metadata/assigned_evaluators/evaluators/0/identity/value")
                .asText())
        .isEqualTo("judge-7");
    asa("agreements", "fund", id, "--key", client);
    asa(
        "agreements",
        "deliver",
        id,
        "--key",
        provider,
        "--content",
        REPORT,
        "--format",
        "markdown");
    return id;
  }

  private String onlyTask() throws Exception {
    JsonNode tasks = asa("evaluator", "tasks", "--key", evaluator, "--json").json().path("tasks");
    assertThat(tasks).hasSize(1);
    return tasks.get(0).path("task_id").asText();
  }

  private String state(String id) throws Exception {
    return asa("agreements", "status", id, "--key", client, "--json").json().path("state").asText();
  }

  @Test
  void theEvaluatorListsShowsAndAnswersItsTaskAndTheAgreementIsVerified() throws Exception {
    assertThat(asa("evaluators", "register", "--help").out()).contains("--service-type TYPE");
    String id = qualifiedAndDelivered();

    Result listed = asa("evaluator", "tasks", "--key", evaluator);
    assertThat(listed.out())
        .containsPattern(
            "tsk-\\S+ +general +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ +"
                + REPORT.getBytes(StandardCharsets.UTF_8).length
                + " bytes, markdown +accuracy, completeness, relevance, timeliness +Summarise recent"
                + " work on federated learning privacy");
    String task = onlyTask();

    Result shown = asa("evaluator", "show", task, "--key", evaluator);
    assertThat(shown.out())
        .containsPattern("task +" + task)
        .contains("request:\n  Summarise recent work on federated learning privacy")
        .containsPattern("accuracy +percentage +>= 80 +0.3 +Share of claims")
        .containsPattern("timeliness +boolean +=\\s*true")
        .contains("deliverable:\n  # Federated learning and privacy\n")
        .contains("  Differential privacy bounds what a trained model reveals")
        .contains("asa evaluator submit " + task + " \\\n    --score accuracy=SCORE");
    assertThat(asa("evaluator", "show", task, "--key", evaluator, "--json").json())
        .isEqualTo(
            asa("evaluator", "tasks", "--key", evaluator, "--json").json().get("tasks").get(0));

    // The key comes from $ASA_KEY as well as --key.
    String[] submit = {
      "evaluator",
      "submit",
      task,
      "--score",
      "accuracy=88:3 of 3 spot-checked claims hold",
      "--score",
      "completeness=80",
      "--evidence",
      "completeness=covers the main results",
      "--score",
      "relevance=90",
      "--evidence",
      "relevance=on topic throughout",
      "--score",
      "timeliness=true",
      "--evidence",
      "timeliness=delivered before the deadline",
      "--model",
      "judge-large-2",
      "--confidence",
      "0.85"
    };
    Result answered = succeeds(run(Map.of("ASA_KEY", evaluator), "", submit), submit);
    assertThat(answered.out())
        .startsWith("answered " + task + ": received at ")
        .contains("the verdict is recorded on the agreement once every task of the delivery");
    assertThat(state(id)).isEqualTo("VERIFIED");
    // 0.3 x 88 + 0.25 x 80 + 0.3 x 90 + 0.15 x 100 = 88.4: the ">= 75" tier releases 85%.
    assertThat(asa("agreements", "status", id, "--key", client).out())
        .containsPattern("verified +PASS, composite 88.4, release 85%");
    assertThat(asa("evaluator", "tasks", "--key", evaluator).out()).isEqualTo("no open tasks\n");

    // One answer per task; a task that is not in the queue is not found.
    Result again =
        run("evaluator", "submit", task, "--key", evaluator, "--score", "accuracy=10:late");
    refused(again, 3, "asa evaluator submit: ", "a task takes one answer", "HTTP 409");
    Result unknown =
        run(
            "evaluator",
            "submit",
            "tsk-00000000000000000000000000000000",
            "--key",
            evaluator,
            "--score",
            "accuracy=10:x");
    refused(
        unknown,
        3,
        "no task 'tsk-00000000000000000000000000000000' in your work queue",
        "HTTP 404");
    refused(
        run("evaluator", "show", "tsk-00000000000000000000000000000000", "--key", evaluator),
        3,
        "asa evaluator show: no open task 'tsk-00000000000000000000000000000000' in your work"
            + " queue");
  }

  @Test
  void anAnswerThatDoesNotFitTheTaskIsRefusedWithItsPointerAndNothingIsHeld() throws Exception {
    String id = qualifiedAndDelivered();
    String task = onlyTask();

    // timeliness is a boolean dimension: 50 is no answer to it.
    Result halfTrue =
        run(
            "evaluator",
            "submit",
            task,
            "--key",
            evaluator,
            "--score",
            "accuracy=88:checked",
            "--score",
            "completeness=80:covered",
            "--score",
            "relevance=90:on topic",
            "--score",
            "timeliness=50:half on time");
    refused(
        halfTrue,
        3,
        "HTTP 422",
        "/evaluator_result/dimensions/3/score",
        "'timeliness' is a boolean dimension");

    // A dimension left out, from a file.
    Path missing = dir.resolve("missing.json");
    Files.writeString(
        missing,
        """
        {"evaluator_result": {"dimensions": [
          {"name": "accuracy", "score": 88, "evidence": "checked"},
          {"name": "relevance", "score": 90, "evidence": "on topic"},
          {"name": "timeliness", "score": true, "evidence": "on time"}]}}
        """);
    refused(
        run("evaluator", "submit", task, "--key", evaluator, "--scores", missing.toString()),
        3,
        "/evaluator_result/dimensions",
        "missing: completeness");

    // A score out of range, from a file, reported with the server's pointer.
    Path tooHigh = dir.resolve("too-high.json");
    Files.writeString(
        tooHigh,
        """
        {"dimensions": [
          {"name": "accuracy", "score": 150, "evidence": "checked"},
          {"name": "completeness", "score": 80, "evidence": "covered"},
          {"name": "relevance", "score": 90, "evidence": "on topic"},
          {"name": "timeliness", "score": true, "evidence": "on time"}]}
        """);
    Result high =
        run("evaluator", "submit", task, "--key", evaluator, "--scores", tooHigh.toString());
    refused(high, 3, "HTTP 422", "/evaluator_result/dimensions/0/score", "must be from 0 to 100");
    Result highJson =
        run(
            "evaluator",
            "submit",
            task,
            "--key",
            evaluator,
            "--scores",
            tooHigh.toString(),
            "--json");
    assertThat(highJson.status()).isEqualTo(3);
    assertThat(highJson.json().path("status").asInt()).isEqualTo(422);

    // A name the criteria do not have.
    refused(
        run(
            "evaluator",
            "submit",
            task,
            "--key",
            evaluator,
            "--score",
            "charm=90:delightful",
            "--score",
            "completeness=80:covered",
            "--score",
            "relevance=90:on topic",
            "--score",
            "timeliness=true:on time"),
        3,
        "/evaluator_result/dimensions/0/name",
        "no dimension 'charm'");

    // Nothing was held: the task is still open and the agreement waits for its answer.
    assertThat(onlyTask()).isEqualTo(task);
    assertThat(state(id)).isEqualTo("DELIVERED");
  }

  @Test
  void badCommandLinesAreNamedBeforeAnyRequest() throws Exception {
    String key = evaluator;
    String t = "tsk-0123";
    refused(
        run("evaluator", "tasks"),
        2,
        "asa evaluator tasks: missing --key: the work queue is your evaluator key's own;"
            + " pass --key FILE or set ASA_KEY",
        "usage: asa evaluator tasks");
    refused(
        run("evaluator", "submit", t, "--score", "accuracy=80:ok"),
        2,
        "pass --key FILE or set ASA_KEY");
    refused(run("evaluator", "show", "--key", key), 2, "asa evaluator show: missing TASK_ID");
    refused(
        run("evaluator", "submit", t, "--key", key),
        2,
        "asa evaluator submit: missing --scores FILE or --score NAME=SCORE",
        "usage: asa evaluator submit TASK_ID (--scores FILE|- | --score NAME=SCORE[:EVIDENCE]");
    refused(
        run("evaluator", "submit", t, "--key", key, "--score", "accuracy=high:x"),
        2,
        "--score accuracy must be a score from 0 to 100, or true or false, not 'high'");
    refused(
        run("evaluator", "submit", t, "--key", key, "--score", "accuracy=101:x"),
        2,
        "--score accuracy must be a score from 0 to 100, or true or false, not '101'");
    refused(
        run("evaluator", "submit", t, "--key", key, "--score", "88"),
        2,
        "--score needs NAME=SCORE, e.g. accuracy=88 or timeliness=true, not '88'");
    refused(
        run("evaluator", "submit", t, "--key", key, "--score", "accuracy=88"),
        2,
        "--score accuracy has no evidence: add --evidence accuracy=TEXT");
    refused(
        run(
            "evaluator",
            "submit",
            t,
            "--key",
            key,
            "--score",
            "accuracy=88:x",
            "--score",
            "accuracy=80:y"),
        2,
        "--score accuracy is given more than once");
    refused(
        run(
            "evaluator",
            "submit",
            t,
            "--key",
            key,
            "--score",
            "accuracy=88:x",
            "--evidence",
            "relevance=on topic"),
        2,
        "--evidence relevance has no score: add --score relevance=SCORE");
    refused(
        run(
            "evaluator",
            "submit",
            t,
            "--key",
            key,
            "--score",
            "accuracy=88:x",
            "--evidence",
            "accuracy=y"),
        2,
        "the evidence for accuracy is given twice");
    refused(
        run(
            "evaluator",
            "submit",
            t,
            "--key",
            key,
            "--score",
            "accuracy=88:x",
            "--confidence",
            "2"),
        2,
        "--confidence must be a number from 0 to 1, not '2'");
    refused(
        run("evaluator", "submit", t, "--key", key, "--score", "accuracy=88:x", "--check", "tests"),
        2,
        "--check needs NAME=true or NAME=false, not 'tests'");
    refused(
        run("evaluator", "submit", t, "--key", key, "--scores", "a.json", "--score", "x=1:y"),
        2,
        "--scores and --score cannot be used together");

    Path withModel = dir.resolve("with-model.json");
    Files.writeString(withModel, "{\"dimensions\": [], \"model\": \"m\"}");
    refused(
        run(
            "evaluator",
            "submit",
            t,
            "--key",
            key,
            "--scores",
            withModel.toString(),
            "--model",
            "other"),
        2,
        "--model and the \"model\" in " + withModel + " cannot be used together");
    // A file that cannot be read, or is not an evaluator_result, cannot be sent (exit 1).
    refused(
        run(
            "evaluator",
            "submit",
            t,
            "--key",
            key,
            "--scores",
            dir.resolve("none.json").toString()),
        5,
        "no such file: ");
    refused(
        run(Map.of(), "[1, 2]", "evaluator", "submit", t, "--key", key, "--scores", "-"),
        5,
        "standard input must hold a JSON object, the evaluator_result");
    refused(
        run(Map.of(), "{not json", "evaluator", "submit", t, "--key", key, "--scores", "-"),
        5,
        "standard input is not valid JSON");

    Result group = run("evaluator");
    assertThat(group.status()).isEqualTo(2);
    assertThat(group.err())
        .contains("evaluator tasks")
        .contains("evaluator show")
        .contains("evaluator submit");
    assertThat(run("evaluator", "submit", "--help").out())
        .contains("--scores FILE|-")
        .contains("--score NAME=SCORE[:EVIDENCE]")
        .contains("--evidence NAME=TEXT ...");
  }
}
