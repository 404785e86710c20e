package dev.asa.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDrafts;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The tests a code agreement's deliverable must pass, as the signed terms carry them. */
class CodeTestsTest {
  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

  private static ObjectNode codeAgreement() {
    ObjectNode doc = Fixtures.fromTemplate("code_generation");
    return doc;
  }

  private static ObjectNode withTests(ObjectNode tests) {
    ObjectNode doc = codeAgreement();
    Agreement defaults = AgreementDrafts.propose(codeAgreement(), NOW, () -> "asa-code-0");
    ObjectNode criteria = (ObjectNode) defaults.toJson().get("quality_criteria").deepCopy();
    criteria.set("tests", tests);
    doc.set("quality_criteria", criteria);
    return doc;
  }

  @Test
  void theTemplateGatesOnTheTestsPassing() {
    Agreement a = AgreementDrafts.propose(codeAgreement(), NOW, () -> "asa-code-1");
    assertThat(a.terms().qualityCriteria().gates())
        .extracting(QualityGate::text)
        .contains("tests_pass");
    assertThat(a.terms().qualityCriteria().codeTests()).isEmpty();
  }

  @Test
  void agreedTestsAreReadIntoTheTerms() {
    ObjectNode tests =
        dev.asa.json.Json.object().put("language", "python").put("content", "import unittest\n");
    Agreement a = AgreementDrafts.propose(withTests(tests), NOW, () -> "asa-code-2");
    assertThat(a.terms().qualityCriteria().codeTests())
        .contains(new CodeTests("python", "import unittest\n"));
  }

  @Test
  void badTestsAreRefusedNamingTheMember() {
    ObjectNode cobol = dev.asa.json.Json.object().put("language", "cobol").put("content", "x");
    assertThatThrownBy(() -> AgreementDrafts.propose(withTests(cobol), NOW, () -> "asa-code-3"))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/quality_criteria/tests/language");
    ObjectNode empty = dev.asa.json.Json.object().put("language", "java").put("content", " ");
    assertThatThrownBy(() -> AgreementDrafts.propose(withTests(empty), NOW, () -> "asa-code-4"))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/quality_criteria/tests/content");
    ObjectNode extra =
        dev.asa.json.Json.object().put("language", "java").put("content", "x").put("run", "rm");
    assertThatThrownBy(() -> AgreementDrafts.propose(withTests(extra), NOW, () -> "asa-code-5"))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/quality_criteria/tests/run");
  }
}
