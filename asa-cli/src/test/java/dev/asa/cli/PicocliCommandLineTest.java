package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.client.AgreementStatus;
import dev.asa.client.VerificationView;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command line as picocli reads it, without a server: the parsing rules asa keeps (keys that
 * start with '-', --name=value, --, help before any mistake), --version, help, completion, the
 * environment defaults of serve, and the command-line messages of issue 17.
 */
class PicocliCommandLineTest {

  record Result(int status, String out, String err) {}

  private static Result run(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(env)
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Result run(String... args) {
    return run(Map.of(), args);
  }

  @Test
  void aKeyThatStartsWithADashIsAnArgumentAndAMisspeltOptionIsNamed() {
    // One base64url key in 64 starts with "-": it must reach the command as its KEY.
    Result dashed = run("evaluators", "reinstate", "-bk_WYDfSb", "--server", "http://127.0.0.1:1");
    assertThat(dashed.err()).doesNotContain("unknown option").contains("KEY must be a public key");
    assertThat(dashed.status()).isEqualTo(2);

    Result misspelt = run("agreements", "get", "--colour", "asa-1");
    assertThat(misspelt.status()).isEqualTo(2);
    assertThat(misspelt.err()).startsWith("asa agreements get: unknown option --colour\n");
  }

  @Test
  void optionsTakeTheirValueEitherWayAndDoubleDashEndsThem() {
    Result equals = run("agreements", "sign", "a", "--as=evaluator", "--key=k");
    assertThat(equals.err())
        .startsWith("asa agreements sign: --as must be client or provider, not 'evaluator'");

    Result twice = run("agreements", "sign", "a", "--as", "client", "--as", "provider");
    assertThat(twice.status()).isEqualTo(2);
    assertThat(twice.err()).startsWith("asa agreements sign: --as is given more than once");

    Result noValue = run("agreements", "sign", "a", "--as", "--json");
    assertThat(noValue.status()).isEqualTo(2);
    assertThat(noValue.err()).startsWith("asa agreements sign: --as needs a value: --as ROLE");

    Result ended = run("keys", "show", "--", "--not-an-option");
    assertThat(ended.status()).isEqualTo(5);
    assertThat(ended.err()).isEqualTo("asa keys show: no such file: --not-an-option\n");
  }

  @Test
  void helpWinsOverEveryOtherMistake() {
    Result r = run("agreements", "get", "--bogus", "-h");
    assertThat(r.status()).isZero();
    assertThat(r.out()).startsWith("usage: asa agreements get ID");
  }

  @Test
  void versionHelpAndHelpCommand() {
    Result version = run("--version");
    assertThat(version.status()).isZero();
    assertThat(version.out()).startsWith("asa 0.").doesNotContain("unknown");

    Result help = run("help", "agreements", "create");
    assertThat(help.status()).isZero();
    assertThat(help.out()).startsWith("usage: asa agreements create");

    Result overview = run("--help");
    assertThat(overview.out())
        .contains("exit status:")
        .contains("3  the server refused the request")
        .contains("agreements negotiation")
        .contains("market")
        .contains("admin config")
        .contains("completion");
  }

  @Test
  void descriptionsAreWholeSentencesAndRepeatableIsSaidOnce() {
    Result overview = run("--help");
    String commands = overview.out().substring(overview.out().indexOf("commands:"));
    for (String line : commands.substring(0, commands.indexOf("exit status:")).lines().toList()) {
      if (line.startsWith("  ") && line.strip().contains("  ")) {
        String summary = line.strip().split(" {2,}", 2)[1];
        assertThat(summary).as(line).endsWith(".");
      }
    }
    Result serve = run("serve", "--help");
    assertThat(serve.out()).doesNotContain("(repeatable) (repeatable)").contains("--port N");
  }

  @Test
  void everyCommandsHelpRendersWithoutAFormatWarning() {
    // picocli reads help text as a format string: a lone '%' ("95%.") makes it print a warning
    // to the process's standard error and show the raw text, "%n" and all.
    CommandLine asa = Main.commandLine(new Io(System.in, System.out, System.err, Map.of()));
    PrintStream realErr = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    List<String> shown = new ArrayList<>();
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      everyCommand(asa, shown);
    } finally {
      System.setErr(realErr);
    }
    assertThat(shown).hasSizeGreaterThan(40);
    assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(run("judge-eval", "--help").out().replaceAll("\\s+", " "))
        .contains("percentile bootstrap, 95%.");
    assertThat(run("agreements", "ruling", "--help").out()).contains("N% of the escrow");
  }

