package dev.asa.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.document.AgreementDrafts;
import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The evaluator-integrity members of {@code verification} (issue 14): evaluator_selection,
 * rotation, evaluators and canary_tasks, read into typed terms, and every bad value refused by its
 * pointer.
 */
class EvaluatorIntegrityTermsTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  // ---------------------------------------------------------------- defaults

  @Test
  void anAgreementThatSaysNothingKeepsItsNamedEvaluatorAndHasNoCanaries() {
    VerificationTerms v = read(full());
    assertThat(v.evaluatorSelection()).isEqualTo(EvaluatorSelection.named());
    assertThat(v.evaluatorSelection().fromPool()).isFalse();
    assertThat(v.rotationTerms()).isEmpty();
    assertThat(v.rotationOr(new RotationTerms(4))).isEqualTo(new RotationTerms(4));
    assertThat(v.evaluators()).isEqualTo(EvaluatorPanel.SINGLE);
    assertThat(v.canaryTasks()).isEqualTo(CanaryTerms.DISABLED);
  }

  @Test
  void theWhitepaperExampleTurnsCanariesOnAtOnePerFiveDeliveries() {
    ObjectNode doc = whitepaper();
    VerificationTerms v = AgreementDocuments.read(doc).terms().verification();
    assertThat(v.canaryTasks().enabled()).isTrue();
    assertThat(v.canaryTasks().frequency()).isEqualTo(CanaryTerms.Frequency.DEFAULT);
    assertThat(v.canaryTasks().failureAction())
        .isEqualTo(CanaryTerms.FailureAction.FLAG_AND_CONTINUE);
    assertThat(v.evaluatorSelection()).isEqualTo(EvaluatorSelection.named());
  }

  @Test
  void withoutAnEvaluatorNamedThePoolDrawsAtRandom() {
    ObjectNode doc = full();
    ((ObjectNode) doc.get("parties")).remove("evaluator");
    Agreement a = AgreementDocuments.read(doc);
    assertThat(a.terms().parties().evaluator()).isEmpty();
    assertThat(a.terms().parties().all()).hasSize(2);
    assertThat(a.terms().verification().evaluatorSelection())
        .isEqualTo(EvaluatorSelection.randomFromPool());
    assertThat(a.evaluators()).as("nobody judges before the pool assigns someone").isEmpty();
    doc.remove("verification");
    assertThat(read(doc).evaluatorSelection()).isEqualTo(EvaluatorSelection.randomFromPool());
  }

  // ---------------------------------------------------------------- evaluator_selection

  @Test
  void eachSelectionModeIsReadWithItsOptions() {
    ObjectNode doc = withoutEvaluator();
    selection(doc).put("mode", "mutual");
    assertThat(readTermsOnly(doc).evaluatorSelection()).isEqualTo(new EvaluatorSelection.Mutual(3));
    selection(doc).put("max_rounds", 5);
    assertThat(readTermsOnly(doc).evaluatorSelection()).isEqualTo(new EvaluatorSelection.Mutual(5));

    doc = withoutEvaluator();
    selection(doc).put("mode", "marketplace");
    assertThat(readTermsOnly(doc).evaluatorSelection())
        .isEqualTo(
            new EvaluatorSelection.Marketplace(EvaluatorSelection.Marketplace.Criteria.NONE));
    selection(doc)
        .putObject("criteria")
        .put("min_evaluations", 200)
        .put("domain", "medicine")
        .put("max_price_usd", new java.math.BigDecimal("0.75"));
    EvaluatorSelection.Marketplace m =
        (EvaluatorSelection.Marketplace) readTermsOnly(doc).evaluatorSelection();
    assertThat(m.criteria().minEvaluations()).isEqualTo(200);
    assertThat(m.criteria().domain()).isEqualTo("medicine");
    assertThat(m.criteria().maxPriceUsd()).isEqualByComparingTo("0.75");
    assertThat(m.mode()).isEqualTo("marketplace");

    doc = withoutEvaluator();
    selection(doc).put("mode", "random_from_pool");
    assertThat(readTermsOnly(doc).evaluatorSelection())
        .isEqualTo(EvaluatorSelection.randomFromPool());
  }

  @Test
  void aSelectionBesideANamedEvaluatorIsRefusedRatherThanGuessed() {
    assertViolation(
        doc -> selection(doc).put("mode", "random_from_pool"),
        "/verification/evaluator_selection",
        "parties.evaluator already names one");
  }

  @Test
  void anUnknownModeIsRefusedNamingTheField() {
    assertViolation(
        doc -> selection(doc).put("mode", "favourite_uncle"),
        "/verification/evaluator_selection/mode",
        "random_from_pool");
    assertViolation(
        doc -> selection(doc).put("max_rounds", 3),
        "/verification/evaluator_selection/mode",
        "required");
  }

  @Test
  void optionsOfAnotherModeAreRefused() {
    ObjectNode doc = withoutEvaluator();
    selection(doc).put("mode", "random_from_pool").put("max_rounds", 3);
    assertTermsViolation(doc, "/verification/evaluator_selection/max_rounds", "mutual");
    doc = withoutEvaluator();
    selection(doc).put("mode", "mutual").putObject("criteria");
    assertTermsViolation(doc, "/verification/evaluator_selection/criteria", "marketplace");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 21})
  void maxRoundsOutOfRangeIsRefused(int rounds) {
    assertViolation(
        doc -> selection(doc).put("mode", "mutual").put("max_rounds", rounds),
        "/verification/evaluator_selection/max_rounds",
        "");
  }

  @Test
  void marketplaceCriteriaOutOfRangeAreRefused() {
    assertViolation(
        doc ->
            selection(doc)
                .put("mode", "marketplace")
                .putObject("criteria")
                .put("max_price_usd", -1),
        "/verification/evaluator_selection/criteria/max_price_usd",
        "");
    assertViolation(
        doc ->
            selection(doc).put("mode", "marketplace").putObject("criteria").put("domain", "Law!"),
        "/verification/evaluator_selection/criteria/domain",
        "");
  }

  // ---------------------------------------------------------------- rotation and evaluators

  @Test
  void rotationIsReadAndBounded() {
    ObjectNode doc = full();
    verification(doc).putObject("rotation").put("max_consecutive", 3);
    assertThat(read(doc).rotationTerms()).contains(new RotationTerms(3));
    assertThat(read(doc).rotationOr(new RotationTerms(9))).isEqualTo(new RotationTerms(3));
    assertViolation(
        d -> verification(d).putObject("rotation").put("max_consecutive", 0),
        "/verification/rotation/max_consecutive",
        "");
    assertViolation(
        d -> verification(d).putObject("rotation"),
        "/verification/rotation/max_consecutive",
        "required");
    assertThatThrownBy(() -> new RotationTerms(1001)).hasMessageContaining("1 to 1000");
  }

  @Test
  void severalEvaluatorsComeFromThePool() {
    ObjectNode doc = withoutEvaluator();
    verification(doc).putObject("evaluators").put("count", 3).put("method", "majority");
    assertThat(readTermsOnly(doc).evaluators())
        .isEqualTo(new EvaluatorPanel(3, EvaluatorPanel.Method.MAJORITY));
    verification(doc).putObject("evaluators").put("count", 2);
    assertThat(readTermsOnly(doc).evaluators().method()).isEqualTo(EvaluatorPanel.Method.MEDIAN);

    // A named evaluator is one evaluator: a count of 1 is fine, more is a contradiction.
    ObjectNode named = full();
    verification(named).putObject("evaluators").put("count", 1);
    assertThat(read(named).evaluators()).isEqualTo(EvaluatorPanel.SINGLE);
    assertViolation(
        d -> verification(d).putObject("evaluators").put("count", 3),
        "/verification/evaluators/count",
        "remove parties.evaluator");
    assertThatThrownBy(() ->
            new VerificationTerms(
                VerificationTerms.Strategy.OPTIMISTIC,
                0,
                1,
                VerificationTerms.Visibility.PARTIES,
                null,
                EvaluatorSelection.named(),
                null,
                new EvaluatorPanel(3, EvaluatorPanel.Method.MEDIAN),
                CanaryTerms.DISABLED,
                null))
        .hasMessageContaining("pool");
  }

  @Test
  void evaluatorCountAndMethodAreBounded() {
    assertViolation(
        d -> verification(d).putObject("evaluators").put("count", 8),
        "/verification/evaluators/count",
        "");
    assertViolation(
        d -> verification(d).putObject("evaluators").put("count", 1).put("method", "mean"),
        "/verification/evaluators/method",
        "");
    assertViolation(
        d -> verification(d).putObject("evaluators").put("method", "median"),
        "/verification/evaluators/count",
        "required");
  }

  // ---------------------------------------------------------------- canary_tasks

  @Test
  void canaryTasksWrittenDownAreOnUnlessDisabled() {
    ObjectNode doc = full();
    verification(doc).putObject("canary_tasks");
    assertThat(read(doc).canaryTasks())
        .isEqualTo(
            new CanaryTerms(
                true, CanaryTerms.Frequency.DEFAULT, CanaryTerms.FailureAction.FLAG_AND_CONTINUE));
    verification(doc)
        .putObject("canary_tasks")
        .put("enabled", false)
        .put("frequency", "1_per_20_deliveries")
        .put("failure_action", "void_result_and_reassign");
    CanaryTerms c = read(doc).canaryTasks();
    assertThat(c.enabled()).isFalse();
    assertThat(c.frequency().oneIn()).isEqualTo(20);
    assertThat(c.failureAction()).isEqualTo(CanaryTerms.FailureAction.VOID_RESULT_AND_REASSIGN);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2_per_5_deliveries",
        "1_per_0_deliveries",
        "1 per 5",
        "weekly",
        "1_per_05_deliveries"
      })
  void aFrequencyNotOfTheFormOnePerNDeliveriesIsRefused(String frequency) {
    assertViolation(
        d -> verification(d).putObject("canary_tasks").put("frequency", frequency),
        "/verification/canary_tasks/frequency",
        "");
    assertThatThrownBy(() -> CanaryTerms.Frequency.parse(frequency))
        .hasMessageContaining("1_per_N_deliveries");
  }

  @Test
  void aFrequencyBeyondOnePerThousandIsRefusedWithTheRange() {
    assertViolation(
        d -> verification(d).putObject("canary_tasks").put("frequency", "1_per_5000_deliveries"),
        "/verification/canary_tasks/frequency",
        "from 1 to 1000");
  }

  @ParameterizedTest
  @CsvSource({"1_per_1_deliveries,1", "1_per_5_deliveries,5", "1_per_1000_deliveries,1000"})
  void frequenciesRoundTrip(String wire, int oneIn) {
    CanaryTerms.Frequency f = CanaryTerms.Frequency.parse(wire);
    assertThat(f.oneIn()).isEqualTo(oneIn);
    assertThat(f.toWire()).isEqualTo(wire);
  }

  @Test
  void anUnknownFailureActionIsRefusedNamingTheField() {
    assertViolation(
        d -> verification(d).putObject("canary_tasks").put("failure_action", "shrug"),
        "/verification/canary_tasks/failure_action",
        "");
    assertThatThrownBy(() -> CanaryTerms.FailureAction.fromWire("shrug"))
        .hasMessageContaining("flag_and_continue, replace_evaluator, void_result_and_reassign");
    assertThat(CanaryTerms.FailureAction.REPLACE_EVALUATOR.wireName())
        .isEqualTo("replace_evaluator");
  }

  // ---------------------------------------------------------------- helpers

  private static ObjectNode full() {
    ObjectNode doc =
        AgreementDrafts.propose(Fixtures.general(), NOW, () -> "asa-test-0001").toJson();
    doc.remove("status");
    return doc;
  }

  private static ObjectNode withoutEvaluator() {
    ObjectNode doc = full();
    ((ObjectNode) doc.get("parties")).remove("evaluator");
    return doc;
  }

  private static ObjectNode verification(ObjectNode doc) {
    return doc.has("verification")
        ? (ObjectNode) doc.get("verification")
        : doc.putObject("verification");
  }

  private static ObjectNode selection(ObjectNode doc) {
    ObjectNode v = verification(doc);
    return v.has("evaluator_selection")
        ? (ObjectNode) v.get("evaluator_selection")
        : v.putObject("evaluator_selection");
  }

  private static VerificationTerms read(ObjectNode doc) {
    return AgreementDocuments.read(doc).terms().verification();
  }

  /** The typed terms without the schema, for values the schema would refuse first. */
  private static VerificationTerms readTermsOnly(ObjectNode doc) {
    Violations violations = new Violations();
    AgreementTerms terms = new TermsReader(violations).read(doc);
    assertThat(violations.list()).isEmpty();
    return terms.verification();
  }

  private static void assertTermsViolation(ObjectNode doc, String pointer, String fragment) {
    Violations violations = new Violations();
    new TermsReader(violations).read(doc);
    assertThat(violations.list())
        .anySatisfy(v -> {
          assertThat(v.pointer()).isEqualTo(pointer);
          assertThat(v.message()).contains(fragment);
        });
  }

  private static void assertViolation(Consumer<ObjectNode> edit, String pointer, String fragment) {
    ObjectNode doc = full();
    edit.accept(doc);
    assertThatThrownBy(() -> AgreementDocuments.read(doc))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations())
                .as(e.getMessage())
                .anySatisfy(v -> {
                  assertThat(v.pointer()).isEqualTo(pointer);
                  assertThat(v.message()).contains(fragment);
                }));
  }

  private static ObjectNode whitepaper() {
    try (InputStream in =
        EvaluatorIntegrityTermsTest.class
            .getClassLoader()
            .getResourceAsStream("dev/asa/examples/whitepaper-4.1.json")) {
      ObjectNode doc =
          (ObjectNode) Json.parseTrusted(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      // The example's evaluator names no key; one that is to answer needs one here.
      ((ObjectNode) doc.at("/parties/evaluator"))
          .putObject("verification_key")
          .put("scheme", "ed25519")
          .put("value", Fixtures.key("eval-1").publicKey().toBase64Url());
      return doc;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
