package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asa evaluators ...} against the real server started in this JVM, and the registry options
 * of {@code asa serve} (qualification bar, canary file), each bad value named.
 */
class EvaluatorsCommandsTest {

  record Result(int status, String out, String err) {
    JsonNode json() throws Exception {
      return Json.parse(out);
    }
  }

  @TempDir Path dir;
  private AsaServer server;
  private String url;
  private String operatorKey;

  @BeforeEach
  void start() throws Exception {
    Ed25519PrivateKey operator = Ed25519PrivateKey.generate(new SecureRandom());
    operatorKey = dir.resolve("operator.jwk").toString();
    KeyFile.write(Path.of(operatorKey), operator);
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withOperatorKey(operator.publicKey()));
    url = server.url("127.0.0.1");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(Map.of("ASA_SERVER", url))
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Result asa(String... args) {
    Result r = run(args);
    assertThat(r.status())
        .as("asa %s\nstdout: %s\nstderr: %s", String.join(" ", args), r.out(), r.err())
        .isZero();
    return r;
  }

  /** A party's key the evaluator declares a conflict of interest with. */
  private static final String BOB =
      Ed25519PrivateKey.fromSeed(new byte[32]).publicKey().toBase64Url();

  @Test
  void anEvaluatorRegistersItselfIsListedShownSuspendedAndReinstated() throws Exception {
    String judgeKey = dir.resolve("judge.jwk").toString();
    asa("keys", "new", "--out", judgeKey);
    String judge = asa("keys", "show", judgeKey, "--json").json().path("public_key").asText();

    Result registered =
        asa(
            "evaluators",
            "register",
            "--key",
            judgeKey,
            "--identity",
            "judge-7",
            "--name",
            "Judge Seven",
            "--service-type",
            "research",
            "--service-type",
            "code_generation",
            "--organization",
            "Impartial Ltd",
            "--model",
            "judge-large-2",
            "--price-usd",
            "0.30",
            "--domain",
            "medicine",
            "--conflict-of-interest",
            BOB);
    assertThat(registered.out())
        .contains("key            " + judge)
        .contains("identity       api_key:judge-7")
        .contains("service types  research, code_generation")
        .contains("price          0.3 USD per evaluation")
        .contains("canary tasks   none yet")
        .contains("qualified      no")
        .contains("  - has 0 evaluations; needs 50");

    JsonNode shown = asa("evaluators", "show", "--key", judgeKey, "--json").json();
    assertThat(shown.path("key").asText()).isEqualTo(judge);
    assertThat(shown.path("domains").get(0).asText()).isEqualTo("medicine");
    assertThat(shown.path("conflicts_of_interest").get(0).asText()).isEqualTo(BOB);

    Result list = asa("evaluators", "list", "--key", judgeKey, "--service-type", "research");
    assertThat(list.out()).startsWith("KEY").contains(judge).contains("Judge Seven");
    assertThat(asa("evaluators", "list", "--key", judgeKey, "--service-type", "translation").out())
        .isEqualTo("no evaluators\n");

    Result again =
        run(
            "evaluators",
            "register",
            "--key",
            judgeKey,
            "--identity",
            "judge-7",
            "--name",
            "Judge Seven",
            "--service-type",
            "research");
    assertThat(again.status()).isEqualTo(3);
    assertThat(again.err()).contains("is already registered").contains("HTTP 409");

    Result stranger = run("evaluators", "suspend", judge, "--key", judgeKey, "--reason", "mine");
    assertThat(stranger.status()).isEqualTo(3);
    assertThat(stranger.err()).contains("HTTP 403");

    Result suspended =
        asa(
            "evaluators",
            "suspend",
            judge,
            "--key",
            operatorKey,
            "--reason",
            "scored known-bad canaries as good");
    assertThat(suspended.out())
        .contains("standing       suspended (scored known-bad canaries as good)")
        .contains("  - suspended by the operator: scored known-bad canaries as good");
    assertThat(asa("evaluators", "reinstate", judge, "--key", operatorKey).out())
        .contains("standing       active");
  }

  @Test
  void anAgreementCreatedWithoutAnEvaluatorLeavesItToThePool() throws Exception {
    String client = dir.resolve("client.jwk").toString();
    String provider = dir.resolve("provider.jwk").toString();
    asa("keys", "new", "--out", client);
    asa("keys", "new", "--out", provider);
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
                "--json")
            .json()
            .path("agreement_id")
            .asText();
    JsonNode doc = asa("agreements", "get", id, "--key", client, "--json").json();
    assertThat(doc.at("/agreement/parties").has("evaluator")).isFalse();
    // Nobody in the pool qualifies yet: the activating signature is refused, naming why.
    asa("agreements", "sign", id, "--key", client, "--as", "client");
    Result none = run("agreements", "sign", id, "--key", provider, "--as", "provider");
    assertThat(none.status()).isEqualTo(3);
    assertThat(none.err()).contains("HTTP 409");

