package dev.asa.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.AgreementDocuments;
import dev.asa.document.AgreementDrafts;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The semantic rules on text: no control characters in names and ids; independence by comparable
 * names.
 */
class TextRulesTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  private static ObjectNode full() {
    ObjectNode doc =
        AgreementDrafts.propose(Fixtures.general(), NOW, () -> "asa-test-0001").toJson();
    doc.remove("status");
    return doc;
  }

  private static ObjectNode at(ObjectNode doc, String pointer) {
    return (ObjectNode) doc.at(pointer);
  }

  private static void assertRefused(Consumer<ObjectNode> edit, String pointer, String fragment) {
    ObjectNode doc = full();
    edit.accept(doc);
    assertThatThrownBy(() -> AgreementDocuments.read(doc))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations())
                .anySatisfy(v -> {
                  assertThat(v.pointer()).isEqualTo(pointer);
                  assertThat(v.message()).containsIgnoringCase(fragment);
                }));
  }

  @ParameterizedTest(name = "U+{0}")
  @ValueSource(ints = {0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F})
  void controlCharactersInIdentitiesAndNamesAreRefusedWithTheirPointer(int cp) {
    String bad = "ev" + (char) cp + "il";
    assertRefused(
        d -> at(d, "/parties/client/identity").put("value", bad),
        "/parties/client/identity/value",
        "control character");
    assertRefused(
        d -> at(d, "/parties/provider/identity").put("lineage", bad),
        "/parties/provider/identity/lineage",
        "control character");
    assertRefused(
        d -> at(d, "/parties/evaluator").put("organization", bad),
        "/parties/evaluator/organization",
        "control character");
    assertRefused(
        d -> at(d, "/parties/client").put("display_name", bad),
        "/parties/client/display_name",
        "control character");
    assertRefused(
        d -> at(d, "/parties/evaluator").put("type", bad),
        "/parties/evaluator/type",
        "control character");
  }

  @Test
  void idsWithControlCharactersAreRefused() {
    assertRefused(d -> d.put("agreement_id", "asa-\u0000-1"), "/agreement_id", "");
    assertRefused(
        d -> at(d, "/service").put("parent_agreement_id", "asa-\u0000-1"),
        "/service/parent_agreement_id",
        "");
  }

  @Test
  void ordinaryUnicodeNamesAreFine() {
    ObjectNode doc = full();
    at(doc, "/parties/client").put("display_name", "Zo\u00EB \u6771\u4EAC \uD83D\uDE00");
    at(doc, "/parties/client").put("organization", "Caf\u00E9 Ltd");
    assertThatCode(() -> AgreementDocuments.read(doc)).doesNotThrowAnyException();
  }

  @ParameterizedTest(name = "evaluator organization {0}")
  @ValueSource(
      strings = {
        "ACME Labs",
        "ACME Labs\u200B",
        "acme\u200C labs ",
        " acme  labs",
        "ac\u00ADme labs",
        "\uFEFFacme labs",
        "acme\u2060 labs",
        "\uFF21\uFF23\uFF2D\uFF25 labs",
        "acme\u00A0labs",
        "ACME LABS\u200D"
      })
  void anEvaluatorOfTheSameOrganizationWrittenAnotherWayIsRefused(String evaluatorOrg) {
    assertRefused(
        d -> {
          at(d, "/parties/client").put("organization", "acme labs");
          at(d, "/parties/evaluator").put("organization", evaluatorOrg);
        },
        "/parties/evaluator/organization",
        "same organization as the client");
  }

  @Test
  void decomposedFormsDoNotMakeADifferentOrganizationOrLineage() {
    assertRefused(
        d -> {
          at(d, "/parties/provider").put("organization", "Soci\u00E9t\u00E9 G\u00E9n\u00E9rale");
          at(d, "/parties/evaluator")
              .put("organization", "SOCIE\u0301TE\u0301 GE\u0301NE\u0301RALE");
        },
        "/parties/evaluator/organization",
        "same organization as the provider");
    assertRefused(
        d -> {
          at(d, "/parties/client/identity").put("lineage", "sha256:Chain-1");
          at(d, "/parties/evaluator/identity").put("lineage", "SHA256:chain-1\u200B");
        },
        "/parties/evaluator/identity/lineage",
        "lineage with the client");
  }

  @Test
  void anEvaluatorIdentityWrittenAnotherWayIsTheSameAgent() {
    assertRefused(
        d -> at(d, "/parties/evaluator/identity").put("value", "ALICE\u200B"),
        "/parties/evaluator/identity",
        "same identity as the client");
    assertRefused(
        d -> at(d, "/parties/provider/identity").put("value", " \uFF41lice"),
        "/parties/provider/identity",
        "different agents");
  }

  @Test
  void genuinelyDifferentOrganizationsPass() {
    ObjectNode doc = full();
    at(doc, "/parties/client").put("organization", "acme labs");
    at(doc, "/parties/evaluator").put("organization", "acme lab");
    assertThatCode(() -> AgreementDocuments.read(doc)).doesNotThrowAnyException();
  }
}
