package dev.asa.evaluators.code.sandbox;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Java: {@code javac} compiles every {@code .java} file with a small harness ({@code AsaTestMain})
 * that calls the test class's public {@code test*} methods by reflection, then {@code java} runs
 * it, both in the same sandbox. No JUnit: it would have to be fetched and kept beside the server,
 * and a convention of plain methods that throw {@code AssertionError} needs nothing but the JDK. No
 * coverage (JaCoCo would be a second jar to ship); the result says so by leaving it empty.
 */
record JavaPlan() implements LanguagePlan {

  /** Exit status of the sandbox's script when compilation failed. */
  static final int COMPILE_FAILED = 97;

  private static final Pattern PACKAGE =
      Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
  private static final long JAVAC_HEAP = 256L * 1024 * 1024;
  // A JVM reserves code cache, class space, metaspace and thread stacks beyond its heap.
  private static final long JVM_RESERVE = 1024L * 1024 * 1024;
  private static final String JVM_FLAGS =
      "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=48m"
          + " -XX:CompressedClassSpaceSize=64m -XX:MaxMetaspaceSize=128m -XX:-UsePerfData"
          + " -Xshare:auto -Djava.io.tmpdir=/tmp";

  @Override
  public Optional<String> missing() {
    return Toolchains.jdk().isPresent()
        ? Optional.empty()
        : Optional.of("no JDK with javac found (this JVM's home, /usr/lib/jvm)");
  }

  @Override
  public Map<String, String> harness() {
    return Map.of(HARNESS_DIR + "/AsaTestMain.java", LanguagePlan.resource("AsaTestMain.java"));
  }

  @Override
  public Command command(Map<String, String> files, TestFile tests, long memoryBytes) {
    Path jdk = Toolchains.jdk().orElseThrow();
    long heapMiB = Math.max(16, memoryBytes / (1024 * 1024));
    String script =
        "mkdir -p "
            + HARNESS_DIR
            + "/classes"
            + " && \"$JDK/bin/javac\" -J-Xmx"
            + JAVAC_HEAP / (1024 * 1024)
            + "m "
            + jflags()
            // No annotation processors: javac would otherwise look for them on the class path,
            // which is the deliverable's directory.
            + " -proc:none -encoding UTF-8 -nowarn -d "
            + HARNESS_DIR
            + "/classes \"$@\""
            + " || exit "
            + COMPILE_FAILED
            + "\n"
            + "exec \"$JDK/bin/java\" -Xmx"
            + heapMiB
            + "m "
            + JVM_FLAGS
            + " -ea -cp "
            + HARNESS_DIR
            + "/classes AsaTestMain \"$TEST_CLASS\" "
            + RESULTS
            + "\n";
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", script, "sh"));
    files.keySet().stream().filter(p -> p.endsWith(".java")).forEach(argv::add);
    List<Path> binds = jdk.startsWith("/usr/") ? List.of() : List.of(jdk);
    return new Command(
        argv,
        Map.of("JDK", jdk.toString(), "TEST_CLASS", testClass(tests)),
        binds,
        List.of(RESULTS));
  }

  @Override
  public long runtimeReserve(long memoryBytes) {
    return Math.max(0, JAVAC_HEAP - memoryBytes) + JVM_RESERVE;
  }

  /** The test class's binary name: the package it declares and the file's name. */
  static String testClass(TestFile tests) {
    String file = Path.of(tests.path()).getFileName().toString();
    String simple = file.endsWith(".java") ? file.substring(0, file.length() - 5) : file;
    Matcher m = PACKAGE.matcher(tests.content());
    return m.find() ? m.group(1) + "." + simple : simple;
  }

  private static String jflags() {
    StringBuilder b = new StringBuilder();
    for (String flag : JVM_FLAGS.split(" ")) {
      b.append(" -J").append(flag);
    }
    return b.toString().strip();
  }
}
