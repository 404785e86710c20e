package dev.asa.evaluators.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.offline.EmbeddingEvaluator;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The lean distribution leaves the model out (its runtime, tokenizer and weights): the evaluator
 * then says so, and what to do instead, rather than failing on a missing class. Checked in a JVM
 * whose class path lacks exactly the jars the lean profile of asa-cli leaves out.
 */
class LeanBuildTest {

  /** The jars of the lean profile's exclusions that are on this module's class path. */
  private static final Pattern LEFT_OUT =
      Pattern.compile("onnxruntime|/ai/djl/|langchain4j-embeddings");

  @Test
  void theDefaultBuildCarriesTheModel() {
    assertThat(EmbeddingEvaluator.modelInThisBuild()).isTrue();
  }

  @Test
  void withoutTheModelTheEvaluatorSaysSoAndNamesTheWayOut() throws Exception {
    List<String> all =
        Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    String lean =
        all.stream()
            .filter(e -> !LEFT_OUT.matcher(e).find())
            .collect(Collectors.joining(File.pathSeparator));
    assertThat(lean)
        .as("the test sees the real class path")
        .isNotEqualTo(String.join(File.pathSeparator, all));
    Process probe =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                lean,
                Probe.class.getName())
            .redirectErrorStream(true)
            .start();
    assertThat(probe.waitFor(1, TimeUnit.MINUTES)).isTrue();
    String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(out)
        .contains("in this build: false")
        .contains("this is the lean build of asa, without the offline model")
        .contains("asa serve --judge");
  }

  /** Prints whether the model is there, then what embedding a text answers. */
  static final class Probe {
    public static void main(String[] args) {
      System.out.println("in this build: " + EmbeddingEvaluator.modelInThisBuild());
      try {
        Model.embed(List.of("a text"));
        System.out.println("embedded");
      } catch (IllegalStateException e) {
        System.out.println(e.getMessage());
      }
    }
  }
}
