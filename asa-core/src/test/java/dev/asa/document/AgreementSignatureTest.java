package dev.asa.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.agreement.SignatureRefusedException;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AgreementSignatureTest {
  private final Agreement proposed =
      AgreementDrafts.propose(
          Fixtures.general(), Instant.parse("2026-11-22T10:00:00Z"), () -> "asa-sig-test");
  private final Agreement moved =
      proposed
          .withState(State.ACTIVE)
          .withFacts(f -> f.withEscrow(dev.asa.facts.EscrowFact.unfunded()));

  @Test
  void theHashIgnoresStatusSignaturesAndServerFactsOnly() {
    assertThat(moved.hash()).isEqualTo(proposed.hash());
    assertThat(moved.toJson().has("metadata")).as("facts stay out of the document").isFalse();
    assertThat(Agreement.computeHash(moved.toAnswerJson()))
        .as("a rendered document hashes like the signed one")
        .isEqualTo(proposed.hash());
    ObjectNode changed = proposed.toJson();
    ((ObjectNode) changed.path("service")).put("description", "something else");
    assertThat(AgreementDocuments.read(changed).hash()).isNotEqualTo(proposed.hash());
    assertThat(proposed.hash().toString()).matches("sha256:[0-9a-f]{64}");
  }

  @Test
  void anAnswerShowsTheDocumentWithItsFactsAndWritingItLeavesTheAgreementAsItWas() {
    String before = Json.write(moved.toJson());

    ObjectNode answer = moved.toAnswerJson();
    String written = Json.write(answer);

    ObjectNode expected = moved.toJson();
    expected.set("metadata", answer.get("metadata"));
    assertThat(answer.get("metadata")).isNotNull();
    assertThat(Json.parseTrusted(written)).isEqualTo(expected);
    assertThat(Json.write(moved.toJson())).isEqualTo(before);
    assertThat(moved.toJson().has("metadata")).isFalse();
  }

  @Test
  void aPartySignsTheUtf8BytesOfTheHashString() {
    Ed25519Signature sig = Fixtures.key("alice").sign(proposed.signingInput());
    Agreement signed = proposed.withSignature(Role.CLIENT, sig);
    assertThat(signed.isSignedBy(Role.CLIENT)).isTrue();
    assertThat(signed.isFullySigned()).isFalse();
    assertThat(signed.toJson().path("signatures").path("client").path("value").asText())
        .isEqualTo(sig.toBase64Url());
    assertThat(signed.hash()).isEqualTo(proposed.hash());
    // a stored signed document reads back with its signature
    assertThat(
            AgreementDocuments.readStored(Json.write(signed.toJson()), signed.state())
                .signature(Role.CLIENT))
        .contains(sig);
  }

  @Test
  void aChangeLeavesTheAgreementItWasMadeFromAsItWas() {
    String before = proposed.toJsonText();
    Agreement clientSigned =
        proposed.withSignature(Role.CLIENT, Fixtures.key("alice").sign(proposed.signingInput()));
    String clientOnly = clientSigned.toJsonText();
    Agreement both =
        clientSigned.withSignature(
            Role.PROVIDER, Fixtures.key("bob").sign(proposed.signingInput()));
    Agreement active = both.withState(State.ACTIVE);
    assertThat(proposed.toJsonText()).isEqualTo(before);
    assertThat(clientSigned.toJsonText()).isEqualTo(clientOnly);
    assertThat(clientSigned.isSignedBy(Role.PROVIDER)).isFalse();
    assertThat(both.state()).isEqualTo(State.PROPOSED);
    assertThat(active.toJson().path("signatures").size()).isEqualTo(2);
    assertThat(active.toJsonText()).isEqualTo(Json.write(active.toJson()));
    // what a caller does to a copy it was given never reaches the agreement
    ((ObjectNode) active.toJson().path("signatures")).removeAll();
    assertThat(active.isFullySigned()).isTrue();
    assertThat(active.toJson().path("signatures").size()).isEqualTo(2);
  }

  @Test
  void aSignatureByTheWrongKeyIsRefusedAndChangesNothing() {
    Ed25519Signature byBob = Fixtures.key("bob").sign(proposed.signingInput());
    assertThatThrownBy(() -> proposed.withSignature(Role.CLIENT, byBob))
        .isInstanceOf(SignatureRefusedException.class)
        .hasMessageContaining(proposed.hash().toString());
    assertThat(proposed.isSignedBy(Role.CLIENT)).isFalse();
  }

  @Test
  void aSignatureOverOtherTermsIsRefused() {
    ObjectNode other = proposed.toJson();
    ((ObjectNode) other.path("escrow").path("payment")).put("amount", "1.00");
    Agreement cheaper = AgreementDocuments.read(other);
    Ed25519Signature forCheaper = Fixtures.key("alice").sign(cheaper.signingInput());
    assertThatThrownBy(() -> proposed.withSignature(Role.CLIENT, forCheaper))
        .isInstanceOf(SignatureRefusedException.class);
  }

  @Test
  void theEvaluatorDoesNotSign() {
    Ed25519PrivateKey k = Fixtures.key("eval");
    assertThatThrownBy(
            () -> proposed.withSignature(Role.EVALUATOR, k.sign(proposed.signingInput())))
        .isInstanceOf(SignatureRefusedException.class);
  }

  @Test
  void bothSignaturesMakeItFullySigned() {
    Agreement both =
        proposed
            .withSignature(Role.CLIENT, Fixtures.key("alice").sign(proposed.signingInput()))
            .withSignature(Role.PROVIDER, Fixtures.key("bob").sign(proposed.signingInput()));
    assertThat(both.isFullySigned()).isTrue();
  }
}
