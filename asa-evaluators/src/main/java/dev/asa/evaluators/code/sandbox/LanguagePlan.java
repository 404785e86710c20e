package dev.asa.evaluators.code.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * How one language's tests run in a sandbox: the harness files added beside the deliverable, the
 * command, and the address space its runtime reserves beyond what the program uses.
 */
sealed interface LanguagePlan permits PythonPlan, JavaScriptPlan, JavaPlan {

  /**
   * The directory (inside the work directory) the harness lives in; deliverables may not use it.
   */
  String HARNESS_DIR = "__asa__";

  /** Where every harness writes its result lines. */
  String RESULTS = HARNESS_DIR + "/results.txt";

  /** Why this language cannot run here (its runtime is missing), when that is so. */
  Optional<String> missing();

  /** Files added to the work directory, under {@link #HARNESS_DIR}. */
  Map<String, String> harness();

  /**
   * The command that runs {@code tests} against {@code files} (the deliverable's files and the test
   * file, all in the work directory), the program allowed {@code memoryBytes}.
   */
  Command command(Map<String, String> files, TestFile tests, long memoryBytes);

  /**
   * The test file as run: for a harness that cannot add its control tests itself, with them
   * appended.
   */
  default TestFile withControls(TestFile tests, Tripwire tripwire) {
    return tests;
  }

  /** Address space the runtime reserves beyond what the program uses, added to RLIMIT_AS. */
  long runtimeReserve(long memoryBytes);

  static LanguagePlan of(Language language) {
    return switch (language) {
      case PYTHON -> new PythonPlan();
      case JAVASCRIPT -> new JavaScriptPlan();
      case JAVA -> new JavaPlan();
    };
  }

  /** A harness file from this package's resources. */
  static String resource(String name) {
    try (InputStream in = LanguagePlan.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("harness resource missing: " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
