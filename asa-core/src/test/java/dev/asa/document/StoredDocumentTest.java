package dev.asa.document;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The document as the store keeps it: no status of its own; the row's state is the status. */
class StoredDocumentTest {
  private final Agreement proposed =
      AgreementDrafts.propose(
          Fixtures.general(), Instant.parse("2026-12-07T10:00:00Z"), () -> "asa-stored-test");

  @Test
  void theStoredTextKeepsNoStatusAndReadsBackInTheRowsState() throws Exception {
    Agreement active = proposed.withState(State.ACTIVE);
    String stored = active.toStoredText();
    assertThat(Json.parse(stored).has("status")).isFalse();

    Agreement read = AgreementDocuments.readStored(stored, State.ACTIVE);
    assertThat(read.state()).isEqualTo(State.ACTIVE);
    assertThat(Json.parse(Json.write(read.toJson())))
        .isEqualTo(Json.parse(Json.write(active.toJson())));
    assertThat(read.hash()).isEqualTo(proposed.hash());
    assertThat(AgreementDocuments.readStored(stored, State.CLOSED).state()).isEqualTo(State.CLOSED);
  }

  @Test
  void aTextStoredWithAStatusReadsInTheRowsStateAllTheSame() {
    // Rows written before the status left the stored text keep one; the row's state counts.
    String old = Json.write(proposed.withState(State.ACTIVE).toJson());
    assertThat(old).contains("\"status\":\"active\"");
    assertThat(AgreementDocuments.readStored(old, State.DELIVERED).state())
        .isEqualTo(State.DELIVERED);
  }

  @Test
  void aChangeOfStateOrFactsLeavesTheDocumentAndASignatureOrAnotherTermDoesNot() {
    Agreement active = proposed.withState(State.ACTIVE);
    assertThat(active.sameDocumentButStatus(proposed)).isTrue();
    assertThat(proposed.sameDocumentButStatus(active)).isTrue();
    assertThat(
            active
                .withFacts(f -> f.withEscrow(dev.asa.facts.EscrowFact.unfunded()))
                .sameDocumentButStatus(active))
        .isTrue();

    Agreement signed =
        proposed.withSignature(Role.CLIENT, Fixtures.key("alice").sign(proposed.signingInput()));
    assertThat(signed.sameDocumentButStatus(proposed)).isFalse();

    ObjectNode changed = proposed.toJson();
    ((ObjectNode) changed.path("service")).put("description", "something else");
    assertThat(AgreementDocuments.read(changed).sameDocumentButStatus(proposed)).isFalse();
    ObjectNode extra = proposed.toJson();
    extra.put("x_note", "one member more");
    assertThat(AgreementDocuments.read(extra).sameDocumentButStatus(proposed)).isFalse();
  }
}
