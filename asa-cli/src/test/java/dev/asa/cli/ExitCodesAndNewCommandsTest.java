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
import java.net.InetAddress;
import java.net.ServerSocket;
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
 * Against a real server in this JVM: every exit status of {@link Exit}, and the commands that reach
 * the routes the CLI had none for (negotiation transcript, market, admin config, standalone
 * verification on the server, the server's own verification of an agreement at a depth).
 */
class ExitCodesAndNewCommandsTest {

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
    operatorKey = dir.resolve("operator.key").toString();
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

  private String key(String name) {
    String file = dir.resolve(name + ".key").toString();
    asa("keys", "new", "--out", file);
    return file;
  }

  /** An agreement of the general template, signed, funded and delivered. */
  private String delivered(String client, String provider, String evaluator) throws Exception {
    String evaluatorPub = asa("keys", "show", evaluator, "--json").json().path("did").asText();
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
                "--evaluator",
                "judge-1",
                "--evaluator-pub",
                evaluatorPub,
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
    asa(
        "agreements",
        "negotiate",
        id,
        "--key",
        provider,
        "--as",
        "provider",
        "--rationale",
        "market_rate_alignment",
        "--set",
        "escrow.payment.amount=\"11.00\"");
    asa("agreements", "sign", id, "--key", client, "--as", "client");
    asa("agreements", "sign", id, "--key", provider, "--as", "provider");
    asa("agreements", "fund", id, "--key", client);
    asa(
        "agreements",
        "deliver",
        id,
        "--key",
        provider,
        "--content",
        "# Federated learning privacy\n\nDifferential privacy bounds what a model reveals.\n",
        "--format",
        "markdown");
    return id;
  }

  @Test
  void everyExitStatus() throws Exception {
    String client = key("client");
    String provider = key("provider");
    String evaluator = key("evaluator");
    String id = delivered(client, provider, evaluator);

    // 2: the command line is wrong.
    assertThat(run("agreements", "verify", id, "--colour").status()).isEqualTo(2);

    // 3: the server refuses (a stranger's key does not even learn the agreement exists); without a
    // key, the message says how to give one rather than quoting the signature scheme.
    Result stranger = run("agreements", "status", id, "--key", key("stranger"));
    assertThat(stranger.status()).isEqualTo(3);
    assertThat(stranger.err()).contains("HTTP 404");
    Result unsigned = run("agreements", "status", id);
    assertThat(unsigned.status()).isEqualTo(3);
    assertThat(unsigned.err())
        .contains("pass --key FILE or set ASA_KEY")
        .doesNotContain("Signature-Input");

    // 4: nothing listens there.
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    assertThat(
            run("--server", "http://127.0.0.1:" + port, "agreements", "status", id, "--key", client)
                .status())
        .isEqualTo(4);

    // 5: a local file is missing.
    Result missing =
        run("agreements", "deliver", id, "--key", provider, "--file", dir.resolve("no.md") + "");
    assertThat(missing.status()).isEqualTo(5);
    assertThat(missing.err()).contains("no such file");

    // 1: the verdict is FAIL; it is still printed, with the dimensions and the confidence.
    Result fail =
        run(
            "agreements",
            "verify",
            id,
            "--key",
            evaluator,
            "--score",
            "accuracy=20:most claims do not hold",
            "--score",
            "completeness=10:covers almost nothing",
            "--score",
            "relevance=30:mostly off topic",
            "--confidence",
            "0.85");
    assertThat(fail.status()).as(fail.err()).isEqualTo(1);
    assertThat(fail.out())
        .containsPattern("determination +FAIL")
        .containsPattern("confidence +0\\.\\d+ is each dimension's confidence averaged");

    // The result can be read again, with the same exit status.
    Result again = run("agreements", "verification", id, "--key", client);
    assertThat(again.status()).isEqualTo(1);
    assertThat(again.out()).containsPattern("determination +FAIL");

    // 0: success.
    assertThat(run("agreements", "status", id, "--key", client).status()).isZero();
  }

  @Test
  void theNegotiationTranscriptShowsEachTermBeforeAndAfter() throws Exception {
    String client = key("client");
    String provider = key("provider");
    String id = delivered(client, provider, key("evaluator"));

    Result transcript = asa("agreements", "negotiation", id, "--key", client);
    assertThat(transcript.out())
        .contains("round 1")
        .contains("provider proposed 1 change(s) (market_rate_alignment)")
        .containsPattern("escrow\\.payment\\.amount +\"10\\.00\" +\"11\\.00\"");
    assertThat(
            asa("agreements", "negotiation", id, "--key", client, "--json")
                .json()
                .path("rounds")
                .size())
        .isEqualTo(1);
  }

  @Test
  void listDefaultsToTheKeysOwnAgreements() throws Exception {
    String client = key("client");
    String id = delivered(client, key("provider"), key("evaluator"));
    assertThat(asa("agreements", "list", "--key", client).out())
        .containsPattern(id + " +DELIVERED");
  }

  @Test
  void listFiltersCountsAndTheOperatorsViews() throws Exception {
    String client = key("client");
    String id = delivered(client, key("provider"), key("evaluator"));

    assertThat(asa("agreements", "list", "--key", client, "--state", "delivered").out())
        .containsPattern(id + " +DELIVERED +general +11\\.00 USD");
    assertThat(asa("agreements", "list", "--key", client, "--state", "ACTIVE").out())
        .startsWith("no agreements for did:key:");
    assertThat(
            asa("agreements", "list", "--key", client, "--min-amount", "11", "--max-amount", "11")
                .out())
        .contains(id);
    assertThat(asa("agreements", "list", "--key", client, "--currency", "EUR").out())
        .doesNotContain(id);
    assertThat(
            asa(
                    "agreements",
                    "list",
                    "--key",
                    client,
                    "--service-type",
                    "general",
                    "--created-after",
                    "2000-01-01T00:00:00Z")
                .out())
        .contains(id);
    // Values the CLI can tell are wrong never reach the server.
    assertThat(run("agreements", "list", "--key", client, "--state", "open").status()).isEqualTo(2);
    assertThat(run("agreements", "list", "--key", client, "--created-before", "today").status())
        .isEqualTo(2);
    assertThat(run("agreements", "list", "--key", client, "--min-amount", "-1").status())
        .isEqualTo(2);
    // The server refuses what only it can judge: a currency code it cannot have.
    assertThat(run("agreements", "list", "--key", client, "--currency", "usd").status())
        .isEqualTo(3);

    JsonNode counts = asa("agreements", "counts", "--key", client, "--json").json();
    assertThat(counts.path("counts").path("DELIVERED").asLong()).isEqualTo(1);
    assertThat(counts.path("total").asLong()).isEqualTo(1);
    assertThat(asa("agreements", "counts", "--key", client).out())
        .containsPattern("DELIVERED +1")
        .containsPattern("total +1");

    // Only the operator lists and counts every agreement.
    assertThat(asa("agreements", "list", "--all", "--key", operatorKey).out()).contains(id);
    assertThat(run("agreements", "list", "--all", "--key", client).status()).isEqualTo(3);
    assertThat(
            asa(
                    "agreements",
                    "counts",
                    "--all",
                    "--key",
                    operatorKey,
                    "--currency",
                    "USD",
                    "--json")
                .json()
                .path("total")
                .asLong())
        .isEqualTo(1);
    assertThat(asa("agreements", "get", id, "--key", operatorKey).status()).isZero();

    JsonNode health = asa("admin", "health", "--key", operatorKey, "--json").json();
    assertThat(health.path("agreements").path("by_state").path("DELIVERED").path("amounts"))
        .isEqualTo(Json.object().put("USD", "11.00"));
    assertThat(asa("admin", "health", "--key", operatorKey).out())
        .containsPattern("DELIVERED +1 +11\\.00 USD")
        .contains("verification jobs: 0 queued");
    assertThat(run("admin", "health", "--key", client).status()).isEqualTo(3);
  }

  @Test
  void adminArchiveWritesAFileThatVerifiesAndATamperedOneDoesNot() throws Exception {
    String client = key("client");
    String out = dir.resolve("archive.jsonl").toString();
    String cutoff = java.time.Instant.now().toString();
    Result archived =
        asa("admin", "archive", "--closed-before", cutoff, "--out", out, "--key", operatorKey);
    assertThat(archived.out())
        .contains("archived 0 agreements into " + out)
        .contains(" verifies: ");
    assertThat(
            asa("archive", "verify", out, "--server-key", server.serverKey().toBase64Url()).out())
        .contains("verifies");
    java.nio.file.Files.writeString(
        Path.of(out),
        java.nio.file.Files.readString(Path.of(out))
            .replace("\"asa_archive\":1", "\"asa_archive\":2"));
    Result tampered = run("archive", "verify", out);
    assertThat(tampered.status()).isEqualTo(1);
    assertThat(tampered.out()).contains("does NOT verify");
    assertThat(
            run("admin", "archive", "--closed-before", cutoff, "--out", out, "--key", client)
                .status())
        .isEqualTo(3);
    assertThat(
            run(
                    "admin",
                    "archive",
                    "--closed-before",
                    "2999-01-01",
                    "--out",
                    out,
                    "--key",
                    operatorKey)
                .status())
        .isEqualTo(3); // the server refuses a cutoff in the future (422)
    assertThat(run("archive", "verify", dir.resolve("missing.jsonl").toString()).status())
        .isEqualTo(5);
  }

  @Test
  void marketAndAdminConfig() throws Exception {
    String client = key("client");
    assertThat(asa("market", "general", "--key", client).out())
        .startsWith("market for general")
        .contains("no market median");

    assertThat(asa("admin", "config", "--key", operatorKey).json().path("store").asText())
        .isEqualTo(server.storeDescription());
    assertThat(run("admin", "config", "--key", client).status()).isEqualTo(3);
  }

  @Test
  void reputationOfAnIdentityWithoutHistoryAndAMalformedOne() throws Exception {
    assertThat(asa("reputation", "api_key:nobody").out())
        .startsWith("reputation of api_key:nobody")
        .contains("no history on this server")
        .contains("signed by " + server.serverKey().toBase64Url());
    assertThat(asa("reputation", "did:did:key:z6Mkxyz", "--json").json().path("signals").isArray())
        .isTrue();
    assertThat(run("reputation", "nocolon").status()).isEqualTo(2);
  }

  @Test
  void theServersUnsignedRoutesHaveCommands() throws Exception {
    assertThat(asa("server", "health").out()).isEqualTo("ok\n");
    assertThat(asa("server", "ready").out()).isEqualTo("ready\n  database: ok\n  migrations: ok\n");
    assertThat(asa("server", "version").out())
        .startsWith("asa server 0.")
        .contains("ASA versions 1.0.0");
    assertThat(asa("server", "key").json().path("value").asText())
        .isEqualTo(server.serverKey().toBase64Url());
    assertThat(asa("server", "openapi").json().path("openapi").asText()).startsWith("3.1");
    assertThat(asa("server", "schema").json().path("$id").asText()).contains("1.0.0");
    // An ASA version the server has no schema for is the server's refusal (404), exit 3.
    assertThat(run("server", "schema", "9.0.0").status()).isEqualTo(3);
  }

  @Test
  void theServerVerifiesAStandaloneDeliverableAndAnAgreementAtADepth() throws Exception {
    String client = key("client");
    Path report = Files.writeString(dir.resolve("report.md"), "# Findings\n\nRecycling works.\n");
    Result standalone =
        run(
            "verify",
            report.toString(),
            "--request",
            "Summarise battery recycling",
            "--depth",
            "structural",
            "--server",
            url,
            "--key",
            client);
    assertThat(standalone.status()).as(standalone.err()).isZero();
    assertThat(standalone.out())
        .contains("format_compliance")
        .containsPattern("determination +PASS");
    String verificationId = standalone.out().lines().findFirst().orElseThrow().split(" ")[1];
    Result byId = run("verifications", "show", verificationId, "--key", client);
    assertThat(byId.status()).as(byId.err()).isZero();
    assertThat(byId.out()).startsWith("verification " + verificationId);

    String provider = key("provider");
    String id = delivered(client, provider, key("evaluator"));
    Result structural = run("agreements", "verify", id, "--key", client, "--depth", "structural");
    assertThat(structural.err()).doesNotContain("unknown option");
    assertThat(structural.status()).isIn(0, 1, 3);
    assertThat(run("agreements", "verify", id, "--depth", "deep", "--key", client).status())
        .isEqualTo(2);
  }

  @Test
  void aStandaloneSealIsCreatedValidatedAndReported() throws Exception {
    String client = key("client");
    Path request = sealRequest();
    JsonNode sealed = asa("seals", "create", request.toString(), "--key", client).json();
    String sealId = sealed.path("seal_id").asText();
    assertThat(sealed.path("commitment").asText()).startsWith("sha256:");
    assertThat(sealed.toString()).doesNotContain("tok-1-x");

    Path work = Files.writeString(dir.resolve("work.md"), "# Work\n\ntok-1-x tok-2-x tok-3-x\n");
    JsonNode validated =
        asa("seals", "validate", sealId, "--file", work.toString(), "--key", client).json();
    assertThat(validated.has("gate")).isTrue();
    assertThat(asa("seals", "report", sealId, "--key", client).json().path("report"))
        .isEqualTo(validated.path("report"));
    assertThat(run("seals", "report", sealId, "--key", key("stranger")).status()).isEqualTo(3);
  }

  /** A seal request of four criteria, each that the work contains a token. */
  private Path sealRequest() throws Exception {
    StringBuilder criteria = new StringBuilder("{\"criteria\": [");
    for (int i = 1; i <= 4; i++) {
      criteria
          .append(i > 1 ? "," : "")
          .append("{\"id\": \"sc-")
          .append(i)
          .append("\", \"category\": \"happy_path\", \"assertion\": \"names token ")
          .append(i)
          .append("\", \"expected\": \"the token\", \"message\": \"token ")
          .append(i)
          .append(" missing\", \"check\": {\"type\": \"contains\", \"value\": \"tok-")
          .append(i)
          .append("-x\"}}");
    }
    return Files.writeString(dir.resolve("seal.json"), criteria.append("]}").toString());
  }

  @Test
  void anAgreementIsSealedAndItsEnvelopeReadByTheSealer() throws Exception {
    String client = key("client");
    String provider = key("provider");
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
                "Summarise recent work",
                "--json")
            .json()
            .path("agreement_id")
            .asText();
    JsonNode sealed =
        asa("agreements", "seal", id, sealRequest().toString(), "--key", client).json();
    assertThat(sealed.path("commitment").asText()).startsWith("sha256:");
    assertThat(asa("agreements", "sealed", id, "--key", client).out()).contains("tok-1-x");
    assertThat(run("agreements", "sealed", id, "--key", provider).status()).isEqualTo(3);
  }
}
