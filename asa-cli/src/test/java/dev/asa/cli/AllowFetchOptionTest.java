package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.net.FetchPolicy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code asa serve --allow-fetch URL-PREFIX}: the internal prefixes the server may call. */
class AllowFetchOptionTest {

  private static FetchPolicy policy(String... tokens) throws UsageException {
    return ServeCommand.fetchPolicy(Parsed.parse(new ServeCommand(), tokens).allowFetch);
  }

  private static String err(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    new Main(Map.of())
        .run(
            args,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void eachPrefixIsAllowedAndNothingElse() throws Exception {
    FetchPolicy policy =
        policy(
            "--allow-fetch", "http://127.0.0.1:9000/", "--allow-fetch", "https://pay.internal/v1/");
    assertThat(policy.allowedPrefixes())
        .containsExactly("http://127.0.0.1:9000/", "https://pay.internal/v1/");
    assertThat(policy.allows(URI.create("http://127.0.0.1:9000/deliverables/a.md"))).isTrue();
    assertThat(policy.allows(URI.create("https://pay.internal/v1/settle"))).isTrue();
    assertThat(policy.allows(URI.create("http://127.0.0.1:9001/"))).isFalse();
    assertThat(policy.allows(URI.create("https://pay.internal/admin"))).isFalse();
  }

  @Test
  void byDefaultNothingInternalIsAllowed() throws Exception {
    assertThat(policy().allowedPrefixes()).isEmpty();
  }

  @Test
  void aBadPrefixExitsNamingTheOption() {
    assertThat(err("serve", "--allow-fetch", "http://127.0.0.1:9000"))
        .startsWith(
            "asa serve: --allow-fetch must end the host with a path, such as http://127.0.0.1:9000/, not 'http://127.0.0.1:9000'");
    assertThat(err("serve", "--allow-fetch", "ftp://127.0.0.1/"))
        .startsWith("asa serve: --allow-fetch must be an http(s) URL");
  }

  @Test
  void theHelpNamesTheOption() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new Main(Map.of())
        .run(
            new String[] {"serve", "--help"},
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--allow-fetch URL-PREFIX");
  }
}
