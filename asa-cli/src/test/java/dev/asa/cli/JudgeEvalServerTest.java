package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.cli.JudgeEvalCommandTest.Result;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asa judge-eval --server URL}: the judge of a running server measured from outside, each
 * answer through its {@code POST /verifications}, signed. The server here runs the evaluators
 * {@code asa serve} runs without a judge, so its figures must be the ones measured here, record by
 * record.
 */
class JudgeEvalServerTest {
  @TempDir Path dir;
  private AsaServer server;
  private String url;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withVerification(VerificationConfig.standard(null, 2)));
    url = server.url("127.0.0.1");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static Result run(String... args) {
    return JudgeEvalCommandTest.run(Map.of(), args);
  }

  /** The caller's key file, made on first use: any key may ask for a standalone verification. */
  private String key() throws IOException {
    Path file = dir.resolve("caller.key");
    if (!Files.exists(file)) {
      KeyFile.write(file, Ed25519PrivateKey.generate(new SecureRandom()));
    }
    return file.toString();
  }

  private Path slice() throws IOException {
    return JudgeEvalCommandTest.slice(dir);
  }

  @Test
  void theServersJudgeMeasuredFromOutsideGivesTheFiguresMeasuredHere() throws Exception {
    String file = slice().toString();
    Result here = run("judge-eval", file, "--baseline", "length", "--json");
    Result there =
        run("judge-eval", file, "--server", url, "--key", key(), "--baseline", "length", "--json");
    assertThat(here.status()).as(here.err()).isZero();
    assertThat(there.status()).as(there.err()).isZero();

    JsonNode local = Json.parse(here.out());
    JsonNode remote = Json.parse(there.out());
    assertThat(remote.path("server").asText()).isEqualTo(url);
    assertThat(remote.path("evaluators").get(0).asText()).startsWith("embedding (all-MiniLM");
    assertThat(remote.path("records")).hasSize(8);
    for (int i = 0; i < 8; i++) {
      JsonNode a = local.path("records").get(i);
      JsonNode b = remote.path("records").get(i);
      assertThat(b.path("score_a").asDouble())
          .as("record %d", i)
          .isEqualTo(a.path("score_a").asDouble());
      assertThat(b.path("score_b").asDouble())
          .as("record %d", i)
          .isEqualTo(a.path("score_b").asDouble());
      assertThat(b.path("dimensions_a")).isEqualTo(a.path("dimensions_a"));
      assertThat(b.path("pick").asText()).isEqualTo(a.path("pick").asText());
    }
    assertThat(remote.path("overall")).isEqualTo(local.path("overall"));
    assertThat(there.err()).contains("judge-eval: 16/16 answers scored (100%)");
    // The text report names the server whose judge it measured.
    Result text = run("judge-eval", file, "--server", url, "--key", key(), "--resamples", "100");
    assertThat(text.status()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("judge: embedding (all-MiniLM-L6-v2 (quantized)) on " + url)
        .contains("each answer sent to its POST /verifications at semantic depth");
  }

  @Test
  void anUnsignedRunStopsAtTheFirstRefusalAndSaysWhy() throws Exception {
    Result unsigned = run("judge-eval", slice().toString(), "--server", url);
    assertThat(unsigned.status()).isEqualTo(Exit.UNREACHABLE);
    assertThat(unsigned.err())
        .contains("stopped: an answer could not be evaluated, so no figure is given")
        .contains("the server refused it");
    assertThat(unsigned.out()).isEmpty();
  }

  @Test
  void aJudgeChosenHereOrAKeyWithoutAServerIsAUsageError() throws Exception {
    String file = slice().toString();
    Result judge = run("judge-eval", file, "--server", url, "--judge", "openai");
    assertThat(judge.status()).isEqualTo(Exit.USAGE);
    assertThat(judge.err()).contains("with --server the server's judge works");
    Result key = run("judge-eval", file, "--key", key());
    assertThat(key.status()).isEqualTo(Exit.USAGE);
    assertThat(key.err()).contains("--key signs requests to a server: give --server URL too");
  }
}