  private static void everyCommand(CommandLine command, List<String> shown) {
    String usage = command.getUsageMessage();
    assertThat(usage).as(command.getCommandName()).doesNotContain("%n");
    shown.add(command.getCommandName());
    for (CommandLine sub : new LinkedHashSet<>(command.getSubcommands().values())) {
      everyCommand(sub, shown);
    }
  }

  @Test
  void completionScriptsAreGenerated() {
    Result bash = run("completion", "bash");
    assertThat(bash.status()).isZero();
    assertThat(bash.out()).contains("complete").contains("agreements").contains("--server");
    assertThat(run("completion", "zsh").out()).contains("bashcompinit");
    assertThat(run("completion", "fish").status()).isEqualTo(2);
  }

  @Test
  void everyServeFlagHasItsEnvironmentVariableInTheHelp() {
    String help = run("serve", "--help").out();
    for (String flag :
        new String[] {"--host", "--port", "--data-dir", "--db", "--rate-limit", "--public-url"}) {
      String variable =
          "ASA_" + flag.substring(2).replace('-', '_').toUpperCase(java.util.Locale.ROOT);
      assertThat(help).as(flag).contains(variable);
    }
  }

  @Test
  void serveHelpStatesTheDefaultsTheServerActuallyUses() {
    String help = run("serve", "--help").out().replaceAll("\\s+", " ");
    var q = dev.asa.integrity.QualificationPolicy.DEFAULTS;
    var n = dev.asa.negotiation.NegotiationPolicy.DEFAULTS;
    assertThat(help)
        .contains("(default " + q.minEvaluations() + ")")
        .contains("(default " + q.minCanaryPassRate().toPlainString() + ")")
        .contains("(default " + q.maxDeviationPoints().toPlainString() + ")")
        .contains("(default " + n.maxRounds() + ")")
        .contains("(default " + n.timeoutSeconds() + ")")
        .contains(
            "(default "
                + dev.asa.server.escrow.EscrowConfig.DEFAULTS.deliveryTimeout().toSeconds()
                + ")");
  }

  @Test
  void helpOfACommandThatDoesNotExistIsAUsageError() {
    Result r = run("help", "agreements", "frobnicate");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("no command 'agreements frobnicate'");
  }

  @Test
  void serveReadsItsFlagsFromTheEnvironment() {
    Result r = run(Map.of("ASA_PORT", "99999"), "serve");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("asa serve: --port must be a whole number from 0 to 65535");
  }

  @Test
  void createNamesTheDescriptionAsRequiredAndAmountsInWords(@TempDir Path dir) throws Exception {
    assertThat(run("agreements", "create", "--help").out())
        .contains("--description TEXT")
        .contains("required with --template");
    String key = dir.resolve("c.key").toString();
    assertThat(run("keys", "new", "--out", key).status()).isZero();
    String[] base = {
      "agreements", "create", "--template", "general", "--client-key", key, "--provider-key", key
    };

    Result noDescription = run(base);
    assertThat(noDescription.status()).isEqualTo(2);
    assertThat(noDescription.err()).contains("missing --description TEXT");

    Result negative = run(concat(base, "--description", "d", "--amount", "-5"));
    assertThat(negative.status()).isEqualTo(2);
    assertThat(negative.err())
        .contains("--amount must be a positive decimal such as 12.50")
        .doesNotContain("[0-9]");

    Result zero = run(concat(base, "--description", "d", "--amount", "0"));
    assertThat(zero.status()).isEqualTo(2);
    assertThat(zero.err()).contains("leave --amount out for an agreement without payment");

    Result currency =
        run(concat(base, "--description", "d", "--amount", "5.00", "--currency", "usd"));
    assertThat(currency.status()).isEqualTo(2);
    assertThat(currency.err())
        .contains("--currency must be an ISO 4217 code in capitals such as USD")
        .doesNotContain("[A-Z]");
  }

  @Test
  void anAmountSetAsANumberShowsHowToQuoteIt() {
    Result r =
        run(
            "agreements",
            "negotiate",
            "a",
            "--as",
            "client",
            "--rationale",
            "budget_limit",
            "--set",
            "escrow.payment.amount=12.00");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--set 'escrow.payment.amount=\"12.00\"'");
  }

  @Test
  void listRefusesARawKeyAndNamesItsDidKey(@TempDir Path dir) throws Exception {
    Result shown = run("keys", "new", "--out", dir.resolve("a.key").toString(), "--json");
    String raw = shown.out().replaceAll("(?s).*\"public_key\" : \"([^\"]+)\".*", "$1").strip();
    String did = shown.out().replaceAll("(?s).*\"did\" : \"([^\"]+)\".*", "$1").strip();
    Result r = run("agreements", "list", "--party", raw);
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("not a raw public key").contains("--party " + did);

    Result nobody = run("agreements", "list");
    assertThat(nobody.status()).isEqualTo(2);
    assertThat(nobody.err()).contains("pass --key FILE or set ASA_KEY");
  }

