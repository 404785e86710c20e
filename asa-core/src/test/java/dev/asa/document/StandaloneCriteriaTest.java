package dev.asa.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.Dimension;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.SeriesGuarantee;
import dev.asa.json.Json;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class StandaloneCriteriaTest {

  @Test
  void everyTypeHasTheSection54DimensionsWithWeightsSummingToOne() {
    for (String type : StandaloneCriteria.TYPES) {
      QualityCriteria c = StandaloneCriteria.forType(type);
      assertThat(c.dimensions()).hasSize(5);
      assertThat(
              c.dimensions().stream()
                  .map(Dimension::weight)
                  .reduce(BigDecimal.ZERO, BigDecimal::add))
          .as(type)
          .isEqualByComparingTo("1");
      assertThat(c.compositeThreshold()).isEqualByComparingTo("70");
    }
  }

  @Test
  void codeWeightsAreThoseOfTheTable() {
    QualityCriteria code = StandaloneCriteria.forType("code");
    assertThat(code.dimensions())
        .extracting(Dimension::name)
        .containsExactly(
            "correctness", "performance", "security", "maintainability", "documentation");
    assertThat(code.dimension("correctness").orElseThrow().weight()).isEqualByComparingTo("0.30");
    assertThat(code.dimension("documentation").orElseThrow().weight()).isEqualByComparingTo("0.15");
  }

  @Test
  void unknownTypeIsRefusedWithTheList() {
    assertThatThrownBy(() -> StandaloneCriteria.forType("poetry"))
        .hasMessageContaining("poetry")
        .hasMessageContaining("text/research");
  }

  @Test
  void callerCriteriaAreCheckedByTheAgreementRules() throws Exception {
    QualityCriteria c =
        StandaloneCriteria.parse(
            Json.parse(
                """
                {"dimensions":[{"name":"relevance","weight":1,"metric":"percentage","slo":{"operator":"gte","value":80}}],
                 "composite_threshold":75}\
                """));
    assertThat(c.dimensions()).singleElement().extracting(Dimension::name).isEqualTo("relevance");

    assertThatThrownBy(() ->
            StandaloneCriteria.parse(
                Json.parse(
                    """
                    {"dimensions":[{"name":"relevance","weight":1,"metric":"percentage","slo":{"operator":"gte","value":"high"}}],
                     "composite_threshold":75}\
                    """)))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/quality_criteria/dimensions/0/slo");
    assertThatThrownBy(() -> StandaloneCriteria.parse(Json.parse("[]")))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/quality_criteria");
  }

  @Test
  void probabilisticGuaranteesAreReadAndChecked() throws Exception {
    String dims =
        "\"dimensions\":[{\"name\":\"accuracy\",\"weight\":1,\"metric\":\"percentage\",\"slo\":{\"operator\":\"gte\",\"value\":80}}],"
            + "\"composite_threshold\":75,";
    QualityCriteria passAtK =
        StandaloneCriteria.parse(
            Json.parse(
                "{"
                    + dims
                    + "\"guarantee_type\":\"probabilistic\",\"guarantee\":{\"metric\":\"pass@k\",\"k\":5,\"threshold\":95}}"));
    assertThat(passAtK.guarantee())
        .isEqualTo(new SeriesGuarantee.PassAtK(5, BigDecimal.valueOf(95), 20, 5));
    QualityCriteria p90 =
        StandaloneCriteria.parse(
            Json.parse(
                "{"
                    + dims
                    + "\"guarantee_type\":\"probabilistic\",\"guarantee\":{\"metric\":\"percentile\",\"dimension\":\"accuracy\",\"percentile\":90,\"threshold\":85}}"));
    assertThat(p90.guarantee()).isInstanceOf(SeriesGuarantee.Percentile.class);

    assertThatThrownBy(() ->
            StandaloneCriteria.parse(
                Json.parse("{" + dims + "\"guarantee_type\":\"probabilistic\"}")))
        .hasMessageContaining("/quality_criteria/guarantee");
    assertThatThrownBy(() ->
            StandaloneCriteria.parse(
                Json.parse(
                    "{"
                        + dims
                        + "\"guarantee_type\":\"probabilistic\",\"guarantee\":{\"metric\":\"percentile\",\"dimension\":\"speed\",\"percentile\":90,\"threshold\":85}}")))
        .hasMessageContaining("/quality_criteria/guarantee/dimension");
    assertThatThrownBy(() ->
            StandaloneCriteria.parse(
                Json.parse(
                    "{"
                        + dims
                        + "\"guarantee_type\":\"probabilistic\",\"guarantee\":{\"metric\":\"pass@k\",\"k\":0,\"threshold\":95}}")))
        .hasMessageContaining("/quality_criteria/guarantee/k");
    assertThatThrownBy(() ->
            StandaloneCriteria.parse(
                Json.parse(
                    "{"
                        + dims
                        + "\"guarantee\":{\"metric\":\"pass@k\",\"k\":5,\"threshold\":95}}")))
        .hasMessageContaining("applies only with");
  }
}