    Result stray =
        run(
            "agreements",
            "create",
            "--template",
            "general",
            "--client-key",
            client,
            "--provider-key",
            provider,
            "--evaluator-key",
            provider);
    assertThat(stray.status()).isEqualTo(2);
    assertThat(stray.err())
        .startsWith("asa agreements create: --evaluator-key needs --evaluator IDENTITY\n");
    assertThat(run("agreements", "create", "--help").out())
        .contains("[--evaluator IDENTITY")
        .contains("Without --evaluator the server assigns");
  }

  @Test
  void badRegistryOptionsAreNamed() {
    Result noType =
        run("evaluators", "register", "--identity", "j", "--name", "J", "--key", "k.jwk");
    assertThat(noType.status()).isEqualTo(2);
    assertThat(noType.err()).startsWith("asa evaluators register: missing --service-type TYPE\n");

    Result price =
        run(
            "evaluators",
            "register",
            "--identity",
            "j",
            "--name",
            "J",
            "--service-type",
            "research",
            "--price-usd",
            "-1");
    assertThat(price.status()).isEqualTo(2);
    assertThat(price.err())
        .startsWith(
            "asa evaluators register: --price-usd must be a number of US dollars, 0 or more, such as 0.30, not '-1'");

    Result noKey =
        run("evaluators", "register", "--identity", "j", "--name", "J", "--service-type", "r");
    assertThat(noKey.status()).isEqualTo(2);
    assertThat(noKey.err()).contains("missing --key FILE: an evaluator registers itself");

    Result badKey = run("evaluators", "suspend", "nope", "--reason", "x");
    assertThat(badKey.status()).isEqualTo(2);
    assertThat(badKey.err()).startsWith("asa evaluators suspend: KEY must be a public key");

    assertThat(run("evaluators", "suspend", "--reason", "x").err())
        .startsWith("asa evaluators suspend: missing KEY\n");
  }

  @Test
  void serveNamesABadQualificationBoundOrCanaryFile() throws Exception {
    Result rate = run("serve", "--port", "0", "--qualify-canary-pass-rate", "1.5");
    assertThat(rate.status()).isEqualTo(2);
    assertThat(rate.err())
        .startsWith(
            "asa serve: --qualify-canary-pass-rate must be a fraction from 0 to 1, such as 0.9 for 90%, not '1.5'");
    assertThat(run("serve", "--qualify-max-deviation", "ten").err())
        .startsWith(
            "asa serve: --qualify-max-deviation must be score points from 0 to 100, such as 10, not 'ten'");
    assertThat(run("serve", "--qualify-min-evaluations", "-1").err())
        .startsWith(
            "asa serve: --qualify-min-evaluations must be a whole number from 0 to 1000000, not '-1'");
    assertThat(run("serve", "--qualify-min-consensus", "some").err())
        .startsWith(
            "asa serve: --qualify-min-consensus must be a whole number from 0 to 1000000, not 'some'");

    Path canaries = dir.resolve("canaries.jsonl");
    Files.writeString(canaries, "{\"id\": \"c1\"}\n\n{not json\n");
    Result bad =
        run(
            "serve",
            "--port",
            "0",
            "--data-dir",
            dir.toString(),
            "--canaries",
            canaries.toString());
    assertThat(bad.status()).isEqualTo(5);
    assertThat(bad.err())
        .startsWith("asa serve: the canary file " + canaries + " has ")
        .contains("\n  /0/request: is missing")
        .contains("(line 1)")
        .contains("\n  /1: is not valid JSON")
        .contains("(line 3)");
    assertThat(run("serve", "--canaries", dir.resolve("none.jsonl").toString()).err())
        .startsWith("asa serve: there is no canary file ");
  }

  @Test
  void helpListsTheRegistryCommands() {
    Result help = run("evaluators");
    assertThat(help.status()).isEqualTo(2);
    assertThat(help.err())
        .contains("evaluators register")
        .contains("evaluators list")
        .contains("evaluators show")
        .contains("evaluators suspend")
        .contains("evaluators reinstate");
    assertThat(run("serve", "--help").out())
        .contains("--qualify-min-evaluations N")
        .contains("--qualify-canary-pass-rate F")
        .contains("--qualify-max-deviation POINTS")
        .contains("--qualify-min-consensus N")
        .contains("--canaries FILE");
  }
}
