package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests that need bubblewrap skip, saying why, when {@link Sandbox#available()} is false; under CI
 * ({@code CI=true}, where {@code .ci/run} installs bubblewrap) they fail instead, so a broken
 * sandbox cannot pass as a skipped one.
 */
final class SandboxRequired {
  private SandboxRequired() {}

  static TestRunner runner() {
    return new TestRunner(sandbox());
  }

  /** Skips (fails under CI) when {@code language}'s runtime is not on the machine. */
  static void runtime(Language language) {
    java.util.Optional<String> missing = LanguagePlan.of(language).missing();
    if (missing.isPresent() && "true".equals(System.getenv("CI"))) {
      fail("CI=true but " + missing.get());
    }
    assumeTrue(missing.isEmpty(), () -> "test skipped: " + missing.orElse(""));
  }

  static Sandbox sandbox() {
    Sandbox.Availability a = Sandbox.available();
    if (!a.available() && "true".equals(System.getenv("CI"))) {
      fail("CI=true but no sandbox: " + a.reason());
    }
    assumeTrue(a.available(), () -> "sandbox unavailable, test skipped: " + a.reason());
    return Sandbox.create();
  }
}