  @Test
  void aDisputeNamesWhoFiledItOrSaysAParty() throws Exception {
    var filed =
        status(
            "\"dispute\": {\"filed_by\": \"client\", \"filed_at\": \"t\", \"reason_code\": \"r\"}");
    var unknown = status("\"dispute\": {\"filed_at\": \"t\", \"reason_code\": \"r\"}");
    assertThat(StatusCommand.summary(filed)).contains("filed by the client at t: r");
    assertThat(StatusCommand.summary(unknown)).contains("filed by a party at t: r");
  }

  @Test
  void aRulingIsShownWithWhoRuledAndWhy() throws Exception {
    var ruled =
        status(
            "\"ruling\": {\"release_percent\": 95, \"reason\": \"missed section 2\","
                + " \"ruled_by\": \"arbiter\", \"ruled_at\": \"t\"}");
    assertThat(StatusCommand.summary(ruled))
        .contains("ruling")
        .contains("95% to the provider, by the arbiter at t: missed section 2");
  }

  /** A status answer of a disputed agreement with {@code members} added. */
  private static AgreementStatus status(String members) throws Exception {
    return AgreementStatus.from(
        dev.asa.json.Json.parse(
            "{\"agreement_id\": \"asa-1\", \"state\": \"DISPUTED\", \"version\": 5,"
                + " \"agreement_hash\": \"sha256:00\", \"payment\": {\"status\": \"frozen\"}, "
                + members
                + "}"));
  }

  @Test
  void aDimensionNobodyScoredIsNotEvaluatedRatherThanMissed() throws Exception {
    var result =
        dev.asa.json.Json.parse(
            """
            {"verification_id": "ver-1", "evaluator": {"type": "embedding"},
             "dimensions": [
               {"name": "relevance", "score": 80, "slo_target": 70, "slo_met": true, "evidence": "on topic"},
               {"name": "accuracy", "score": null, "slo_target": 80, "slo_met": false,
                "evidence": "not evaluated: the embedding model cannot check facts"}],
             "composite": {"score": 80, "method": "weighted_average", "threshold": 70, "passed": true},
             "determination": {"result": "PASS", "payment_release_percent": 100, "confidence": 0.872},
             "evidence_trail": {"deliverable_hash": "sha256:00", "evaluation_duration_ms": 3}}
            """);
    String report = VerificationReport.formatResult(VerificationView.from(result));
    assertThat(report)
        .containsPattern("accuracy +- +80 +not evaluated +not evaluated: the embedding model")
        .containsPattern("relevance +80 +70 +yes")
        .contains("0.872 is each dimension's confidence averaged by the dimension's weight");
  }

  @Test
  void progressOnAStreamThatIsNotATerminalIsWholeLines(@TempDir Path dir) throws Exception {
    Path report =
        Files.writeString(
            dir.resolve("report.md"),
            "# Battery recycling\n\nHydrometallurgy leaches lithium and cobalt from black mass.\n");
    Result r =
        run("verify", report.toString(), "--request", "How is lithium recovered from batteries?");
    assertThat(r.status()).isIn(0, 1);
    assertThat(r.err()).doesNotContain("\r");
    assertThat(r.err().isEmpty() || r.err().endsWith("\n")).isTrue();
  }

  @Test
  void verifyTellsAFailedVerdictFromAMissingFileAndAnUnreachableJudge(@TempDir Path dir)
      throws Exception {
    Result missing = run("verify", dir.resolve("nope.md").toString(), "--request", "x");
    assertThat(missing.status()).isEqualTo(5);
    assertThat(missing.err()).contains("no such file");

    Path report = Files.writeString(dir.resolve("r.md"), "# Findings\n\nRecycling works.\n");
    Result unreachable =
        run(
            "verify",
            report.toString(),
            "--request",
            "Summarise battery recycling",
            "--judge",
            "openai",
            "--judge-model",
            "m",
            "--judge-url",
            "http://127.0.0.1:1/v1",
            "--judge-free");
    assertThat(unreachable.status()).isEqualTo(4);
    assertThat(unreachable.err()).contains("unavailable");
  }

  @Test
  void theKeyFilesOfTheWalkThroughAreIgnoredByGit() throws Exception {
    Path gitignore = Path.of("..", ".gitignore");
    assertThat(Files.readAllLines(gitignore)).contains("*.key");
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
