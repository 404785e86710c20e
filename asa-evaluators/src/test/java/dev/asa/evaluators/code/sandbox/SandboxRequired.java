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

  static Sandbox sandbox() {
    Sandbox.Availability a = Sandbox.available();
    if (!a.available() && "true".equals(System.getenv("CI"))) {
      fail("CI=true but no sandbox: " + a.reason());
    }
    assumeTrue(a.available(), () -> "sandbox unavailable, test skipped: " + a.reason());
    return Sandbox.create();
  }
}
