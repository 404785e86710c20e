package dev.asa.evaluators.code.sandbox;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * JavaScript: {@code node --test} on the test file with a small custom reporter ({@code
 * reporter.mjs}) that writes the shared result lines, and node's built-in coverage.
 */
record JavaScriptPlan() implements LanguagePlan {

  /** Freezes node:assert before anything of the deliverable's loads (see the file). */
  private static final String FREEZE = HARNESS_DIR + "/freeze.cjs";

  @Override
  public Optional<String> missing() {
    return Toolchains.node().isPresent()
        ? Optional.empty()
        : Optional.of("node is not installed under /usr");
  }

  @Override
  public Map<String, String> harness() {
    return Map.of(
        HARNESS_DIR + "/reporter.mjs",
        LanguagePlan.resource("reporter.mjs"),
        FREEZE,
        LanguagePlan.resource("freeze.cjs"));
  }

  /**
   * The tests run in node's child process, out of the reporter's reach, so the control tests go
   * there too: appended to the test file, registered once it (and the deliverable it imports) has
   * loaded, comparing values drawn when they run. Their names are fresh per run, but the
   * deliverable can read them from the test file once it runs: a disarmed {@code node:assert} that
   * spares them takes reading and matching them, deliberately.
   */
  @Override
  public TestFile withControls(TestFile tests, Tripwire tripwire) {
    String controls =
        "\n;import('node:test').then(({ test }) => {\n"
            + "  const pick = () => globalThis.crypto.randomUUID();\n"
            + "  test('"
            + tripwire.mustFail().get(0)
            + "', async () => { const assert = (await import('node:assert')).default;"
            + " assert.strictEqual(pick(), pick()); });\n"
            + "  test('"
            + tripwire.mustFail().get(1)
            + "', async () => { const assert = (await import('node:assert/strict')).default;"
            + " assert.ok(pick() === pick()); assert.equal(pick(), pick()); });\n"
            + "  test('"
            + tripwire.mustPass()
            + "', async () => { const assert = (await import('node:assert')).default;"
            + " const a = pick(); assert.strictEqual(a, a); assert.deepStrictEqual({ a }, { a });"
            + " });\n"
            + "});\n";
    return new TestFile(tests.path(), tests.content() + controls);
  }

  @Override
  public Command command(Map<String, String> files, TestFile tests, long memoryBytes) {
    long heapMiB = Math.max(16, memoryBytes / (1024 * 1024));
    return new Command(
        List.of(
            Toolchains.node().orElseThrow().toString(),
            "--test",
            "--experimental-test-coverage",
            "--test-reporter=./" + HARNESS_DIR + "/reporter.mjs",
            "--test-reporter-destination=" + RESULTS,
            tests.path()),
        // NODE_OPTIONS reaches the child process node --test runs each file in.
        Map.of(
            "NODE_OPTIONS",
            "--max-old-space-size=" + heapMiB + " --require=./" + FREEZE,
            "ASA_TEST_FILE",
            tests.path(),
            "NO_COLOR",
            "1"),
        List.of(),
        List.of(RESULTS));
  }

  /**
   * V8 reserves about a gigabyte of address space before it runs a line (it fails under 512 MiB).
   */
  @Override
  public long runtimeReserve(long memoryBytes) {
    return 1536L * 1024 * 1024;
  }
}
