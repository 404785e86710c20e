package dev.asa.shadow;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.Objects;
import java.util.Optional;

/**
 * A Shadow Report in the Shadow Score Spec's format (version 2.0.0; its members are a superset of
 * 1.0.0's, so a 1.0.0 reader can read it).
 *
 * @param sealed the sealed suite's results
 * @param open the implementer's own suite, when given: adds {@code open_tests} and {@code
 *     coverage_comparison}
 * @param sealedHash the commitment over the sealed tests, when there is one
 * @param advisoryReason why the score is not authoritative, when it is not (beyond an empty suite,
 *     which is always advisory)
 * @param sealBroken the commitment did not recompute (or the seal's signature failed): written as
 *     {@code seal_broken: true}, and always with an advisory reason
 * @param hardening the hardening block, when a fix cycle was offered
 */
public record ShadowReport(
    TestSuite sealed,
    Optional<TestSuite> open,
    Optional<String> sealedHash,
    Optional<String> advisoryReason,
    boolean sealBroken,
    Optional<Hardening> hardening) {

  public static final String SPEC_VERSION = "2.0.0";

  public ShadowReport {
    Objects.requireNonNull(sealed, "sealed");
    Objects.requireNonNull(open, "open");
    Objects.requireNonNull(sealedHash, "sealedHash");
    Objects.requireNonNull(advisoryReason, "advisoryReason");
    Objects.requireNonNull(hardening, "hardening");
    if (sealBroken && advisoryReason.isEmpty()) {
      throw new IllegalArgumentException("a broken seal makes the score advisory: give the reason");
    }
  }

  /** A report without seal status or hardening, as the validator CLI writes. */
  public ShadowReport(
      TestSuite sealed,
      Optional<TestSuite> open,
      Optional<String> sealedHash,
      Optional<String> advisoryReason) {
    this(sealed, open, sealedHash, advisoryReason, false, Optional.empty());
  }

  public static ShadowReport of(TestSuite sealed) {
    return new ShadowReport(sealed, Optional.empty(), Optional.empty(), Optional.empty());
  }

  public ShadowReport withOpen(TestSuite openSuite) {
    return new ShadowReport(
        sealed, Optional.of(openSuite), sealedHash, advisoryReason, sealBroken, hardening);
  }

  public ShadowReport withSealedHash(String hash) {
    return new ShadowReport(sealed, open, Optional.of(hash), advisoryReason, sealBroken, hardening);
  }

  public ShadowReport advisory(String reason) {
    return new ShadowReport(sealed, open, sealedHash, Optional.of(reason), sealBroken, hardening);
  }

  /** Marks the seal broken: {@code seal_broken: true}, and advisory for {@code reason}. */
  public ShadowReport withSealBroken(String reason) {
    return new ShadowReport(sealed, open, sealedHash, Optional.of(reason), true, hardening);
  }

  public ShadowReport withHardening(Hardening block) {
    return new ShadowReport(
        sealed, open, sealedHash, advisoryReason, sealBroken, Optional.of(block));
  }

  public ShadowScore score() {
    return ShadowScore.of(sealed);
  }

  /**
   * The reason the score is not authoritative, or empty when it is. An empty suite is advisory
   * whatever else is said: its 0.0 perfect means nothing was checked, not that everything passed.
   */
  public Optional<String> advisoryReasonInEffect() {
    if (advisoryReason.isPresent()) {
      return advisoryReason;
    }
    return sealed.total() == 0 ? Optional.of(ShadowScore.NOTHING_SEALED) : Optional.empty();
  }

  public boolean isAdvisory() {
    return advisoryReasonInEffect().isPresent();
  }

  public ObjectNode toJson() {
    ShadowScore score = score();
    ObjectNode root = Json.object();
    root.put("shadow_score_spec_version", SPEC_VERSION);
    ObjectNode report = root.putObject("report");
    report.put("shadow_score", score.percentage());
    report.put("level", score.level().wire());
    sealedHash.ifPresent(h -> report.put("sealed_hash", h));
    if (sealBroken) {
      report.put("seal_broken", true);
    }
    advisoryReasonInEffect()
        .ifPresent(reason -> {
          report.put("advisory", true);
          report.put("advisory_reason", reason);
        });
    counts(root.putObject("sealed_tests"), sealed);
    ArrayNode failures = root.putArray("failures");
    for (TestResult f : sealed.failures()) {
      ObjectNode item = failures.addObject();
      item.put("test_name", f.name());
      item.put("category", f.category().reported());
      item.put("expected", f.expected());
      item.put("actual", f.actual());
      item.put("message", f.message());
    }
    open.ifPresent(o -> {
      counts(root.putObject("open_tests"), o);
      ObjectNode comparison = root.putObject("coverage_comparison");
      for (Category c : Category.COMPARED) {
        long s = sealed.count(c);
        long n = o.count(c);
        comparison.putObject(c.wire()).put("sealed", s).put("open", n).put("delta", s - n);
      }
    });
    hardening.ifPresent(h -> root.set("hardening", h.toJson()));
    return root;
  }

  /** A few lines for a person: the score, the counts, and each failure's message. */
  public String summary() {
    ShadowScore score = score();
    StringBuilder s = new StringBuilder();
    s.append("Shadow Score: ")
        .append(score.percentage().toPlainString())
        .append("% (")
        .append(score.level().wire())
        .append(")\n");
    s.append("Sealed: ")
        .append(sealed.passed())
        .append('/')
        .append(sealed.total())
        .append(" passed\n");
    open.ifPresent(o ->
        s.append("Open:   ").append(o.passed()).append('/').append(o.total()).append(" passed\n"));
    if (sealBroken) {
      s.append("Seal: BROKEN\n");
    }
    advisoryReasonInEffect().ifPresent(r -> s.append("Advisory: ").append(r).append('\n'));
    hardening.ifPresent(h ->
        s.append("Hardening: ")
            .append(h.initialShadowScore().toPlainString())
            .append("% -> ")
            .append(h.finalShadowScore().toPlainString())
            .append("% in ")
            .append(h.cyclesCompleted())
            .append(" of ")
            .append(h.maxCycles())
            .append(h.maxCycles() == 1 ? " cycle\n" : " cycles\n"));
    sealedHash.ifPresent(h -> s.append("Sealed hash: ").append(h).append('\n'));
    var failures = sealed.failures();
    if (!failures.isEmpty()) {
      s.append("\nFailures (").append(failures.size()).append("):\n");
      for (TestResult f : failures) {
        s.append("  ")
            .append(printable(f.name()))
            .append(" [")
            .append(f.category().reported())
            .append(']');
        if (f.status() != Status.FAILED) {
          s.append(" (").append(f.status().wire()).append(')');
        }
        s.append(": ")
            .append(f.message().isEmpty() ? "(no message)" : printable(f.message()))
            .append('\n');
      }
    }
    return s.toString();
  }

  /**
   * The text on one line, with control characters shown as {@code ?}: names and messages come from
   * whoever wrote the results file, and must not move the cursor or recolour the terminal.
   */
  private static String printable(String text) {
    StringBuilder s = new StringBuilder(text.length());
    text.codePoints().forEach(c -> s.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return s.toString();
  }

  private static void counts(ObjectNode node, TestSuite suite) {
    node.put("total", suite.total()).put("passed", suite.passed()).put("failed", suite.failed());
  }
}
