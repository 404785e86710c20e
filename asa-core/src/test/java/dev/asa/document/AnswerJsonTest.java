package dev.asa.document;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.facts.EscrowFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An agreement written from its kept members text ({@link MembersText}, {@link AnswerJson}) is the
 * very text its tree gives, byte for byte: stored, answered, inside an envelope, at every step of
 * its lifecycle and with whatever members a caller's document carries.
 */
class AnswerJsonTest {
  private final Agreement proposed =
      AgreementDrafts.propose(
          Fixtures.general(), Instant.parse("2026-12-08T10:00:00Z"), () -> "asa-answer-test");

  @Test
  void everyStepOfALifecycleIsWrittenAsItsTreeWouldBe() {
    for (Agreement a : lifecycle(proposed)) {
      assertWrittenAsTree(a);
    }
  }

  @Test
  void theStoredTextIsTheDocumentWithoutItsStatusAsJacksonWritesIt() {
    for (Agreement a : lifecycle(proposed)) {
      ObjectNode withoutStatus = a.toJson();
      withoutStatus.remove("status");
      assertThat(a.toStoredText()).isEqualTo(Json.write(withoutStatus));
    }
  }

  @Test
  void inAnEnvelopeTheMembersAroundTheAgreementAreWrittenAsBefore() {
    Agreement funded = lifecycle(proposed).getLast();
    ObjectNode envelope = Json.object();
    envelope.put("agreement_id", funded.id());
    envelope.set("agreement", funded.toAnswerJson());
    envelope.put("version", 7);
    envelope.putArray("allowed_actions").add("deliver");

    ObjectNode plainEnvelope = Json.object();
    plainEnvelope.put("agreement_id", funded.id());
    plainEnvelope.set("agreement", plainAnswer(funded));
    plainEnvelope.put("version", 7);
    plainEnvelope.putArray("allowed_actions").add("deliver");

    assertThat(text(Json.writeBytes(envelope))).isEqualTo(text(Json.writeBytes(plainEnvelope)));
    assertThat(Json.write(envelope)).isEqualTo(Json.write(plainEnvelope));
    assertThat(Json.writePretty(envelope)).isEqualTo(Json.writePretty(plainEnvelope));
    assertThat(envelope).isEqualTo(plainEnvelope);
    // Copied into a tree, the answer is nodes again, not a raw text.
    com.fasterxml.jackson.databind.JsonNode copied = Json.mapper().valueToTree(envelope);
    assertThat(copied.path("agreement").isObject()).isTrue();
    assertThat(copied).isEqualTo(plainEnvelope);
  }

  @Test
  void anAnswerChangedAfterItWasMadeIsWrittenAsItNowIs() throws Exception {
    Agreement active = proposed.withState(State.ACTIVE);

    ObjectNode added = active.toAnswerJson();
    added.put("x_added", 1);
    assertThat(Json.write(added)).contains("\"x_added\":1");

    ObjectNode removed = active.toAnswerJson();
    removed.remove("service");
    assertThat(Json.parse(Json.write(removed)).has("service")).isFalse();

    ObjectNode replaced = active.toAnswerJson();
    replaced.put("status", "closed");
    assertThat(Json.write(replaced)).contains("\"status\":\"closed\"");
  }

  @Test
  void whereverTheStatusSitsAndWhateverTheMembersHoldTheTextIsTheTrees() {
    long seed = System.nanoTime();
    System.out.println("AnswerJsonTest seed: " + seed);
    Random random = new Random(seed);
    for (int run = 0; run < 200; run++) {
      ObjectNode document = proposed.toJson();
      // The status first, last, in the middle or absent; extra members with hostile text.
      ObjectNode reordered = Json.object();
      List<String> names = new ArrayList<>();
      document.fieldNames().forEachRemaining(names::add);
      names.remove("status");
      int statusAt = random.nextInt(names.size() + 2) - 1; // -1: no status
      for (int i = 0; i <= names.size(); i++) {
        if (i == statusAt) {
          reordered.put("status", "proposed");
        }
        if (i < names.size()) {
          reordered.set(names.get(i), document.get(names.get(i)));
        }
        if (random.nextInt(4) == 0) {
          reordered.put("x_" + hostile(random), hostile(random));
        }
      }
      Agreement read = AgreementDocuments.read(reordered);
      assertWrittenAsTree(read);
      assertWrittenAsTree(read.withState(State.ACTIVE));
      assertWrittenAsTree(
          read.withState(State.ACTIVE).withFacts(f -> f.withEscrow(EscrowFact.unfunded())));
    }
  }

  private static void assertWrittenAsTree(Agreement a) {
    ObjectNode plain = plainAnswer(a);
    assertThat(Json.write(a.toAnswerJson())).isEqualTo(Json.write(plain));
    String bytes = text(Json.writeBytes(a.toAnswerJson()));
    if (bytes.codePoints().allMatch(Character::isBmpCodePoint)) {
      assertThat(bytes).isEqualTo(text(Json.writeBytes(plain)));
    } else {
      // Jackson's UTF-8 writer escapes a character beyond the BMP in a tree (a pair of escaped
      // surrogates); the kept text carries it as UTF-8. The same JSON, read back the same.
      assertThat(bytes).isNotEqualTo(text(Json.writeBytes(plain)));
      assertThat(Json.parseTrusted(bytes))
          .isEqualTo(Json.parseTrusted(text(Json.writeBytes(plain))));
    }
  }

  /** The answer as a plain tree: the document and the rendered facts, written by walking it. */
  private static ObjectNode plainAnswer(Agreement a) {
    ObjectNode plain = a.toJson();
    if (!a.facts().isEmpty()) {
      plain.set(Agreement.FACTS_MEMBER, a.facts().toJson());
    }
    return plain;
  }

  private static List<Agreement> lifecycle(Agreement proposed) {
    Agreement clientSigned =
        proposed.withSignature(Role.CLIENT, Fixtures.key("alice").sign(proposed.signingInput()));
    Agreement bothSigned =
        clientSigned.withSignature(
            Role.PROVIDER, Fixtures.key("bob").sign(proposed.signingInput()));
    Agreement active = bothSigned.withState(State.ACTIVE);
    Agreement funded = active.withFacts(f -> f.withEscrow(EscrowFact.unfunded()));
    return List.of(proposed, clientSigned, bothSigned, active, funded);
  }

  /** Text that JSON must escape: quotes, backslashes, control characters, non-ASCII, surrogates. */
  private static String hostile(Random random) {
    String[] parts = {"\"", "\\", "\n", "\u0001", "\u007f", "é", "日本", "\uD83D\uDE00", "a", "</"};
    StringBuilder s = new StringBuilder();
    int n = 1 + random.nextInt(6);
    for (int i = 0; i < n; i++) {
      s.append(parts[random.nextInt(parts.length)]);
    }
    return s.toString();
  }

  private static String text(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }
}
