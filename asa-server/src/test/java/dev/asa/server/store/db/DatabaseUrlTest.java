package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DatabaseUrlTest {

  @Test
  void noUrlMeansTheSqliteFileInTheDataDirectory() {
    assertThat(DatabaseUrl.parse(null, Path.of("/srv/asa-data")))
        .isEqualTo(new DatabaseUrl.Sqlite(Path.of("/srv/asa-data/asa.db")));
    assertThat(DatabaseUrl.parse("  ", Path.of("/srv/asa-data")))
        .isEqualTo(new DatabaseUrl.Sqlite(Path.of("/srv/asa-data/asa.db")));
    assertThat(DatabaseUrl.parse(null, null))
        .isEqualTo(new DatabaseUrl.Sqlite(Path.of("asa-data/asa.db").toAbsolutePath()));
  }

  @Test
  void sqliteForms() {
    DatabaseUrl expected = new DatabaseUrl.Sqlite(Path.of("/var/lib/asa/x.db"));
    assertThat(DatabaseUrl.parse("sqlite:/var/lib/asa/x.db", null)).isEqualTo(expected);
    assertThat(DatabaseUrl.parse("sqlite:///var/lib/asa/x.db", null)).isEqualTo(expected);
    assertThat(DatabaseUrl.parse("jdbc:sqlite:/var/lib/asa/x.db", null)).isEqualTo(expected);
    assertThat(DatabaseUrl.parse("jdbc:sqlite:file:/var/lib/asa/x.db?cache=private", null))
        .isEqualTo(expected);
    assertThatThrownBy(() -> DatabaseUrl.parse("jdbc:sqlite::memory:", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("in-memory");
  }

  @Test
  void libpqStylePostgresUrlBecomesJdbcWithCredentialsApart() {
    DatabaseUrl.Postgres pg =
        (DatabaseUrl.Postgres)
            DatabaseUrl.parse(
                "postgresql://asa:s%40cr%3At+x@db.example.com:6543/asa_prod?sslmode=require", null);
    assertThat(pg.jdbcUrl())
        .isEqualTo("jdbc:postgresql://db.example.com:6543/asa_prod?sslmode=require");
    assertThat(pg.user()).isEqualTo("asa");
    assertThat(pg.password()).isEqualTo("s@cr:t+x");
    assertThat(pg.display()).isEqualTo("db.example.com:6543/asa_prod");
    assertThat(pg.toString()).doesNotContain("s@cr");
  }

  @Test
  void otherPostgresForms() {
    DatabaseUrl.Postgres short_ =
        (DatabaseUrl.Postgres) DatabaseUrl.parse("postgres://me@localhost/db", null);
    assertThat(short_.jdbcUrl()).isEqualTo("jdbc:postgresql://localhost/db");
    assertThat(short_.user()).isEqualTo("me");
    assertThat(short_.password()).isNull();
    assertThat(short_.display()).isEqualTo("localhost:5432/db");

    DatabaseUrl.Postgres jdbc =
        (DatabaseUrl.Postgres)
            DatabaseUrl.parse("jdbc:postgresql://10.0.0.1:5432/test?user=u&password=p", null);
    assertThat(jdbc.jdbcUrl()).isEqualTo("jdbc:postgresql://10.0.0.1:5432/test?user=u&password=p");
    assertThat(jdbc.user()).isNull();
    assertThat(jdbc.display()).isEqualTo("10.0.0.1:5432/test");

    DatabaseUrl.Postgres v6 =
        (DatabaseUrl.Postgres) DatabaseUrl.parse("postgresql://u:p@[::1]/db", null);
    assertThat(v6.display()).isEqualTo("[::1]:5432/db");
  }

  @Test
  void unknownFormsAreRefusedNamingTheAcceptedOnes() {
    assertThatThrownBy(() -> DatabaseUrl.parse("mysql://root:hunter2@localhost/asa", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("postgresql://user:password@host:port/database")
        .hasMessageContaining("sqlite:/path/to/file.db")
        .hasMessageNotContaining("hunter2");
  }
}
