package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MigrationsTest {

  /** A script added to a folder but not to {@link Migrations#SCRIPTS} would silently never run. */
  @ParameterizedTest
  @EnumSource(Dialect.class)
  void theListedScriptsAreExactlyTheScriptsInEachFolder(Dialect dialect)
      throws IOException, URISyntaxException {
    URL folder = getClass().getClassLoader()
        .getResource("dev/asa/server/store/migrations/" + dialect.migrationFolder());
    assertThat(folder).isNotNull();
    assertThat(folder.getProtocol()).isEqualTo("file"); // tests run from target/classes
    try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
          .isEqualTo(Migrations.SCRIPTS);
    }
  }

  @Test
  void splitsScriptsIntoStatements() {
    String script = """
        -- a comment; with a semicolon
        CREATE TABLE a (
          x INTEGER -- trailing comment
        );

        CREATE INDEX a_x ON a (x);
        INSERT INTO a VALUES (1)
        """;
    assertThat(Migrations.statements(script)).containsExactly(
        "CREATE TABLE a (\n  x INTEGER -- trailing comment\n)",
        "CREATE INDEX a_x ON a (x)",
        "INSERT INTO a VALUES (1)");
  }

  @Test
  void knowsItsNewestVersion() {
    assertThat(Migrations.newestKnownVersion()).isEqualTo(Migrations.SCRIPTS.size());
  }
}
