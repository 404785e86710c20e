package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.DocumentationTool;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's Javadoc is complete and well formed: the JDK's javadoc with every doclint check,
 * warnings as errors, over the public API of {@code dev.asa.client}. Run here rather than by a
 * Maven plugin so that the offline build checks it too.
 */
class JavadocTest {
  @TempDir Path out;

  @Test
  void everyPublicTypeAndMemberIsDocumentedWithoutAWarning() throws IOException {
    DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
    List<String> args = new ArrayList<>();
    args.addAll(List.of("-Xdoclint:all", "-Werror", "-quiet", "-d", out.toString()));
    // Surefire names the test class path here; the compiled asa-core and Jackson are on it.
    args.addAll(
        List.of(
            "-cp",
            System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))));
    try (Stream<Path> sources = Files.list(Path.of("src/main/java/dev/asa/client"))) {
      sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    ByteArrayOutputStream messages = new ByteArrayOutputStream();
    int status = javadoc.run(null, messages, messages, args.toArray(String[]::new));
    assertThat(status)
        .as("javadoc's findings:%n%s", messages.toString(StandardCharsets.UTF_8))
        .isZero();
  }
}
