package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standalone verification of code at semantic depth with the standard evaluators (no judge): the
 * code evaluator is chosen for code and scores security, maintainability and documentation with
 * file:line evidence, instead of the request failing because nothing could be judged.
 */
class CodeVerificationEndToEndTest {
  @TempDir Path dataDir;
  private AsaServer server;
  private AsaClient client;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withVerification(VerificationConfig.standard(null, 1)));
    client = AsaClient.connect(URI.create(server.url("127.0.0.1"))).withKey(Fixtures.key("alice"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private JsonNode verify(String content, String format, String type) {
    ObjectNode r = Json.object();
    r.putObject("deliverable").put("content", content).put("format", format).put("type", type);
    r.putObject("original_request").put("description", "Write a user lookup");
    r.putObject("verification_config").put("depth", "semantic");
    ObjectNode accepted = client.requestVerification(r);
    return client.awaitVerification(
        accepted.path("verification_id").asText(), Duration.ofSeconds(60), progress -> {});
  }

  private static JsonNode dimension(JsonNode result, String name) {
    for (JsonNode d : result.path("dimensions")) {
      if (d.path("name").asText().equals(name)) {
        return d;
      }
    }
    throw new AssertionError("no dimension " + name + " in " + result);
  }

  @Test
  void pythonIsScoredWithFileAndLineEvidence() {
    JsonNode result =
        verify(
            """
            import os
            TOKEN = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
            def find_user(db, name):
                \"\"\"Look a user up by name.\"\"\"
                return db.execute("SELECT * FROM users WHERE name = '" + name + "'")
            """,
            "python",
            "code");
    JsonNode security = dimension(result, "security");
    assertThat(security.path("score").decimalValue()).isEqualByComparingTo("50");
    assertThat(security.path("evidence").asText())
        .contains("main.py:2 hard-coded secret")
        .contains("main.py:5 SQL built by concatenation");
    assertThat(dimension(result, "documentation").path("score").decimalValue())
        .isEqualByComparingTo("100");
    assertThat(dimension(result, "maintainability").path("evidence").asText())
        .contains("tree-sitter-python on 1 file");
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .contains("needs the code sandbox (tests)");
    assertThat(result.path("verification").path("evaluators").toString())
        .contains("code/static-analysis");
  }

  @Test
  void aTreeThatClimbsOutIsRefusedWithTheReasonAndAnUnknownLanguageAtOnce() {
    assertThatThrownBy(() -> verify("{\"files\": {\"../../etc/x.py\": \"x = 1\"}}", "code", "code"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.getMessage()).contains("climbs out of the deliverable");
            });
    assertThatThrownBy(() -> verify("IDENTIFICATION DIVISION.", "code", "code/cobol"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.getMessage()).contains("/deliverable/type").contains("code/cobol");
            });
  }

  @Test
  void aJavaTreeIsScoredWithFileAndLineEvidence() {
    String manifest =
        Json.write(
            Json.object()
                .set(
                    "files",
                    Json.object()
                        .put(
                            "src/Users.java",
                            """
                            /** User lookups. */
                            public final class Users {
                              public String find(java.sql.Statement st, String name) throws Exception {
                                return st.executeQuery("SELECT * FROM users WHERE name = '" + name + "'").toString();
                              }
                            }
                            """)
                        .put("README.md", "# Users\n")));
    JsonNode result = verify(manifest, "code", "code/java");
    JsonNode security = dimension(result, "security");
    assertThat(security.path("evidence").asText())
        .contains("src/Users.java:4 SQL built by concatenation")
        .contains("JavaParser on 1 file");
    assertThat(dimension(result, "documentation").path("evidence").asText())
        .contains("src/Users.java:3 public item without a doc comment (method find)");
    assertThat(dimension(result, "documentation").path("score").decimalValue())
        .isEqualByComparingTo("50");
  }
}
