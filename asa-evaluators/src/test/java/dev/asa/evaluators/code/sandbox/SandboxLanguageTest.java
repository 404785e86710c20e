package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SandboxLanguageTest {

  @Test
  void formatsNameTheirLanguageBareOrAsCodeSlash() {
    assertEquals(Optional.of(Language.PYTHON), Language.fromFormat("python"));
    assertEquals(Optional.of(Language.PYTHON), Language.fromFormat(" code/Py "));
    assertEquals(Optional.of(Language.JAVASCRIPT), Language.fromFormat("code/javascript"));
    assertEquals(Optional.of(Language.JAVA), Language.fromFormat("JAVA"));
    assertEquals(Optional.empty(), Language.fromFormat("typescript"));
    assertEquals(Optional.empty(), Language.fromFormat(null));
  }

  @Test
  void theJavaTestClassIsTheFileInItsDeclaredPackage() {
    assertEquals(
        "shop.CartTest",
        JavaPlan.testClass(
            new TestFile("src/shop/CartTest.java", "// x\npackage shop;\nclass A {}")));
    assertEquals(
        "DeliverableTest",
        JavaPlan.testClass(TestFile.of(Language.JAVA, "public class DeliverableTest {}")));
  }
}
