package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.integrity.Draw;
import dev.asa.integrity.Seed;
import dev.asa.server.AsaServer;
import dev.asa.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Agreements that name no evaluator, over HTTP, and the check anyone can make of their assignment:
 * the seed is the server's signature over the agreement hash, the candidate list has the recorded
 * digest, and the draw over that list with that seed picks the recorded evaluator.
 */
final class PoolAgreements {
  private PoolAgreements() {}

  /** What an assignment recorded, read back from the agreement and its event log. */
  record Recorded(
      String agreementId,
      JsonNode fact,
      JsonNode event,
      List<Ed25519PublicKey> candidates,
      Ed25519PublicKey primary) {
    String primaryIdentity() {
      return fact.path("evaluators").get(0).path("identity").path("value").asText();
    }
  }

  /**
   * The general template between alice (lineage {@code sha256:alice-lineage}) and bob (of "Bob
   * Industries"), with no {@code parties.evaluator}.
   */
  static ObjectNode pooled(String id) {
    ObjectNode doc = Fixtures.general();
    ObjectNode parties = (ObjectNode) doc.get("parties");
    parties.remove("evaluator");
    ((ObjectNode) parties.get("provider")).put("organization", "Bob Industries");
    ((ObjectNode) parties.get("client").get("identity")).put("lineage", "sha256:alice-lineage");
    doc.put("agreement_id", id);
    return doc;
  }

  static ObjectNode verification(ObjectNode doc) {
    return doc.has("verification")
        ? (ObjectNode) doc.get("verification")
        : doc.putObject("verification");
  }

  /** Created by alice, signed by both: the answer to bob's (activating) signature. */
  static ObjectNode activate(AsaClient client, AsaClient provider, ObjectNode doc) {
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    ObjectNode active = provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    assertThat(active.path("state").asText()).isEqualTo("ACTIVE");
    return active;
  }

  static JsonNode event(AsaClient reader, String id, String type) {
    JsonNode found = null;
    for (JsonNode e : reader.events(id).path("events")) {
      if (e.path("type").asText().equals(type)) {
        assertThat(found).as("one %s event", type).isNull();
        found = e;
      }
    }
    assertThat(found).as("a %s event", type).isNotNull();
    return found;
  }

  /**
   * Reads the assignment back and recomputes it from the recorded seed and candidates, checking
   * every link: seed against the server key and the agreement hash, digest against the list, draw
   * against the chosen evaluator.
   */
  static Recorded recompute(AsaServer server, AsaClient reader, String id) {
    JsonNode envelope = reader.agreement(id);
    String hash = envelope.path("agreement_hash").asText();
    JsonNode fact = envelope.path("agreement").path("metadata").path("assigned_evaluators");
    JsonNode event = event(reader, id, "evaluator_assigned");
    JsonNode payload = event.path("payload");
    assertThat(event.path("actor").path("role").asText()).isEqualTo("server");

    String seedText = fact.path("seed").asText();
    assertThat(payload.path("seed").asText()).isEqualTo(seedText);
    byte[] message = ("asa/evaluator-assignment/v1/" + hash).getBytes(StandardCharsets.UTF_8);
    assertThat(server.serverKey().verify(message, Ed25519Signature.fromBase64Url(seedText)))
        .as("the seed is the server's signature over the agreement hash")
        .isTrue();

    List<Ed25519PublicKey> candidates = new ArrayList<>();
    payload
        .path("candidates")
        .forEach(k -> candidates.add(Ed25519PublicKey.fromBase64Url(k.asText())));
    String digest = Draw.digestOf(candidates).toString();
    assertThat(fact.path("candidates_digest").asText()).isEqualTo(digest);
    assertThat(payload.path("candidates_digest").asText()).isEqualTo(digest);

    Ed25519PublicKey primary =
        Ed25519PublicKey.fromBase64Url(fact.path("evaluators").get(0).path("key").asText());
    String mode = fact.path("mode").asText();
    assertThat(payload.path("mode").asText()).isEqualTo(mode);
    JsonNode first = payload.path("draws").path(0);
    if (mode.equals("mutual") && first.path("purpose").asText().equals("mutual")) {
      // The parties agreed: the draw is among the eligible evaluators on both latest proposals.
      List<Ed25519PublicKey> both = new ArrayList<>(proposedByBoth(envelope));
      both.retainAll(candidates);
      Draw again = Draw.perform("mutual", Seed.fromBase64Url(seedText), both, 1);
      assertThat(again.chosen()).containsExactly(primary);
      assertThat(Draw.fromJson(first)).isEqualTo(again);
    } else if (!mode.equals("marketplace")) {
      Draw again = Draw.perform("evaluator", Seed.fromBase64Url(seedText), candidates, 1);
      assertThat(again.chosen()).containsExactly(primary);
      JsonNode recorded = payload.path("draws").get(payload.path("draws").size() - 1);
      assertThat(Draw.fromJson(recorded)).isEqualTo(again);
    }
    return new Recorded(id, fact, event, candidates, primary);
  }

  /** The evaluators on both parties' latest proposals, as the agreement's metadata records them. */
  static List<Ed25519PublicKey> proposedByBoth(JsonNode envelope) {
    JsonNode proposals = envelope.path("agreement").path("metadata").path("evaluator_proposals");
    List<Ed25519PublicKey> client = keys(proposals.path("client").path("evaluators"));
    List<Ed25519PublicKey> provider = keys(proposals.path("provider").path("evaluators"));
    client.retainAll(provider);
    return client;
  }

  private static List<Ed25519PublicKey> keys(JsonNode list) {
    List<Ed25519PublicKey> out = new ArrayList<>();
    list.forEach(k -> out.add(Ed25519PublicKey.fromBase64Url(k.asText())));
    return out;
  }

  /** Bob delivers and the assigned evaluator scores it (a pass): the assessment it reports. */
  static ObjectNode deliverAndVerify(
      AsaClient client, AsaClient provider, AsaClient evaluator, String id) {
    client.fund(id);
    provider.deliver(
        id, "# Federated learning\n\nDifferential privacy bounds leakage.\n", "markdown");
    ObjectNode verified = evaluator.verify(id, LifecycleEndToEndTest.judgedScores(88, 82, 94));
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    return verified;
  }
}
