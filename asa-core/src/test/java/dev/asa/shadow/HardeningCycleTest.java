package dev.asa.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class HardeningCycleTest {

  private static ShadowValidation validate(SealedEnvelope env, int failing) {
    return ShadowValidator.validate(
        env, ShadowValidatorTest.failing(failing, env.criteria().size()), Judge.NONE);
  }

  @Test
  void sixtyHardenedToTwentyIsAVelocityOfForty() {
    SealedEnvelope env = ShadowValidatorTest.tokens(10);
    HardeningCycle cycle = HardeningCycle.start(validate(env, 6), Scale.SS_250.hardening());

    assertThat(cycle.gate()).isEqualTo(Gate.FAIL);
    assertThat(cycle.triggered()).isTrue();
    assertThat(cycle.fixAllowed()).isTrue();
    assertThat(cycle.messages(env.nonce()).messages()).hasSize(6);

    HardeningCycle after = cycle.redelivered(validate(env, 2));
    JsonNode json = after.report().toJson();

    assertThat(after.standing()).isSameAs(after.latest());
    assertThat(after.gate()).isEqualTo(Gate.PROCEED_WITH_WARNING);
    assertThat(Json.write(json.path("hardening")))
        .isEqualTo(
            "{\"cycles_completed\":1,\"max_cycles\":1,\"initial_shadow_score\":60.0,"
                + "\"final_shadow_score\":20.0,\"hardening_velocity\":40.0,\"max_reveal\":\"message\"}");
    assertThat(json.path("report").path("shadow_score").decimalValue())
        .isEqualByComparingTo("20.0");
    assertThat(ReportSchema.violations(json)).isEmpty();
    // the one cycle is used
    assertThat(after.fixAllowed()).isFalse();
    assertThat(after.messages(env.nonce()).messages()).isEmpty();
    assertThatThrownBy(() -> after.redelivered(validate(env, 0)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(after.report().summary()).contains("Hardening: 60.0% -> 20.0% in 1 of 1 cycle");
  }

  @Test
  void theBetterDeliveryStands() {
    SealedEnvelope env = ShadowValidatorTest.tokens(10);
    ShadowValidation first = validate(env, 4);

    HardeningCycle after =
        HardeningCycle.start(first, HardeningPolicy.DEFAULT).redelivered(validate(env, 7));

    assertThat(after.standing()).isSameAs(first);
    assertThat(after.gate()).isEqualTo(Gate.QUARANTINE);
    JsonNode hardening = after.report().toJson().path("hardening");
    assertThat(hardening.path("final_shadow_score").decimalValue()).isEqualByComparingTo("40.0");
    assertThat(hardening.path("hardening_velocity").decimalValue()).isEqualByComparingTo("0.0");
    assertThat(after.report().toJson().path("report").path("shadow_score").decimalValue())
        .isEqualByComparingTo("40.0");
  }

  @Test
  void hardeningStartsOnlyStrictlyAboveTheThresholdAndNeverOnSs50() {
    assertThat(HardeningPolicy.DEFAULT.triggeredBy(new ShadowScore(20, 3)))
        .as("15.0 is not above 15")
        .isFalse();
    assertThat(HardeningPolicy.DEFAULT.triggeredBy(new ShadowScore(25, 4))).isTrue();

    SealedEnvelope env = ShadowValidatorTest.tokens(6);
    HardeningCycle ss50 = HardeningCycle.start(validate(env, 5), Scale.SS_50.hardening());
    assertThat(ss50.triggered()).isFalse();
    assertThat(ss50.fixAllowed()).isFalse();
    assertThat(ss50.block()).isEmpty();
    assertThat(ss50.report().toJson().has("hardening")).isFalse();
    assertThat(ss50.gate()).isEqualTo(Gate.FAIL);

    HardeningCycle minor =
        HardeningCycle.start(validate(ShadowValidatorTest.tokens(10), 1), HardeningPolicy.DEFAULT);
    assertThat(minor.triggered()).isFalse();
    assertThat(minor.messages(env.nonce()).messages()).isEmpty();
  }

  @Test
  void beforeAnyRedeliveryTheBlockHasNoVelocity() {
    SealedEnvelope env = ShadowValidatorTest.tokens(10);
    JsonNode json =
        HardeningCycle.start(validate(env, 6), HardeningPolicy.DEFAULT).report().toJson();

    assertThat(Json.write(json.path("hardening")))
        .isEqualTo(
            "{\"cycles_completed\":0,\"max_cycles\":1,\"initial_shadow_score\":60.0,"
                + "\"final_shadow_score\":60.0,\"max_reveal\":\"message\"}");
    assertThat(ReportSchema.violations(json)).isEmpty();
    assertThat(
            new Hardening(2, 3, new BigDecimal("50.0"), new BigDecimal("25.0"), "message")
                .velocity())
        .contains(new BigDecimal("12.5"));
  }

  @Test
  void theProviderSeesOnlyOpaqueIdsAndMessages() {
    SealedEnvelope env = ShadowValidatorTest.tokens(10);
    HardeningMessages messages =
        HardeningCycle.start(validate(env, 3), HardeningPolicy.DEFAULT).messages(env.nonce());
    String json = Json.write(messages.toJson());

    assertThat(messages.messages())
        .extracting(HardeningMessages.Item::message)
        .containsExactlyInAnyOrder(
            "Token k0 not addressed", "Token k1 not addressed", "Token k2 not addressed");
    assertThat(messages.messages()).allSatisfy(m -> assertThat(m.id()).matches("f-[0-9a-f]{16}"));
    assertThat(messages.messages())
        .extracting(HardeningMessages.Item::id)
        .isSorted()
        .doesNotHaveDuplicates();
    // no criterion ids, categories, expectations, evidence, counts or scores
    assertThat(json)
        .doesNotContain(
            "sc-", "edge_case", "happy_path", "the token", "<k", "total", "failed", "score");
    assertThat(messages.toJson().properties()).hasSize(1);
    // stable for one seal, different under another nonce
    assertThat(HardeningMessages.opaqueId(env.nonce(), "sc-0"))
        .isEqualTo(
            messages.messages().stream()
                .filter(m -> m.message().equals("Token k0 not addressed"))
                .findFirst()
                .orElseThrow()
                .id());
    assertThat(HardeningMessages.opaqueId(SealTest.ZERO_NONCE, "sc-0"))
        .isNotEqualTo(HardeningMessages.opaqueId(env.nonce(), "sc-0"));
    assertThat(messages.toText()).startsWith("SHADOW HARDENING - Fix these issues:\n- [f-");
  }
}
