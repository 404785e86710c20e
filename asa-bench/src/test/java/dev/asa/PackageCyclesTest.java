package dev.asa;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.asa.packagecycles.first.First;
import dev.asa.packagecycles.second.Second;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Packages depend one way, in every module: each package under {@code dev.asa} is a slice, and no
 * slice depends on itself through others. A cycle fails the build, naming its packages and the
 * dependencies that close it.
 *
 * <p>It lives in asa-bench because that module's test class path holds every module's classes
 * (asa-bench depends on asa-cli, asa-server and asa-client, and through them on asa-evaluators and
 * asa-core). Only production classes are read: nothing from test class folders, and only the {@code
 * dev.asa} packages, so no third party's jar.
 */
class PackageCyclesTest {

  /** Every package is its own slice, named by its path under dev.asa (say "server.store"). */
  private static final ArchRule NO_PACKAGE_CYCLES =
      slices().matching("dev.asa.(**)").namingSlices("$1").should().beFreeOfCycles();

  /** A package of each module, so that the rule is known to have read all of them. */
  private static final Set<String> ONE_PACKAGE_PER_MODULE =
      Set.of(
          "dev.asa.agreement", // asa-core
          "dev.asa.evaluators", // asa-evaluators
          "dev.asa.client", // asa-client
          "dev.asa.server", // asa-server
          "dev.asa.cli", // asa-cli
          "dev.asa.bench"); // asa-bench

  @Test
  void noPackageOfAnyModuleDependsOnItselfThroughOthers() {
    JavaClasses production =
        new ClassFileImporter()
            // Not Predefined.DO_NOT_INCLUDE_TESTS: it knows target/test-classes only, and the fast
            // tier builds in target/fast.
            .withImportOption(location -> !location.contains("/test-classes/"))
            .importPackages("dev.asa");
    Set<String> packages =
        production.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
    assertThat(packages).containsAll(ONE_PACKAGE_PER_MODULE);
    assertThat(production.contain(PackageCyclesTest.class)).as("test classes read").isFalse();

    NO_PACKAGE_CYCLES.check(production);
  }

  @Test
  void theRuleFailsOnACycle() {
    // Two test-only classes in two packages, each using the other.
    JavaClasses cycle = new ClassFileImporter().importClasses(First.class, Second.class);

    EvaluationResult result = NO_PACKAGE_CYCLES.evaluate(cycle);

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().toString())
        .contains("packagecycles.first", "packagecycles.second");
    assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(cycle)).isInstanceOf(AssertionError.class);
  }
}
