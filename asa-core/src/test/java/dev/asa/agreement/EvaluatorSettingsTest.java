package dev.asa.agreement;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.AgreementDrafts;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A request narrows the signed evaluator settings and never loosens them. */
class EvaluatorSettingsTest {
  private static final String AT = "/verification_config/evaluator_config";
  private static final List<String> MODELS = List.of("gpt-4o-mini", "GPT-4o-mini", "claude-x");
  private static final List<String> RUBRICS = List.of("research-v1", "general-v1");

  private static <T> T maybe(Random r, T value) {
    return r.nextInt(3) == 0 ? null : value;
  }

  private static EvaluatorSettings random(Random r) {
    return new EvaluatorSettings(
        maybe(r, MODELS.get(r.nextInt(MODELS.size()))),
        maybe(r, RUBRICS.get(r.nextInt(RUBRICS.size()))),
        maybe(r, r.nextInt(EvaluatorSettings.MAX_SPOT_CHECK_CLAIMS + 1)),
        maybe(r, BigDecimal.valueOf(r.nextInt(200), 2)),
        maybe(r, r.nextBoolean()));
  }

  private static boolean sameText(String a, String b) {
    return a.equalsIgnoreCase(b);
  }

  /**
   * Over random pairs: the result keeps every value the document fixes at least as strict, takes
   * the request's where the document is silent or the request is stricter; and a refusal names
   * exactly the members by which the request would loosen the document.
   */
  @Test
  void theResultIsNeverLooserThanTheDocumentAndEveryRefusalNamesALoosening() {
    Random r = new Random(20261123L);
    int refused = 0;
    for (int i = 0; i < 5000; i++) {
      EvaluatorSettings doc = random(r);
      EvaluatorSettings req = random(r);
      List<String> loosening = new ArrayList<>();
      if (doc.model() != null && req.model() != null && !sameText(doc.model(), req.model())) {
        loosening.add(AT + "/model");
      }
      if (doc.rubricId() != null
          && req.rubricId() != null
          && !sameText(doc.rubricId(), req.rubricId())) {
        loosening.add(AT + "/rubric_id");
      }
      if (doc.spotCheckClaims() != null
          && req.spotCheckClaims() != null
          && req.spotCheckClaims() < doc.spotCheckClaims()) {
        loosening.add(AT + "/spot_check_claims");
      }
      if (doc.maxCostUsd() != null
          && req.maxCostUsd() != null
          && req.maxCostUsd().compareTo(doc.maxCostUsd()) > 0) {
        loosening.add(AT + "/max_cost_usd");
      }
      if (Boolean.TRUE.equals(doc.evidenceCollection())
          && Boolean.FALSE.equals(req.evidenceCollection())) {
        loosening.add(AT + "/evidence_collection");
      }
      EvaluatorSettings out;
      try {
        out = doc.narrowedBy(req, AT);
      } catch (InvalidDocumentException e) {
        refused++;
        assertThat(e.violations()).extracting(Violation::pointer).isEqualTo(loosening);
        continue;
      }
      assertThat(loosening).as("%s within %s", req, doc).isEmpty();
      assertThat(out.model()).isEqualTo(doc.model() != null ? doc.model() : req.model());
      assertThat(out.rubricId())
          .isEqualTo(doc.rubricId() != null ? doc.rubricId() : req.rubricId());
      if (doc.spotCheckClaims() != null) {
        assertThat(out.spotCheckClaims()).isGreaterThanOrEqualTo(doc.spotCheckClaims());
      }
      if (req.spotCheckClaims() != null) {
        assertThat(out.spotCheckClaims()).isEqualTo(req.spotCheckClaims());
      }
      if (doc.maxCostUsd() != null) {
        assertThat(out.maxCostUsd()).isLessThanOrEqualTo(doc.maxCostUsd());
      }
      if (req.maxCostUsd() != null) {
        assertThat(out.maxCostUsd()).isEqualByComparingTo(req.maxCostUsd());
      }
      if (Boolean.TRUE.equals(doc.evidenceCollection())) {
        assertThat(out.evidenceCollection()).isTrue();
      }
      // Narrowing is idempotent: what ran is within the document again.
      assertThat(doc.narrowedBy(out, AT)).isEqualTo(out);
    }
    assertThat(refused).as("both outcomes are exercised").isBetween(500, 4500);
  }

  @Test
  void theDocumentSaysItInPartiesEvaluatorConfigAndTheProviderDeclaresItsModel() {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.get("parties").get("provider")).put("model", "gpt-4o");
    ((ObjectNode) doc.get("parties").get("evaluator"))
        .putObject("config")
        .put("model", "claude-sonnet-4-6")
        .put("rubric_id", "research-v1")
        .put("spot_check_claims", 3)
        .put("max_cost_usd", 0.25)
        .put("evidence_collection", false)
        .put("temperature", 0);
    AgreementTerms terms =
        AgreementDrafts.propose(doc, Instant.parse("2026-03-01T10:00:00Z"), () -> "asa-x").terms();
    assertThat(terms.parties().provider().declaredModel()).contains("gpt-4o");
    assertThat(terms.parties().client().declaredModel()).isEmpty();
    assertThat(terms.parties().evaluator().orElseThrow().evaluatorSettings())
        .isEqualTo(
            new EvaluatorSettings(
                "claude-sonnet-4-6", "research-v1", 3, new BigDecimal("0.25"), false));
    assertThat(terms.parties().provider().evaluatorSettings()).isEqualTo(EvaluatorSettings.NONE);
    // Without a config the document fixes nothing.
    assertThat(
            AgreementDrafts.propose(
                    Fixtures.general(), Instant.parse("2026-03-01T10:00:00Z"), () -> "asa-y")
                .terms()
                .parties()
                .evaluator()
                .orElseThrow()
                .evaluatorSettings())
        .isEqualTo(EvaluatorSettings.NONE);
  }
}
