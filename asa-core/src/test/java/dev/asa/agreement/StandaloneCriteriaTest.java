package dev.asa.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.json.Json;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class StandaloneCriteriaTest {

  @Test
  void everyTypeHasTheSection54DimensionsWithWeightsSummingToOne() {
    for (String type : StandaloneCriteria.TYPES) {
      QualityCriteria c = StandaloneCriteria.forType(type);
      assertThat(c.dimensions()).hasSize(5);
      assertThat(c.dimensions().stream().map(Dimension::weight).reduce(BigDecimal.ZERO, BigDecimal::add))
          .as(type).isEqualByComparingTo("1");
      assertThat(c.compositeThreshold()).isEqualByComparingTo("70");
    }
  }

  @Test
  void codeWeightsAreThoseOfTheTable() {
    QualityCriteria code = StandaloneCriteria.forType("code");
    assertThat(code.dimensions()).extracting(Dimension::name)
        .containsExactly("correctness", "performance", "security", "maintainability", "documentation");
    assertThat(code.dimension("correctness").orElseThrow().weight()).isEqualByComparingTo("0.30");
    assertThat(code.dimension("documentation").orElseThrow().weight()).isEqualByComparingTo("0.15");
  }

  @Test
  void unknownTypeIsRefusedWithTheList() {
    assertThatThrownBy(() -> StandaloneCriteria.forType("poetry"))
        .hasMessageContaining("poetry").hasMessageContaining("text/research");
  }

  @Test
  void callerCriteriaAreCheckedByTheAgreementRules() throws Exception {
    QualityCriteria c = StandaloneCriteria.parse(Json.parse("""
        {"dimensions":[{"name":"relevance","weight":1,"metric":"percentage","slo":{"operator":"gte","value":80}}],
         "composite_threshold":75}"""));
    assertThat(c.dimensions()).singleElement().extracting(Dimension::name).isEqualTo("relevance");

    assertThatThrownBy(() -> StandaloneCriteria.parse(Json.parse("""
        {"dimensions":[{"name":"relevance","weight":1,"metric":"percentage","slo":{"operator":"gte","value":"high"}}],
         "composite_threshold":75}""")))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/quality_criteria/dimensions/0/slo");
    assertThatThrownBy(() -> StandaloneCriteria.parse(Json.parse("[]")))
        .isInstanceOf(InvalidDocumentException.class).hasMessageContaining("/quality_criteria");
  }
}
