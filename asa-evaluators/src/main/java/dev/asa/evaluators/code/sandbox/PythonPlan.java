package dev.asa.evaluators.code.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Python: a small harness ({@code runner.py}) runs unittest cases and pytest-style tests with the
 * standard library only, and measures line coverage of the deliverable's {@code .py} files with a
 * tracer ({@code sys.settrace}): {@code coverage.py} is not on the machine, and the standard {@code
 * trace} module does the same job slower.
 */
record PythonPlan() implements LanguagePlan {

  @Override
  public Optional<String> missing() {
    return Toolchains.python().isPresent()
        ? Optional.empty()
        : Optional.of("python3 is not installed under /usr");
  }

  @Override
  public Map<String, String> harness() {
    return Map.of(HARNESS_DIR + "/runner.py", LanguagePlan.resource("runner.py"));
  }

  @Override
  public Command command(Map<String, String> files, TestFile tests, long memoryBytes) {
    List<String> argv =
        new ArrayList<>(
            List.of(
                Toolchains.python().orElseThrow().toString(),
                "-I",
                "-B",
                HARNESS_DIR + "/runner.py",
                tests.path(),
                RESULTS));
    files.keySet().stream()
        .filter(p -> p.endsWith(".py") && !p.equals(tests.path()))
        .filter(p -> !p.startsWith(HARNESS_DIR + "/"))
        .forEach(argv::add);
    return new Command(argv, Map.of("PYTHONHASHSEED", "0"), List.of(), List.of(RESULTS));
  }

  @Override
  public long runtimeReserve(long memoryBytes) {
    return 64L * 1024 * 1024;
  }
}
