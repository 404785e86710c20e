package dev.asa.evaluators.code.sandbox;

import java.util.Objects;

/**
 * The tests to run against a deliverable: one file, placed beside the deliverable's files.
 *
 * <ul>
 *   <li>Python: {@code unittest.TestCase} classes, and pytest-style {@code test_*} functions and
 *       {@code Test*} classes (plain {@code assert}; pytest itself is not needed).
 *   <li>JavaScript: {@code node:test} tests ({@code test(...)}, {@code describe/it}).
 *   <li>Java: a class (named after the file, in the package it declares) whose public no-argument
 *       methods named {@code test*} are the tests, static or not; an {@code AssertionError} (or a
 *       failed {@code assert}, enabled) is a failure, any other throwable an error.
 * </ul>
 *
 * @param path relative path of the test file, e.g. {@code test_solution.py}
 * @param content the file's text
 */
public record TestFile(String path, String content) {

  public TestFile {
    Objects.requireNonNull(content, "content");
    WorkFiles.checkPath(path);
  }

  /** The test file under the conventional name for {@code language}. */
  public static TestFile of(Language language, String content) {
    return new TestFile(
        switch (language) {
          case PYTHON -> "test_deliverable.py";
          case JAVASCRIPT -> "deliverable.test.js";
          case JAVA -> "DeliverableTest.java";
        },
        content);
  }
}
