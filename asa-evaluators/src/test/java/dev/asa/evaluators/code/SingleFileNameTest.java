package dev.asa.evaluators.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.Language;
import org.junit.jupiter.api.Test;

/** How a single-file deliverable is named from the client's tests and request. */
class SingleFileNameTest {

  private static SingleFileName.Choice python(String tests, String request) {
    return SingleFileName.of(Language.PYTHON, "def f():\n    return 1\n", tests, request);
  }

  @Test
  void theModuleThePythonTestsImportNamesTheFile() {
    assertThat(python("import unittest\nfrom solution import f\n", "").name())
        .isEqualTo("solution.py");
    assertThat(python("import os, sys\nimport solution as s\n", "").name())
        .isEqualTo("solution.py");
    // The standard library is not the deliverable.
    assertThat(python("import unittest\nimport collections\nfrom typing import List\n", "").name())
        .isEqualTo("main.py");
  }

  @Test
  void theRequestDecidesWhereTheTestsDoNot() {
    assertThat(python(null, "Write a module `sorting.py` with sort(xs).").name())
        .isEqualTo("sorting.py");
    // Two modules imported: the request says which one the single file is.
    SingleFileName.Choice both =
        python("from solution import f\nfrom helpers import g\n", "Write solution.py");
    assertThat(both.name()).isEqualTo("solution.py");
    assertThat(both.decided()).isTrue();
    // A test file the request mentions is not the deliverable.
    assertThat(python(null, "Put the tests in test_sorting.py and the code in sorting.py").name())
        .isEqualTo("sorting.py");
  }

  @Test
  void anUndecidedNameIsMainAndSaysWhy() {
    SingleFileName.Choice c = python("from a import f\nfrom b import g\n", "Sort numbers.");
    assertThat(c.name()).isEqualTo("main.py");
    assertThat(c.decided()).isFalse();
    assertThat(c.how()).contains("the client's tests import a.py, b.py");
    SingleFileName.Choice none = python(null, "Write a.py and b.py");
    assertThat(none.decided()).isFalse();
    assertThat(none.how()).contains("the request names a.py, b.py");
  }

  @Test
  void javascriptFollowsTheRelativeRequire() {
    String code = "exports.f = () => 1;\n";
    assertThat(
            SingleFileName.of(Language.JAVASCRIPT, code, "const { f } = require('./solution');", "")
                .name())
        .isEqualTo("solution.js");
    assertThat(
            SingleFileName.of(
                    Language.JAVASCRIPT, code, "import { f } from \"./solution.mjs\";\n", "")
                .name())
        .isEqualTo("solution.mjs");
    // A package is not the deliverable.
    assertThat(
            SingleFileName.of(Language.JAVASCRIPT, code, "const test = require('node:test');", "")
                .name())
        .isEqualTo("main.js");
  }

  @Test
  void javaIsNamedAfterItsPublicClass() {
    assertThat(
            SingleFileName.of(
                    Language.JAVA, "public final class Solution {}\n", "class SolutionTest {}", "")
                .name())
        .isEqualTo("Solution.java");
    assertThat(SingleFileName.of(Language.JAVA, "class Helper {}\n", null, "").name())
        .isEqualTo("Main.java");
  }
}
