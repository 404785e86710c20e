package dev.asa.server.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.CanarySet;
import dev.asa.integrity.Deviation;
import dev.asa.integrity.EvaluatorProfile;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.integrity.Standing;
import dev.asa.json.Json;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry as the assignment work uses it, over a real (SQLite) store: the pool of a service
 * type, the records it updates, and a canary set that two nodes sharing the database agree on.
 */
class EvaluatorRegistryTest {
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir Path dir;
  Store store;
  EvaluatorRegistry registry;

  @BeforeEach
  void open() {
    store = Stores.open(null, dir);
    registry =
        new EvaluatorRegistry(
            store.evaluators(), store.canarySets(), store.writes(), QualificationPolicy.DEFAULTS);
  }

  @AfterEach
  void close() {
    store.close();
  }

  static String key(String name) {
    return Fixtures.key(name).publicKey().toBase64Url();
  }

  static EvaluatorProfile profile(String name, String... types) {
    return new EvaluatorProfile(
        Fixtures.key(name).publicKey(),
        new Identity("api_key", name, null),
        name,
        null,
        List.of(types),
        null,
        null,
        List.of());
  }

  static String canaryLine(String id, String type) {
    ObjectNode c = Json.object();
    c.put("id", id);
    if (type != null) {
      c.put("service_type", type);
    }
    c.putObject("request").put("description", "Summarise it");
    c.putObject("deliverable").put("content", "# Summary").put("format", "markdown");
    c.set(
        "criteria",
        Json.parseTrusted(
            "{\"dimensions\": [{\"name\": \"accuracy\", \"weight\": 1, \"metric\": \"score\","
                + " \"slo\": {\"operator\": \"gte\", \"value\": 70}}], \"composite_threshold\": 70}"));
    c.putObject("known_scores").put("accuracy", 20);
    c.put("tolerance", 10);
    return Json.write(c);
  }

  @Test
  void thePoolOfAServiceTypeHoldsItsEvaluatorsWithRecordAndStanding() {
    registry.register(profile("ada", "research"), T0);
    registry.register(profile("bea", "research", "code_generation"), T0);
    registry.register(profile("cyd", "code_generation"), T0);
    registry.changeStanding(key("bea"), s -> Standing.suspended("under review"), T0);

    List<PoolMember> pool = registry.pool("research");
    assertThat(pool)
        .extracting(m -> m.profile().keyId())
        .containsExactlyInAnyOrder(key("ada"), key("bea"));
    assertThat(pool)
        .filteredOn(m -> m.profile().keyId().equals(key("bea")))
        .singleElement()
        .satisfies(m -> assertThat(m.standing()).isEqualTo(Standing.suspended("under review")));
    assertThat(registry.pool("translation")).isEmpty();
    assertThat(registry.policy()).isEqualTo(QualificationPolicy.DEFAULTS);
  }

  @Test
  void assessmentsCanariesAndCalibrationGoIntoTheRecord() {
    registry.register(profile("ada", "research"), T0);
    registry.register(profile("bea", "research"), T0);
    registry.recordAssessment(key("ada"), key("bob"), T0);
    registry.recordAssessment(key("ada"), key("bob"), T0);
    PoolMember ada =
        registry.recordCanary(
            key("ada"),
            new CanaryCheck(
                "c1",
                true,
                List.of(
                    new CanaryCheck.DimensionCheck(
                        "accuracy",
                        BigDecimal.valueOf(20),
                        BigDecimal.valueOf(25),
                        BigDecimal.TEN))),
            T0);
    assertThat(ada.record().evaluations()).isEqualTo(3);
    assertThat(ada.record().canaryPasses()).isEqualTo(1);
    assertThat(ada.record().consecutiveFor(key("bob"))).isEqualTo(2);

    registry.recordAssessment(List.of(key("bea")), key("bob"), T0);
    PoolMember after =
        registry.recordCalibration(
            key("ada"),
            new Calibration(
                Map.of(), Map.of("accuracy", Deviation.of(BigDecimal.ONE, BigDecimal.TEN))),
            T0);
    assertThat(after.record().consecutiveFor(key("bob"))).isZero();
    assertThat(after.record().calibration().overall().samples()).isEqualTo(2);
    assertThat(registry.qualification(after).qualified()).isFalse();
    assertThatThrownBy(() -> registry.recordCalibration(key("nobody"), Calibration.EMPTY, T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCanarySetLoadedOnOneNodeIsInForceOnEveryNode() {
    assertThat(registry.canaries()).isEmpty();
    assertThat(registry.canarySet()).isEmpty();
    EvaluatorRegistry otherNode =
        new EvaluatorRegistry(
            store.evaluators(), store.canarySets(), store.writes(), QualificationPolicy.DEFAULTS);

    CanarySet first = CanarySet.parse(canaryLine("a", "research") + "\n" + canaryLine("b", null));
    CanarySetInfo info = registry.loadCanaries(first, "operator x", T0);
    assertThat(info.count()).isEqualTo(2);
    assertThat(info.byServiceType()).isEqualTo(Map.of("research", 1, "*", 1));
    assertThat(info.countFor("research")).isEqualTo(2);
    assertThat(info.countFor("translation")).isEqualTo(1);
    assertThat(otherNode.canaries()).contains(first);

    // The same set again keeps its version; another set is seen by the other node at once.
    assertThat(otherNode.loadCanaries(first, "operator y", T0.plusSeconds(1))).isEqualTo(info);
    CanarySet second = CanarySet.parse(canaryLine("c", "translation"));
    CanarySetInfo replaced = otherNode.loadCanaries(second, "operator y", T0.plusSeconds(2));
    assertThat(replaced.version()).isEqualTo(info.version() + 1);
    assertThat(registry.canaries()).contains(second);
    assertThat(registry.canarySet()).contains(replaced);
  }

  @Test
  void aCanaryFileIsReadOrRefusedNamingEachProblemsCanaryFieldAndLine() throws Exception {
    Path good = dir.resolve("good.jsonl");
    Files.writeString(good, canaryLine("a", "research") + "\n\n" + canaryLine("b", null) + "\n");
    CanaryFile file = CanaryFile.read(good);
    assertThat(file.set().canaries()).hasSize(2);
    assertThat(file.source()).isEqualTo("asa serve --canaries " + good.toAbsolutePath());

    Path bad = dir.resolve("bad.jsonl");
    Files.writeString(
        bad,
        canaryLine("a", "research")
            + "\n"
            + canaryLine("b", null).replace("\"tolerance\":10", "\"tolerance\":-1")
            + "\n{oops\n");
    assertThatThrownBy(() -> CanaryFile.read(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "the canary file " + bad + " has 2 problems; fix them and start again:")
        .hasMessageContaining("\n  /1/tolerance: must be the points a score may be off")
        .hasMessageContaining("(line 2)")
        .hasMessageContaining("\n  /2: is not valid JSON");

    assertThatThrownBy(() -> CanaryFile.read(dir.resolve("missing.jsonl")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("there is no canary file " + dir.resolve("missing.jsonl"));
    Path binary = dir.resolve("binary.jsonl");
    Files.write(binary, new byte[] {(byte) 0xC3, (byte) 0x28});
    assertThatThrownBy(() -> CanaryFile.read(binary))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not UTF-8 text");
    Path empty = dir.resolve("empty.jsonl");
    Files.writeString(empty, "\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> CanaryFile.read(empty))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds no canary");
  }
}
