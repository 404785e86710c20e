package dev.asa.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AgreementSchemasTest {

  private static final String CLIENT_KEY = "lI_mA_YdwDa1xZbcCf484_PTDckPAkyF88gtssyrZ50";
  private static final String PROVIDER_KEY = "XEwZZDQKyltlOTu-nTJJzdcb4mZlszIK1pTwNPJ0MoM";

  // ---------------------------------------------------------------- valid documents

  @Test
  void whitepaperExampleIsValid() {
    assertThat(AgreementSchemas.validate(whitepaper(), 1)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "research",
        "code_generation",
        "data_analysis",
        "translation",
        "review",
        "general"
      })
  void templateDefaultsCompletedWithPartiesAndPaymentAreValid(String type) {
    JsonNode template = resource("dev/asa/templates/" + type + ".json");
    assertThat(template.path("type").asText()).isEqualTo(type);
    assertThat(template.path("version").asText()).isEqualTo("1.0.0");
    assertThat(template.path("title").asText()).isNotBlank();
    assertThat(template.path("description").asText()).isNotBlank();

    ObjectNode doc = template.path("defaults").deepCopy();
    merge(
        doc,
        Json.parseTrusted(
            """
            {
              "agreement_id": "asa-template-test-0001",
              "created_at": "2026-03-26T14:30:00Z",
              "parties": {
                "client": {
                  "identity": {"scheme": "coc", "value": "sha256:client"},
                  "verification_key": {"scheme": "ed25519", "value": "%s"}
                },
                "provider": {
                  "identity": {"scheme": "did", "value": "did:example:provider"},
                  "verification_key": {"scheme": "ed25519", "value": "%s"}
                },
                "evaluator": {
                  "identity": {"scheme": "api_key", "value": "eval-key-789"},
                  "type": "builtin"
                }
              },
              "service": {"description": "Do the thing described by this template."},
              "escrow": {"payment": {"amount": "10.00", "currency": "USDC"}}
            }
            """
                .formatted(CLIENT_KEY, PROVIDER_KEY)));

    assertThat(AgreementSchemas.validate(doc, 1)).isEmpty();

    // The merge kept the template's graduated release next to the added amount.
    JsonNode payment = doc.at("/escrow/payment");
    assertThat(payment.path("amount").asText()).isEqualTo("10.00");
    assertThat(payment.at("/graduated_release/mode").asText()).isEqualTo("tiers");
    assertThat(Json.write(payment.at("/graduated_release/tiers")))
        .isEqualTo(
            "[{\"composite_score_gte\":90,\"release_percent\":100},"
                + "{\"composite_score_gte\":75,\"release_percent\":85},"
                + "{\"composite_score_gte\":60,\"release_percent\":50},"
                + "{\"composite_score_lt\":60,\"release_percent\":0}]");

    // Template conventions that the schema alone does not check.
    JsonNode defaults = template.path("defaults");
    assertThat(defaults.at("/service/type").asText()).isEqualTo(type);
    assertThat(defaults.has("parties")).isFalse();
    assertThat(defaults.at("/escrow/payment").has("amount")).isFalse();
    assertThat(defaults.at("/escrow/payment").has("currency")).isFalse();
    assertThat(defaults.at("/escrow/dead_mans_switch/timeout_action").asText())
        .isEqualTo("hold_for_backup_evaluator");
    BigDecimal sum = BigDecimal.ZERO;
    for (JsonNode dimension : defaults.at("/quality_criteria/dimensions")) {
      sum = sum.add(dimension.path("weight").decimalValue());
    }
    assertThat(sum).isEqualByComparingTo(BigDecimal.ONE);
  }

  @Test
  void unknownMembersAreAcceptedAtEveryLevel() {
    ObjectNode doc = whitepaper();
    doc.put("x_future_top_level", "kept");
    doc.putObject("x_future_object").put("anything", 1);
    ((ObjectNode) doc.at("/parties/client")).put("x_avatar", "https://example.org/a.png");
    ((ObjectNode) doc.at("/parties/client/identity")).put("x_registry", "main");
    ((ObjectNode) doc.at("/parties/client/verification_key")).put("x_created", "2026-01-01");
    ((ObjectNode) doc.at("/service")).putArray("x_tags").add("privacy");
    ((ObjectNode) doc.at("/service/constraints")).put("max_tool_calls", 12);
    ((ObjectNode) doc.at("/quality_criteria")).put("x_rubric_version", 3);
    ((ObjectNode) doc.at("/quality_criteria/dimensions/0")).put("x_scale", "0-100");
    ((ObjectNode) doc.at("/quality_criteria/dimensions/0/slo")).put("x_unit", "percent");
    ((ObjectNode) doc.at("/escrow/payment/graduated_release/tiers/0")).put("x_label", "exceeds");
    ((ObjectNode) doc.at("/escrow/dead_mans_switch")).put("x_grace_seconds", 60);
    ((ObjectNode) doc.at("/signatures/client")).put("x_signed_at", "2026-03-26T14:31:00Z");
    ((ObjectNode) doc.at("/signatures")).putObject("witness").put("scheme", "whatever");

    assertThat(AgreementSchemas.validate(doc, 1)).isEmpty();
  }

  @Test
  void laterMinorAndPatchVersionsOfMajorOneValidate() {
    ObjectNode doc = whitepaper();
    doc.put("asa_version", "1.4.12");
    assertThat(AgreementSchemas.validate(doc, 1)).isEmpty();
  }

  @Test
  void betweenTakesAPairOfNumbers() {
    ObjectNode doc = whitepaper();
    ObjectNode slo = (ObjectNode) doc.at("/quality_criteria/dimensions/1/slo");
    slo.put("operator", "between");
    slo.putArray("value").add(70).add(95);
    assertThat(AgreementSchemas.validate(doc, 1)).isEmpty();
  }

  @Test
  void continuousGraduatedReleaseWithoutTiersIsValid() {
    ObjectNode doc = whitepaper();
    ObjectNode release = (ObjectNode) doc.at("/escrow/payment/graduated_release");
    release.remove("tiers");
    release.put("mode", "continuous");
    assertThat(AgreementSchemas.validate(doc, 1)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.01", "0.07", "0.1", "2.5", "3", "9.99", "10"})
  void cliffOptimisationTermsWithinTheirRangesAreValid(String maxPoints) {
    ObjectNode doc = whitepaper();
    ObjectNode release = (ObjectNode) doc.at("/escrow/payment/graduated_release");
    release
        .putObject("threshold_noise")
        .put("enabled", true)
        .put("max_points", new BigDecimal(maxPoints));
    release
        .putObject("dynamic_tiers")
        .put("enabled", true)
        .put("window", 10)
        .put("band_points", 3)
        .put("min_share", new BigDecimal("0.5"))
        .put("shift_points", new BigDecimal("2.5"));
    assertThat(AgreementSchemas.validate(doc, 1)).isEmpty();
    // Every member is optional.
    release.putObject("threshold_noise");
    release.putObject("dynamic_tiers");
    assertThat(AgreementSchemas.validate(doc, 1)).isEmpty();
  }

  // ---------------------------------------------------------------- one failure per rule

  @Test
  void missingClientVerificationKey() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/parties/client")).remove("verification_key"),
        "/parties/client/verification_key",
        "verification_key");
  }

  @Test
  void missingParties() {
    assertOnlyViolationAt(doc -> doc.remove("parties"), "/parties", "parties");
  }

  @Test
  void weightAboveOne() {
    assertOnlyViolationAt(
        doc ->
            ((ObjectNode) doc.at("/quality_criteria/dimensions/0"))
                .put("weight", new BigDecimal("1.5")),
        "/quality_criteria/dimensions/0/weight",
        "maximum value of 1");
  }

  @Test
  void unknownSloOperator() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/quality_criteria/dimensions/2/slo")).put("operator", "ge"),
        "/quality_criteria/dimensions/2/slo/operator",
        "gte");
  }

  @Test
  void betweenWithASingleNumber() {
    assertOnlyViolationAt(
        doc ->
            ((ObjectNode) doc.at("/quality_criteria/dimensions/1/slo")).put("operator", "between"),
        "/quality_criteria/dimensions/1/slo/value",
        "array expected");
  }

  @Test
  void sloValueOfWrongType() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/quality_criteria/dimensions/1/slo")).put("value", "80"),
        "/quality_criteria/dimensions/1/slo/value",
        "number");
  }

  @Test
  void amountAsJsonNumber() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/escrow/payment")).put("amount", new BigDecimal("5.0")),
        "/escrow/payment/amount",
        "string expected");
  }

  @Test
  void amountWithTrailingPoint() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/escrow/payment")).put("amount", "5."),
        "/escrow/payment/amount",
        "pattern");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"-5.00", "05.00", "1e3", "5,00", " 5.00", "5.00\n", "1234567890123456789"})
  void otherMalformedAmounts(String amount) {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/escrow/payment")).put("amount", amount),
        "/escrow/payment/amount",
        "");
  }

  @Test
  void tierWithBothBounds() {
    assertOnlyViolationAt(
        doc ->
            ((ObjectNode) doc.at("/escrow/payment/graduated_release/tiers/3"))
                .put("composite_score_gte", 0),
        "/escrow/payment/graduated_release/tiers/3",
        "exactly one of composite_score_gte or composite_score_lt");
  }

  @Test
  void tierWithNoBound() {
    assertOnlyViolationAt(
        doc ->
            ((ObjectNode) doc.at("/escrow/payment/graduated_release/tiers/0"))
                .remove("composite_score_gte"),
        "/escrow/payment/graduated_release/tiers/0",
        "exactly one of composite_score_gte or composite_score_lt");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "10.01", "11", "2.555"})
  void thresholdNoiseMaxPointsOutOfRange(String maxPoints) {
    assertOnlyViolationAt(
        doc ->
            ((ObjectNode) doc.at("/escrow/payment/graduated_release"))
                .putObject("threshold_noise")
                .put("max_points", new BigDecimal(maxPoints)),
        "/escrow/payment/graduated_release/threshold_noise/max_points",
        "");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "window,       2",
    "window,       101",
    "window,       10.5",
    "band_points,  0",
    "band_points,  21",
    "min_share,    0",
    "min_share,    1.5",
    "shift_points, -3",
    "shift_points, 20.01",
    "enabled,      '\"yes\"'",
  })
  void dynamicTiersValueOutOfRange(String member, String json) {
    assertOnlyViolationAt(
        doc ->
            ((ObjectNode) doc.at("/escrow/payment/graduated_release"))
                .putObject("dynamic_tiers")
                .set(member, Json.parseTrusted(json)),
        "/escrow/payment/graduated_release/dynamic_tiers/" + member,
        "");
  }

  @Test
  void statusInUpperCase() {
    assertOnlyViolationAt(doc -> doc.put("status", "ACTIVE"), "/status", "active");
  }

  @Test
  void verificationKeyOfWrongLength() {
    assertOnlyViolationAt(
        doc ->
            ((ObjectNode) doc.at("/parties/provider/verification_key"))
                .put("value", PROVIDER_KEY.substring(1)),
        "/parties/provider/verification_key/value",
        "43");
  }

  @Test
  void verificationKeyOfOtherScheme() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/parties/client/verification_key")).put("scheme", "rsa"),
        "/parties/client/verification_key/scheme",
        "ed25519");
  }

  @Test
  void signatureOfWrongLength() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/signatures/client")).put("value", "sig_abc..."),
        "/signatures/client/value",
        "86");
  }

  @Test
  void createdAtNotRfc3339() {
    assertOnlyViolationAt(
        doc -> doc.put("created_at", "2026-03-26 14:30"), "/created_at", "RFC 3339");
  }

  @Test
  void asaVersionWithTrailingNewlineIsRefused() {
    assertOnlyViolationAt(doc -> doc.put("asa_version", "1.0.0\n"), "/asa_version", "");
  }

  @Test
  void asaVersionOfAnotherMajor() {
    assertOnlyViolationAt(doc -> doc.put("asa_version", "2.0.0"), "/asa_version", "pattern");
  }

  @Test
  void noDimensions() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/quality_criteria")).putArray("dimensions"),
        "/quality_criteria/dimensions",
        "at least 1");
  }

  @Test
  void badIdentityScheme() {
    assertOnlyViolationAt(
        doc -> ((ObjectNode) doc.at("/parties/evaluator/identity")).put("scheme", "API Key"),
        "/parties/evaluator/identity/scheme",
        "pattern");
  }

  @Test
  void badTimeoutAction() {
    assertOnlyViolationAt(
        doc ->
            ((ObjectNode) doc.at("/escrow/dead_mans_switch")).put("timeout_action", "pay_provider"),
        "/escrow/dead_mans_switch/timeout_action",
        "split_50_50");
  }

  @Test
  void memberNamesAreEscapedInPointers() {
    ObjectNode doc = whitepaper();
    ObjectNode weird = doc.putObject("metadata");
    weird.put("a/b~c", 1);
    assertThat(AgreementSchemas.validate(doc, 1)).isEmpty(); // metadata is free-form
    doc.set("metadata", Json.mapper().getNodeFactory().textNode("not an object"));
    assertThat(AgreementSchemas.validate(doc, 1))
        .extracting(Violation::pointer)
        .containsExactly("/metadata");
    assertThat(AgreementSchemas.pointer(null)).isEmpty();
  }

  @Test
  void severalViolationsAreAllReported() {
    ObjectNode doc = whitepaper();
    doc.put("status", "bogus");
    ((ObjectNode) doc.at("/quality_criteria/dimensions/0")).put("weight", -1);
    ((ObjectNode) doc.at("/escrow/payment")).remove("currency");
    assertThat(AgreementSchemas.validate(doc, 1))
        .extracting(Violation::pointer)
        .containsExactlyInAnyOrder(
            "/status", "/quality_criteria/dimensions/0/weight", "/escrow/payment/currency");
  }

  @Test
  void theWholeDocumentMustBeAnObject() {
    List<Violation> violations = AgreementSchemas.validate(Json.parseTrusted("[1, 2]"), 1);
    assertThat(violations).extracting(Violation::pointer).containsExactly("");
    assertThat(violations.get(0).message()).contains("object expected");
  }

  // ---------------------------------------------------------------- API surface

  @Test
  void knownMajors() {
    assertThat(AgreementSchemas.knowsMajor(1)).isTrue();
    assertThat(AgreementSchemas.knowsMajor(0)).isFalse();
    assertThat(AgreementSchemas.knowsMajor(2)).isFalse();
    assertThatThrownBy(() -> AgreementSchemas.validate(whitepaper(), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2");
  }

  @Test
  void schemaJsonServesTheBundledSchema() {
    JsonNode schema = AgreementSchemas.schemaJson("1.0.0");
    assertThat(schema.path("$id").asText())
        .isEqualTo("https://asa.dev/schemas/asa/1.0.0/agreement.json");
    assertThat(schema.path("$schema").asText())
        .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    ((ObjectNode) schema).remove("properties"); // a copy: changing it does not change the validator
    assertThat(AgreementSchemas.schemaJson("1.0.0").has("properties")).isTrue();
    assertThat(AgreementSchemas.validate(whitepaper(), 1)).isEmpty();
    assertThatThrownBy(() -> AgreementSchemas.schemaJson("2.0.0"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AgreementSchemas.schemaJson("1.0"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void everyPropertyHasADescription() {
    List<String> missing = new ArrayList<>();
    collectUndescribed(AgreementSchemas.schemaJson("1.0.0"), "", missing);
    assertThat(missing).isEmpty();
  }

  @Test
  void schemaIsValidAgainstTheDraft202012MetaSchema() {
    assertThat(AgreementSchemas.validateAgainstMetaSchema(AgreementSchemas.schemaJson("1.0.0")))
        .isEmpty();
    // The meta-schema check is not vacuous.
    assertThat(
            AgreementSchemas.validateAgainstMetaSchema(
                Json.parseTrusted("{\"type\": 5, \"minLength\": -1}")))
        .isNotEmpty();
  }

  @Test
  void validationIsSafeFromManyThreads() {
    ObjectNode bad = whitepaper();
    bad.put("status", "bogus");
    JsonNode good = whitepaper();
    List<Integer> counts =
        IntStream.range(0, 200)
            .parallel()
            .mapToObj(i -> AgreementSchemas.validate(i % 2 == 0 ? good : bad, 1).size())
            .toList();
    for (int i = 0; i < counts.size(); i++) {
      assertThat(counts.get(i)).isEqualTo(i % 2 == 0 ? 0 : 1);
    }
  }

  // ---------------------------------------------------------------- helpers

  private static void assertOnlyViolationAt(
      Consumer<ObjectNode> breakIt, String pointer, String messagePart) {
    ObjectNode doc = whitepaper();
    breakIt.accept(doc);
    List<Violation> violations = AgreementSchemas.validate(doc, 1);
    assertThat(violations).as("violations of %s", doc).isNotEmpty();
    assertThat(violations)
        .extracting(Violation::pointer)
        .as(violations.toString())
        .containsOnly(pointer);
    assertThat(violations).anySatisfy(v -> assertThat(v.message()).contains(messagePart));
  }

  private static ObjectNode whitepaper() {
    return (ObjectNode) resource("dev/asa/examples/whitepaper-4.1.json");
  }

  private static JsonNode resource(String name) {
    try (InputStream in = AgreementSchemasTest.class.getClassLoader().getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return Json.parseTrusted(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Deep merge: objects merge member by member, anything else in {@code patch} replaces. */
  private static void merge(ObjectNode target, JsonNode patch) {
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      JsonNode existing = target.get(e.getKey());
      if (existing instanceof ObjectNode o && e.getValue().isObject()) {
        merge(o, e.getValue());
      } else {
        target.set(e.getKey(), e.getValue().deepCopy());
      }
    }
  }

  /** Every member of every "properties" and every "$defs" entry must carry a description. */
  private static void collectUndescribed(JsonNode schema, String at, List<String> missing) {
    if (schema.isObject()) {
      for (String container : List.of("properties", "$defs")) {
        JsonNode members = schema.path(container);
        for (Map.Entry<String, JsonNode> e : members.properties()) {
          JsonNode member = e.getValue();
          boolean described =
              member.path("description").isTextual()
                  || (member.path("$ref").isTextual()
                      && AgreementSchemas.schemaJson("1.0.0")
                          .at(member.path("$ref").asText().substring(1))
                          .path("description")
                          .isTextual());
          if (!described) {
            missing.add(at + "/" + container + "/" + e.getKey());
          }
        }
      }
      for (Map.Entry<String, JsonNode> e : schema.properties()) {
        collectUndescribed(e.getValue(), at + "/" + e.getKey(), missing);
      }
    } else if (schema instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        collectUndescribed(array.get(i), at + "/" + i, missing);
      }
    }
  }
}
