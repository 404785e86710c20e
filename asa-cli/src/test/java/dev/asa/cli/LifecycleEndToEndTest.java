package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One agreement's whole life through the {@code asa} command, against the real server started in
 * this JVM: keys, create from the general template, both signatures, funding the escrow, delivery,
 * verification with the evaluator's scores, status, the event chain, closing once the challenge
 * window is over (the agreement's challenge window is 2 s, so the test waits it out) and the
 * escrow's transfers; and a challenged agreement settled by an arbiter's ruling.
 */
class LifecycleEndToEndTest {

  record Result(int status, String out, String err) {
    JsonNode json() throws Exception {
      return Json.parse(out);
    }
  }

  @TempDir Path dir;
  private AsaServer server;
  private String url;
  private String arbiterKey;

  @BeforeEach
  void start() throws Exception {
    // An arbiter the server trusts to rule on disputes, as `asa serve --arbiter-key FILE`
    // configures it.
    Ed25519PrivateKey arbiter = Ed25519PrivateKey.generate(new SecureRandom());
    arbiterKey = dir.resolve("arbiter.jwk").toString();
    KeyFile.write(Path.of(arbiterKey), arbiter);
    // The CLI stamps request signatures with the real time, so the server keeps the real clock.
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withEscrow(EscrowConfig.DEFAULTS.withArbiterKeys(Set.of(arbiter.publicKey()))));
    url = server.url("127.0.0.1");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Runs a command that must succeed. */
  private Result asa(String... args) {
    Result r = run(args);
    assertThat(r.status())
        .as("asa %s\nstdout: %s\nstderr: %s", String.join(" ", args), r.out(), r.err())
        .isZero();
    return r;
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

  @Test
  void anAgreementFromProposalToClosing() throws Exception {
    String clientKey = dir.resolve("client.jwk").toString();
    String providerKey = dir.resolve("provider.jwk").toString();
    String evaluatorKey = dir.resolve("evaluator.jwk").toString();
    asa("keys", "new", "--out", clientKey);
    asa("keys", "new", "--out", providerKey);
    asa("keys", "new", "--out", evaluatorKey);
    String clientPub = asa("keys", "show", clientKey, "--json").json().path("public_key").asText();
    String providerPub =
        asa("keys", "show", providerKey, "--json").json().path("public_key").asText();
    String evaluatorPub =
        asa("keys", "show", evaluatorKey, "--json").json().path("public_key").asText();

    JsonNode created =
        asa(
                "agreements",
                "create",
                "--template",
                "general",
                "--client-key",
                clientKey,
                "--provider-pub",
                providerPub,
                "--evaluator",
                "eval-key-789",
                "--evaluator-pub",
                evaluatorPub,
                "--description",
                "Summarise recent work on federated learning privacy",
                "--amount",
                "10.00",
                "--currency",
                "USDC",
                "--challenge-window",
                "2",
                "--json")
            .json();
    String id = created.path("agreement_id").asText();
    assertThat(created.path("state").asText()).isEqualTo("PROPOSED");
    assertThat(created.path("agreement_hash").asText()).startsWith("sha256:");

    assertThat(asa("agreements", "sign", id, "--key", clientKey, "--as", "client").out())
        .contains("state PROPOSED")
        .contains("waiting for the provider's signature");
    assertThat(asa("agreements", "sign", id, "--key", providerKey, "--as", "provider").out())
        .isEqualTo("signed " + id + " as provider; state ACTIVE\n");

    // The provider cannot deliver before the client's money is held in escrow.
    Result early =
        run("agreements", "deliver", id, "--key", providerKey, "--content", "# Too early");
    assertThat(early.status()).isEqualTo(3);
    assertThat(early.err())
        .startsWith(
            "asa agreements deliver: the client has not funded the escrow of agreement " + id);
    assertThat(asa("agreements", "fund", id, "--key", clientKey).out())
        .isEqualTo("funded 10.000000 USDC into escrow:" + id + " (ledger); state ACTIVE\n");
    assertThat(asa("agreements", "escrow", id, "--key", providerKey).out())
        .containsPattern("status +held")
        .containsPattern("balance +10.000000 USDC")
        .containsPattern("fund +10.000000 USDC +external:ledger +party:" + clientPub)
        .containsPattern("hold +10.000000 USDC +party:" + clientPub + " +escrow:" + id);

    assertThat(
            asa(
                    "agreements",
                    "deliver",
                    id,
                    "--key",
                    providerKey,
                    "--content",
                    "# Federated learning privacy\n\nDifferential privacy...",
                    "--format",
                    "markdown")
                .out())
        .contains("state DELIVERED");

    Result verified =
        asa(
            "agreements",
            "verify",
            id,
            "--key",
            evaluatorKey,
            "--score",
            "accuracy=90:all 12 claims checked against the cited papers",
            "--score",
            "completeness=85:covers 7 of 8 requested topics",
            "--score",
            "relevance=92:every section addresses the request",
            "--confidence",
            "0.9",
            "--model",
            "judge-1");
    assertThat(verified.out())
        .contains("state VERIFIED")
        .containsPattern("accuracy +90 +80 +yes +all 12 claims")
        .containsPattern("timeliness +100 +true +yes")
        .containsPattern("determination +PASS");

    Result status = asa("agreements", "status", id, "--key", clientKey);
    assertThat(status.out())
        .containsPattern("state +VERIFIED")
        .containsPattern("challenge window +open until");
    assertThat(
            asa("agreements", "status", id, "--key", clientKey, "--json")
                .json()
                .path("state")
                .asText())
        .isEqualTo("VERIFIED");

    assertThat(asa("agreements", "list", "--party", "eval-key-789", "--key", evaluatorKey).out())
        .containsPattern(id + " +VERIFIED +general");

    Result events = asa("agreements", "events", id, "--key", providerKey);
    assertThat(events.out())
        .contains("created")
        .contains("signed")
        .contains("delivered")
        .contains("verified")
        .contains("funded")
        .contains("chain verifies (6 events)");

    Thread.sleep(2_100); // the 2 s challenge window passes
    // The server enforces the result by itself once the window closes; the client's close may
    // come first (and settles), or after it (and is refused: there is nothing left to close).
    Result closed = run("agreements", "close", id, "--key", clientKey);
    if (closed.status() == 0) {
      assertThat(closed.out()).contains("state CLOSED").contains("to the provider");
    } else {
      assertThat(closed.status()).isEqualTo(3);
      assertThat(closed.err()).contains("in state CLOSED");
    }
    assertThat(
            asa("agreements", "get", id, "--key", clientKey, "--json")
                .json()
                .path("state")
                .asText())
        .isEqualTo("CLOSED");
    assertThat(asa("agreements", "events", id, "--key", clientKey).out())
        .contains("chain verifies (7 events)");

    Result escrow = asa("agreements", "escrow", id, "--key", clientKey);
    assertThat(escrow.out())
        .containsPattern("state +CLOSED")
        .containsPattern("status +settled")
        .containsPattern("balance +0.000000 USDC")
        .containsPattern("release +10.000000 USDC +escrow:" + id + " +party:" + providerPub)
        .doesNotContainPattern("(?m)^refund") // the result released everything: nothing goes back
        .contains("no payment messages");
  }

  @Test
  void aChallengedAgreementIsSettledByTheArbitersRuling() throws Exception {
    String clientKey = dir.resolve("client.jwk").toString();
    String providerKey = dir.resolve("provider.jwk").toString();
    String evaluatorKey = dir.resolve("evaluator.jwk").toString();
    asa("keys", "new", "--out", clientKey);
    asa("keys", "new", "--out", providerKey);
    asa("keys", "new", "--out", evaluatorKey);
    String clientPub = asa("keys", "show", clientKey, "--json").json().path("public_key").asText();
    String providerPub =
        asa("keys", "show", providerKey, "--json").json().path("public_key").asText();
    String evaluatorPub =
        asa("keys", "show", evaluatorKey, "--json").json().path("public_key").asText();
    String id =
        asa(
                "agreements",
                "create",
                "--template",
                "general",
                "--client-key",
                clientKey,
                "--provider-pub",
                providerPub,
                "--evaluator",
                "eval-key-789",
                "--evaluator-pub",
                evaluatorPub,
                "--description",
                "Summarise recent work on federated learning privacy",
                "--amount",
                "10.00",
                "--currency",
                "USDC",
                "--challenge-window",
                "3600",
                "--json")
            .json()
            .path("agreement_id")
            .asText();
    asa("agreements", "sign", id, "--key", clientKey, "--as", "client");
    asa("agreements", "sign", id, "--key", providerKey, "--as", "provider");
    asa("agreements", "fund", id, "--key", clientKey);
    asa(
        "agreements",
        "deliver",
        id,
        "--key",
        providerKey,
        "--content",
        "# Federated learning privacy\n\nDifferential privacy...");
    asa(
        "agreements",
        "verify",
        id,
        "--key",
        evaluatorKey,
        "--score",
        "accuracy=90:all 12 claims checked",
        "--score",
        "completeness=85:7 of 8 topics",
        "--score",
        "relevance=92:on topic");

    assertThat(
            asa(
                    "agreements",
                    "challenge",
                    id,
                    "--key",
                    clientKey,
                    "--as",
                    "client",
                    "--reason",
                    "evaluator_error")
                .out())
        .contains("state DISPUTED");
    assertThat(asa("agreements", "escrow", id, "--key", clientKey).out())
        .containsPattern("status +frozen");

    Result refused =
        run(
            "agreements",
            "ruling",
            id,
            "--key",
            clientKey,
            "--release-percent",
            "100",
            "--reason",
            "mine");
    assertThat(refused.status()).isEqualTo(3);
    assertThat(refused.err()).startsWith("asa agreements ruling: ").contains("HTTP 403");

    assertThat(
            asa(
                    "agreements",
                    "ruling",
                    id,
                    "--key",
                    arbiterKey,
                    "--release-percent",
                    "40",
                    "--reason",
                    "two of the claims were not checked against the sources")
                .out())
        .isEqualTo(
            "ruled on "
                + id
                + "; state CLOSED\n"
                + "released 4.000000 USDC to the provider (40%), 6.000000 USDC back to the client\n");

    assertThat(asa("agreements", "escrow", id, "--key", providerKey).out())
        .containsPattern("status +settled")
        .containsPattern("balance +0.000000 USDC")
        .containsPattern("release +4.000000 USDC +escrow:" + id + " +party:" + providerPub)
        .containsPattern("refund +6.000000 USDC +escrow:" + id + " +party:" + clientPub);
    assertThat(asa("accounts", "show", "--key", clientKey).out())
        .containsPattern("account +party:" + clientPub)
        .containsPattern("balance +6.000000 USDC")
        .containsPattern(id + " +refund +credit +6.000000 USDC");
    assertThat(
            asa("accounts", "show", providerPub, "--key", providerKey, "--json")
                .json()
                .path("balances")
                .path("USDC")
                .asText())
        .isEqualTo("4.000000");
    Result stranger = run("accounts", "show", providerPub, "--key", clientKey);
    assertThat(stranger.status()).isEqualTo(3);
    assertThat(stranger.err())
        .contains("an account is readable by its own key and the operator only");
  }
}
