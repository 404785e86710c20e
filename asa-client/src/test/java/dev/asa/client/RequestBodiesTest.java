package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class RequestBodiesTest {

  @Test
  void signatureCoversTheUtf8BytesOfTheAgreementHashText() {
    Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
    String hash = Digest.sha256("terms".getBytes(StandardCharsets.UTF_8)).toString();

    Ed25519Signature signature = RequestBodies.signatureOver(hash, key);

    assertThat(key.publicKey().verify(hash.getBytes(StandardCharsets.UTF_8), signature)).isTrue();
  }

  @Test
  void signBodyNamesThePartyAndTheScheme() {
    ObjectNode body = RequestBodies.sign("provider", "c2ln");

    assertThat(Json.write(body))
        .isEqualTo(
            "{\"party\":\"provider\",\"signature\":{\"scheme\":\"ed25519\",\"value\":\"c2ln\"}}");
  }

  @Test
  void deliverLeavesTheFormatOutWhenNoneIsGiven() {
    assertThat(Json.write(RequestBodies.deliver("# Report", null)))
        .isEqualTo("{\"content\":\"# Report\"}");
    assertThat(Json.write(RequestBodies.deliver("a,b", "csv")))
        .isEqualTo("{\"content\":\"a,b\",\"format\":\"csv\"}");
  }

  @Test
  void deliverByUrlSendsTheDigestInItsTextForm() {
    Digest hash = Digest.sha256(new byte[] {1});

    ObjectNode body = RequestBodies.deliverByUrl("https://provider.example/report.md", hash);

    assertThat(body.path("content_url").asText()).isEqualTo("https://provider.example/report.md");
    assertThat(body.path("content_hash").asText()).isEqualTo(hash.toString()).startsWith("sha256:");
  }

  @Test
  void verifyWrapsTheEvaluatorResultOrSendsAnEmptyObject() throws Exception {
    assertThat(Json.write(RequestBodies.verify(null))).isEqualTo("{}");

    var result =
        Json.parse(
            "{\"dimensions\":[{\"name\":\"accuracy\",\"score\":90,\"evidence\":\"checked\"}]}");
    assertThat(RequestBodies.verify(result).get("evaluator_result")).isEqualTo(result);
  }

  @Test
  void challengeIsForTheSigningPartiesOnly() {
    assertThat(Json.write(RequestBodies.challenge(Role.CLIENT, "evaluator_error")))
        .isEqualTo("{\"party\":\"client\",\"reason_code\":\"evaluator_error\"}");
    assertThatThrownBy(() -> RequestBodies.challenge(Role.EVALUATOR, "evaluator_error"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("evaluator");
  }
}
