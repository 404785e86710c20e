package dev.asa.server.verification.engine;

import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.code.CodeEvaluator;
import dev.asa.evaluators.offline.EmbeddingEvaluator;

/** Factories of the evaluators the server offers by name. */
final class Evaluators {
  private Evaluators() {}

  static final String EMBEDDING_DESCRIPTION =
      EmbeddingEvaluator.modelInThisBuild()
          ? EmbeddingEvaluator.MODEL + ", in process, offline"
          : "none: this lean build leaves the offline model out (semantic verification needs"
              + " --judge)";

  static final String CODE_DESCRIPTION =
      "static checks of code: JavaParser (Java), tree-sitter (Python, JavaScript, TypeScript);"
          + " tests not run";

  static Evaluator code() {
    return new CodeEvaluator();
  }

  static Evaluator embedding() {
    return new EmbeddingEvaluator();
  }
}
