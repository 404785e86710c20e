package dev.asa.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.DynamicTiersTerms;
import dev.asa.agreement.GraduatedRelease;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.agreement.ThresholdNoiseTerms;
import dev.asa.agreement.UnsupportedVersionException;
import dev.asa.agreement.Violation;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.testing.Fixtures;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class AgreementDocumentsTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  private static Agreement propose(ObjectNode doc) {
    return AgreementDrafts.propose(doc, NOW, () -> "asa-test-0001");
  }

  private static ObjectNode full() {
    return propose(Fixtures.general()).toJson();
  }

  private static void assertViolation(Consumer<ObjectNode> edit, String pointer, String fragment) {
    ObjectNode doc = full();
    doc.remove("status");
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

  @Test
  void aDocumentThatCarriesServerFactsIsRefused() {
    // A proposal may not claim that money is held or a negotiation is over: facts are the server's.
    assertViolation(
        doc -> doc.putObject("metadata").putObject("escrow").put("status", "held"),
        "/metadata",
        "server-owned");
    assertViolation(doc -> doc.putObject("metadata"), "/metadata", "server-owned");
    ObjectNode draft = Fixtures.general();
    draft.putObject("metadata").putObject("negotiation").put("round", 9);
    assertThatThrownBy(() -> propose(draft))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/metadata");
  }

  @Test
  void aTemplateFillsEveryMemberThePartialDocumentLacks() {
    Agreement a = propose(Fixtures.general());
    assertThat(a.state()).isEqualTo(State.PROPOSED);
    assertThat(a.id()).isEqualTo("asa-test-0001");
    assertThat(a.terms().service().type()).isEqualTo("general");
    assertThat(a.terms().service().description()).startsWith("Summarise");
    assertThat(a.terms().qualityCriteria().dimensions()).isNotEmpty();
    assertThat(a.terms().escrow().payment().amount().toWire()).isEqualTo("10.00");
    assertThat(a.terms().escrow().payment().release().tiers()).hasSize(4);
    assertThat(a.facts().template()).contains("general");
    assertThat(a.toJson().has("metadata")).as("facts are kept beside the document").isFalse();
    assertThat(a.toJson().has("template")).isFalse();
  }

  @Test
  void templateOverridesChangeSloValuesWeightsAndThreshold() {
    ObjectNode doc = Fixtures.general();
    ObjectNode overrides = doc.putObject("template_overrides");
    overrides.put("composite_threshold", 72);
    String first =
        Templates()
            .path("defaults")
            .path("quality_criteria")
            .path("dimensions")
            .get(0)
            .path("name")
            .asText();
    overrides.putObject("dimensions").putObject(first).put("slo_value", 81);
    Agreement a = propose(doc);
    assertThat(a.terms().qualityCriteria().compositeThreshold()).isEqualByComparingTo("72");
    assertThat(a.terms().qualityCriteria().dimension(first).orElseThrow().slo().describe())
        .contains("81");
  }

  private static JsonNode Templates() {
    return dev.asa.template.Templates.get("general").orElseThrow().toJson();
  }

  @Test
  void anOverrideOfAnUnknownDimensionNamesIt() {
    ObjectNode doc = Fixtures.general();
    doc.putObject("template_overrides")
        .putObject("dimensions")
        .putObject("charm")
        .put("weight", 0.1);
    assertThatThrownBy(() -> propose(doc))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/template_overrides/dimensions/charm");
  }

  @Test
  void unknownTemplateIsRefusedWithTheListOfTemplates() {
    assertThatThrownBy(() -> propose(Fixtures.fromTemplate("poetry")))
        .hasMessageContaining("/template")
        .hasMessageContaining("research");
  }

  @Test
  void unknownFieldsOfAKnownMajorRoundTripUnchangedAndAreIgnored() {
    ObjectNode doc = full();
    doc.put("asa_version", "1.4.2");
    doc.putObject("x_future_member").put("anything", 1);
    ((ObjectNode) doc.path("service")).put("x_nested_future", true);
    Agreement a = AgreementDocuments.read(doc);
    assertThat(a.toJson().path("x_future_member").path("anything").asInt()).isEqualTo(1);
    assertThat(a.toJson().path("service").path("x_nested_future").asBoolean()).isTrue();
    assertThat(a.toJson()).isEqualTo(doc);
  }

  @Test
  void anUnknownMajorVersionIsRefusedClearly() {
    ObjectNode doc = full();
    doc.put("asa_version", "2.0.0");
    assertThatThrownBy(() -> AgreementDocuments.read(doc))
        .isInstanceOf(UnsupportedVersionException.class)
        .hasMessageContaining("2.0.0")
        .hasMessageContaining("1.x");
  }

  @Test
  void aMalformedVersionNamesTheField() {
    assertViolation(d -> d.put("asa_version", "one"), "/asa_version", "semver");
  }

  @Test
  void weightsMustSumToOneWithinATolerance() {
    assertViolation(
        d -> ((ObjectNode) d.path("quality_criteria").path("dimensions").get(0)).put("weight", 0.9),
        "/quality_criteria/dimensions",
        "sum to 1");
    // within 0.001 is fine
    ObjectNode doc = full();
    ObjectNode dim = (ObjectNode) doc.path("quality_criteria").path("dimensions").get(0);
    dim.put("weight", dim.path("weight").decimalValue().add(new java.math.BigDecimal("0.0009")));
    assertThat(AgreementDocuments.read(doc)).isNotNull();
  }

  @Test
  void schemaProblemsAndRuleProblemsComeInOneAnswer() {
    // A description over the schema's 10,000 characters and weights that do not sum to 1 (a rule
    // the schema cannot express): the sender learns both at once, not one per round.
    ObjectNode doc = full();
    doc.remove("status");
    ((ObjectNode) doc.path("service")).put("description", "x".repeat(10_001));
    ArrayNode dimensions = (ArrayNode) doc.path("quality_criteria").path("dimensions");
    ((ObjectNode) dimensions.get(0)).put("weight", 0.9);
    assertThatThrownBy(() -> AgreementDocuments.read(doc))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations())
                .extracting(Violation::pointer)
                .containsExactly("/service/description", "/quality_criteria/dimensions"));
  }

  @Test
  void anUnknownSloOperatorIsRefusedByTheSchema() {
    assertViolation(
        d ->
            ((ObjectNode) d.path("quality_criteria").path("dimensions").get(0).path("slo"))
                .put("operator", "approx"),
        "/quality_criteria/dimensions/0/slo/operator",
        "");
  }

  @Test
  void anUnknownMetricTypeIsRefused() {
    assertViolation(
        d ->
            ((ObjectNode) d.path("quality_criteria").path("dimensions").get(0))
                .put("metric", "vibes"),
        "/quality_criteria/dimensions/0/metric",
        "");
  }

  @Test
  void aBooleanTargetNeedsEqOrNeq() {
    assertViolation(
        d -> {
          ObjectNode slo =
              (ObjectNode) d.path("quality_criteria").path("dimensions").get(0).path("slo");
          slo.put("operator", "gte");
          slo.put("value", true);
        },
        "/quality_criteria/dimensions/0/slo",
        "eq or neq");
  }

  @Test
  void aPercentageTargetAbove100IsRefused() {
    assertViolation(
        d -> {
          ObjectNode dim = (ObjectNode) d.path("quality_criteria").path("dimensions").get(0);
          dim.put("metric", "percentage");
          ((ObjectNode) dim.path("slo")).put("operator", "gte").put("value", 120);
        },
        "/quality_criteria/dimensions/0/slo/value",
        "0..100");
  }

  @Test
  void theEvaluatorMustDifferFromBothParties() {
    assertViolation(
        d ->
            ((ObjectNode) d.path("parties").path("evaluator").path("identity"))
                .put("value", "alice"),
        "/parties/evaluator/identity",
        "independent");
    assertViolation(
        d ->
            ((ObjectNode) d.path("parties").path("evaluator"))
                .set(
                    "verification_key",
                    d.path("parties").path("provider").path("verification_key").deepCopy()),
        "/parties/evaluator/verification_key",
        "independent");
  }

  @Test
  void theEvaluatorMustNotShareAnOrganizationOrLineageWithAParty() {
    assertViolation(
        d -> {
          ((ObjectNode) d.path("parties").path("provider")).put("organization", "Acme Labs");
          ((ObjectNode) d.path("parties").path("evaluator")).put("organization", "acme labs");
        },
        "/parties/evaluator/organization",
        "same organization as the provider");
    assertViolation(
        d -> {
          ((ObjectNode) d.path("parties").path("client").path("identity"))
              .put("lineage", "sha256:chain-1");
          ((ObjectNode) d.path("parties").path("evaluator").path("identity"))
              .put("lineage", "sha256:chain-1");
        },
        "/parties/evaluator/identity/lineage",
        "lineage with the client");
    ObjectNode fine = full();
    ((ObjectNode) fine.path("parties").path("client")).put("organization", "Acme Labs");
    ((ObjectNode) fine.path("parties").path("evaluator")).put("organization", "Judges Inc");
    assertThat(AgreementDocuments.read(fine)).isNotNull();
  }

  @Test
  void clientAndProviderMustHoldDifferentKeys() {
    assertViolation(
        d ->
            ((ObjectNode) d.path("parties").path("provider"))
                .set(
                    "verification_key",
                    d.path("parties").path("client").path("verification_key").deepCopy()),
        "/parties/provider/verification_key",
        "different keys");
  }

  @Test
  void amountsAreDecimalStringsWithAtMostTheCurrencysDecimals() {
    assertViolation(
        d -> ((ObjectNode) d.path("escrow").path("payment")).put("amount", "10.001"),
        "/escrow/payment/amount",
        "decimals");
    assertViolation(
        d -> ((ObjectNode) d.path("escrow").path("payment")).put("amount", 10.0),
        "/escrow/payment/amount",
        "string");
    assertViolation(
        d -> ((ObjectNode) d.path("escrow").path("payment")).put("currency", "DOGE"),
        "/escrow/payment/currency",
        "unknown currency");
    ObjectNode usdc = full();
    ((ObjectNode) usdc.path("escrow").path("payment"))
        .put("amount", "10.000001")
        .put("currency", "USDC");
    assertThat(AgreementDocuments.read(usdc).terms().escrow().payment().amount().toWire())
        .isEqualTo("10.000001");
  }

  @Test
  void tiersMustBeConsistent() {
    String at = "/escrow/payment/graduated_release/tiers";
    assertViolation(d -> tiers(d).removeAll(), at, "at least one");
    assertViolation(
        d -> ((ObjectNode) tiers(d).get(1)).put("release_percent", 100.5),
        at + "/1/release_percent",
        "");
    assertViolation(
        d -> ((ObjectNode) tiers(d).get(0)).put("release_percent", 40), at, "never release less");
    assertViolation(
        d -> ((ObjectNode) tiers(d).get(3)).put("composite_score_lt", 50), at, "lowest");
    assertViolation(
        d -> ((ObjectNode) tiers(d).get(2)).put("composite_score_gte", 75), at, "two tiers");
    assertViolation(
        d ->
            ((ObjectNode) d.path("escrow").path("payment").path("graduated_release"))
                .put("mode", "continuous"),
        at,
        "continuous");
  }

  @Test
  void cliffOptimisationTermsAreOffUnlessWrittenDown() {
    GraduatedRelease release = AgreementDocuments.read(full()).terms().escrow().payment().release();
    assertThat(release.thresholdNoise()).isEqualTo(ThresholdNoiseTerms.DISABLED);
    assertThat(release.dynamicTiers()).isEqualTo(DynamicTiersTerms.DISABLED);
  }

  @Test
  void cliffOptimisationTermsAreRead() {
    ObjectNode doc = full();
    ObjectNode g = graduated(doc);
    g.putObject("threshold_noise").put("enabled", true).put("max_points", new BigDecimal("2.5"));
    g.putObject("dynamic_tiers")
        .put("enabled", true)
        .put("window", 12)
        .put("band_points", 2)
        .put("min_share", new BigDecimal("0.6"))
        .put("shift_points", 4);
    GraduatedRelease release = AgreementDocuments.read(doc).terms().escrow().payment().release();
    assertThat(release.thresholdNoise()).isEqualTo(ThresholdNoiseTerms.of(new BigDecimal("2.5")));
    assertThat(release.dynamicTiers())
        .isEqualTo(
            new DynamicTiersTerms(
                true, 12, new BigDecimal("2"), new BigDecimal("0.6"), new BigDecimal("4")));
  }

  @Test
  void aWrittenDownMitigationIsOnWithDefaultsUnlessItSaysOtherwise() {
    ObjectNode doc = full();
    graduated(doc).putObject("threshold_noise");
    graduated(doc).putObject("dynamic_tiers").put("window", 5);
    GraduatedRelease release = AgreementDocuments.read(doc).terms().escrow().payment().release();
    assertThat(release.thresholdNoise())
        .isEqualTo(ThresholdNoiseTerms.of(ThresholdNoiseTerms.DEFAULT_MAX_POINTS));
    assertThat(release.dynamicTiers().enabled()).isTrue();
    assertThat(release.dynamicTiers().window()).isEqualTo(5);
    assertThat(release.dynamicTiers().shiftPoints()).isEqualByComparingTo("3");

    graduated(doc).putObject("threshold_noise").put("enabled", false);
    assertThat(
            AgreementDocuments.read(doc)
                .terms()
                .escrow()
                .payment()
                .release()
                .thresholdNoise()
                .enabled())
        .isFalse();
  }

  @Test
  void cliffOptimisationNeedsTiersThatCannotOvertakeEachOther() {
    String at = "/escrow/payment/graduated_release";
    assertViolation(
        d -> {
          graduated(d).put("mode", "continuous").remove("tiers");
          graduated(d).putObject("threshold_noise");
        },
        at + "/threshold_noise",
        "continuous mode");
    assertViolation(
        d -> {
          graduated(d).put("mode", "continuous").remove("tiers");
          graduated(d).putObject("dynamic_tiers");
        },
        at + "/dynamic_tiers",
        "continuous mode");
    // Tiers 15 points apart: a shift of 3 plus noise of +-6 could close a gap of 15, so it is
    // refused...
    assertViolation(
        d -> {
          graduated(d).putObject("threshold_noise").put("max_points", 6);
          graduated(d).putObject("dynamic_tiers");
        },
        at + "/tiers",
        "too close");
    // ...while the whitepaper's +-3 and 3 reach only 9.
    ObjectNode fine = full();
    graduated(fine).putObject("threshold_noise");
    graduated(fine).putObject("dynamic_tiers");
    assertThat(AgreementDocuments.read(fine)).isNotNull();
    // With graduated release switched off, the mitigations are moot and not checked.
    ObjectNode off = full();
    graduated(off).put("enabled", false).put("mode", "continuous").remove("tiers");
    graduated(off).putObject("threshold_noise");
    assertThat(AgreementDocuments.read(off)).isNotNull();
  }

  private static ObjectNode graduated(ObjectNode d) {
    return (ObjectNode) d.path("escrow").path("payment").path("graduated_release");
  }

  private static ArrayNode tiers(ObjectNode d) {
    return (ArrayNode) d.path("escrow").path("payment").path("graduated_release").path("tiers");
  }

  @Test
  void aDidKeyIdentityMustMatchItsVerificationKey() {
    Ed25519PrivateKey alice = Fixtures.key("alice");
    Ed25519PrivateKey mallory = Fixtures.key("mallory");
    ObjectNode ok = full();
    ((ObjectNode) ok.path("parties").path("client").path("identity"))
        .put("scheme", "did")
        .put("value", DidKey.of(alice.publicKey()));
    assertThat(AgreementDocuments.read(ok)).isNotNull();
    assertViolation(
        d ->
            ((ObjectNode) d.path("parties").path("client").path("identity"))
                .put("scheme", "did")
                .put("value", DidKey.of(mallory.publicKey())),
        "/parties/client/verification_key",
        "did:key");
  }

  @Test
  void unknownGateConditionsAreRefused() {
    assertViolation(
        d ->
            ((ObjectNode) d.path("quality_criteria"))
                .putArray("quality_gates")
                .addObject()
                .put("condition", "looks_nice")
                .put("type", "boolean"),
        "/quality_criteria/quality_gates/0/condition",
        "unknown gate");
    assertViolation(
        d ->
            ((ObjectNode) d.path("quality_criteria"))
                .putArray("quality_gates")
                .addObject()
                .put("condition", "charm_gte_80")
                .put("type", "threshold"),
        "/quality_criteria/quality_gates/0/condition",
        "charm");
  }

  @Test
  void aNewAgreementWithoutSignaturesIsProposed() {
    ObjectNode doc = Fixtures.general();
    doc.putObject("signatures");
    doc.put("status", "proposed");
    assertThat(propose(doc).state()).isEqualTo(State.PROPOSED);
    ObjectNode active = Fixtures.general();
    active.put("status", "active");
    assertThatThrownBy(() -> propose(active))
        .hasMessageContaining("/status")
        .hasMessageContaining("nobody has signed it yet");
  }

  /** The general template's document as two parties would sign it before sending it. */
  private static ObjectNode signedOffServer(boolean client, boolean provider) {
    ObjectNode doc = dev.asa.template.TemplateApplier.apply(Fixtures.general());
    doc.put("agreement_id", "asa-signed-1");
    doc.put("created_at", NOW.toString());
    byte[] input =
        Agreement.computeHash(doc).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    ObjectNode sigs = doc.putObject("signatures");
    if (client) {
      sigs.putObject("client")
          .put("scheme", "ed25519")
          .put("value", Fixtures.key("alice").sign(input).toBase64Url());
    }
    if (provider) {
      sigs.putObject("provider")
          .put("scheme", "ed25519")
          .put("value", Fixtures.key("bob").sign(input).toBase64Url());
    }
    return doc;
  }

  @Test
  void aDocumentSignedByBothPartiesStartsActive() {
    Agreement a = AgreementDrafts.propose(signedOffServer(true, true), NOW, () -> "unused");
    assertThat(a.state()).isEqualTo(State.ACTIVE);
    assertThat(a.isFullySigned()).isTrue();
    ObjectNode stated = signedOffServer(true, true).put("status", "active");
    assertThat(AgreementDrafts.propose(stated, NOW, () -> "unused").state())
        .isEqualTo(State.ACTIVE);
    ObjectNode misStated = signedOffServer(true, true).put("status", "proposed");
    assertThatThrownBy(() -> AgreementDrafts.propose(misStated, NOW, () -> "unused"))
        .hasMessageContaining("/status");
  }

  @Test
  void aDocumentSignedByOnePartyStartsProposedWithThatSignature() {
    Agreement a = AgreementDrafts.propose(signedOffServer(false, true), NOW, () -> "unused");
    assertThat(a.state()).isEqualTo(State.PROPOSED);
    assertThat(a.isSignedBy(Role.PROVIDER)).isTrue();
    assertThat(a.isSignedBy(Role.CLIENT)).isFalse();
  }

  @Test
  void aSignatureOverOtherBytesOrInTheWrongPlaceIsRefusedNamingTheParty() {
    ObjectNode swapped = signedOffServer(true, true);
    JsonNode client = swapped.at("/signatures/client");
    ((ObjectNode) swapped.get("signatures")).set("client", swapped.at("/signatures/provider"));
    ((ObjectNode) swapped.get("signatures")).set("provider", client);
    assertThatThrownBy(() -> AgreementDrafts.propose(swapped, NOW, () -> "unused"))
        .isInstanceOfSatisfying(
            InvalidDocumentException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::pointer)
                    .containsExactly("/signatures/client", "/signatures/provider"));
    ObjectNode garbled = signedOffServer(true, false);
    ((ObjectNode) garbled.at("/signatures/client")).put("value", "not-a-signature");
    assertThatThrownBy(() -> AgreementDrafts.propose(garbled, NOW, () -> "unused"))
        .hasMessageContaining("/signatures/client/value");
    ObjectNode third = signedOffServer(true, false);
    ((ObjectNode) third.get("signatures")).set("evaluator", third.at("/signatures/client"));
    assertThatThrownBy(() -> AgreementDrafts.propose(third, NOW, () -> "unused"))
        .hasMessageContaining("/signatures/evaluator");
  }

  @Test
  void datesAlreadyPastAreRefusedAtCreation() {
    ObjectNode expired = Fixtures.general().put("expires_at", NOW.minusSeconds(1).toString());
    assertThatThrownBy(() -> AgreementDrafts.propose(expired, NOW, () -> "asa-x"))
        .hasMessageContaining("/expires_at");
    ObjectNode old = Fixtures.general().put("created_at", NOW.minusSeconds(301).toString());
    assertThatThrownBy(() -> AgreementDrafts.propose(old, NOW, () -> "asa-x"))
        .hasMessageContaining("/created_at");
    ObjectNode skewed = Fixtures.general().put("created_at", NOW.minusSeconds(120).toString());
    assertThat(AgreementDrafts.propose(skewed, NOW, () -> "asa-x").terms().createdAt())
        .isEqualTo(NOW.minusSeconds(120));
  }

  @Test
  void aDidKeyIdentityIsTheKey() {
    ObjectNode doc = Fixtures.general();
    ObjectNode client = doc.withObject("/parties/client");
    client.remove("verification_key");
    String did = dev.asa.crypto.DidKey.of(Fixtures.key("alice").publicKey());
    client.putObject("identity").put("scheme", "did").put("value", did);
    ObjectNode evaluator = doc.withObject("/parties/evaluator");
    evaluator.remove("verification_key");
    evaluator
        .putObject("identity")
        .put("scheme", "did")
        .put("value", dev.asa.crypto.DidKey.of(Fixtures.key("eval-1").publicKey()));
    Agreement a = AgreementDrafts.propose(doc, NOW, () -> "asa-x");
    assertThat(a.terms().parties().client().verificationKey())
        .isEqualTo(Fixtures.key("alice").publicKey());
    assertThat(a.terms().parties().evaluator().orElseThrow().key())
        .contains(Fixtures.key("eval-1").publicKey());
    ObjectNode differs = Fixtures.general();
    differs
        .withObject("/parties/client")
        .putObject("identity")
        .put("scheme", "did")
        .put("value", dev.asa.crypto.DidKey.of(Fixtures.key("carol").publicKey()));
    assertThatThrownBy(() -> AgreementDrafts.propose(differs, NOW, () -> "asa-x"))
        .hasMessageContaining("/parties/client/verification_key");
  }

  @Test
  void oneQualityDimensionIsRefusedNamingTheMember() {
    ObjectNode doc = full();
    com.fasterxml.jackson.databind.node.ArrayNode dims =
        (com.fasterxml.jackson.databind.node.ArrayNode) doc.at("/quality_criteria/dimensions");
    JsonNode first = dims.get(0).deepCopy();
    ((ObjectNode) first).put("weight", 1);
    dims.removeAll().add(first);
    ((ObjectNode) doc.path("quality_criteria")).remove("quality_gates");
    assertThatThrownBy(() -> AgreementDocuments.read(doc))
        .isInstanceOfSatisfying(
            InvalidDocumentException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::pointer)
                    .contains("/quality_criteria/dimensions"));
  }

  @Test
  void everyViolationIsReportedAtOnce() {
    ObjectNode doc = full();
    ((ObjectNode) doc.path("escrow").path("payment")).put("currency", "DOGE");
    ((ObjectNode) doc.path("quality_criteria").path("dimensions").get(0)).put("weight", 0.9);
    assertThatThrownBy(() -> AgreementDocuments.read(doc))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations()).hasSizeGreaterThanOrEqualTo(2));
  }

  @Test
  void theWhitepaperExampleReadsOnceItsEvaluatorHasAKey() throws Exception {
    try (InputStream in = getClass().getResourceAsStream("/dev/asa/examples/whitepaper-4.1.json")) {
      ObjectNode doc = (ObjectNode) Json.parse(in.readAllBytes());
      doc.remove("signatures"); // placeholder signatures are fine for the schema but say nothing
      // As printed, its agent_as_judge evaluator has no key to sign results with: it could never
      // submit one, so the terms are refused rather than left waiting for it.
      assertThatThrownBy(() -> AgreementDocuments.read(doc))
          .isInstanceOfSatisfying(
              InvalidDocumentException.class,
              e ->
                  assertThat(e.violations())
                      .extracting(Violation::pointer)
                      .containsExactly("/parties/evaluator/verification_key"));
      ((ObjectNode) doc.at("/parties/evaluator"))
          .putObject("verification_key")
          .put("scheme", "ed25519")
          .put("value", Fixtures.key("eval-1").publicKey().toBase64Url());
      Agreement a = AgreementDocuments.read(doc);
      assertThat(a.terms().qualityCriteria().dimensions()).hasSize(6);
      assertThat(a.terms().escrow().payment().amount().toWire()).isEqualTo("5.000000");
      // Its two evaluator timeouts, one meaning each: one evaluation may run 600 s; the verdict
      // is due 3600 s after delivery, when the dead-man's switch acts.
      assertThat(a.terms().verification().evaluatorTimeoutSeconds()).isEqualTo(600);
      assertThat(a.terms().evaluatorDeadlineSeconds()).isEqualTo(3600);

      // With did:key identities it needs no verification_key at all: the evaluator's key is
      // derived from its identifier, as the client's and the provider's are.
      for (String party : new String[] {"client", "provider", "evaluator"}) {
        ObjectNode p = (ObjectNode) doc.at("/parties/" + party);
        p.remove("verification_key");
        String name =
            switch (party) {
              case "client" -> "alice";
              case "provider" -> "bob";
              default -> "eval-1";
            };
        p.putObject("identity")
            .put("scheme", "did")
            .put("value", DidKey.of(Fixtures.key(name).publicKey()));
      }
      assertThat(AgreementDocuments.read(doc).terms().parties().evaluator().orElseThrow().key())
          .contains(Fixtures.key("eval-1").publicKey());
    }
  }

  @Test
  void aDeadMansSwitchShorterThanOneEvaluationActsFirstAndIsNotAContradiction() {
    ObjectNode doc = full();
    doc.remove("status");
    doc.withObject("/verification").put("evaluator_timeout_seconds", 600);
    doc.withObject("/escrow/dead_mans_switch").put("evaluator_timeout_seconds", 60);
    Agreement a = AgreementDocuments.read(doc);
    assertThat(a.terms().evaluatorDeadlineSeconds()).isEqualTo(60);
    doc.withObject("/escrow/dead_mans_switch").remove("evaluator_timeout_seconds");
    assertThat(AgreementDocuments.read(doc).terms().evaluatorDeadlineSeconds())
        .as("without the switch's own, the verification's serves for both")
        .isEqualTo(600);
  }
}
