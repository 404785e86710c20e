package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line without a server: dispatch, usage errors, help, and the offline commands. */
class MainTest {

  record Result(int status, String out, String err) {}

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(Map.of())
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anUnknownFlagExitsTwoWithAUsageLineNamingIt() {
    Result r = run("agreements", "get", "asa-1", "--colour");

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("asa agreements get: unknown option --colour\nusage: asa agreements get ID\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void aMissingValueExitsTwoNamingTheOption() {
    Result r = run("agreements", "sign", "asa-1", "--as", "client", "--key");

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("asa agreements sign: --key needs a value: --key FILE\n");
  }

  @Test
  void commandLevelRulesAreUsageErrorsToo() {
    assertThat(run("agreements", "sign", "a", "--as", "evaluator", "--key", "k").err())
        .startsWith("asa agreements sign: --as must be client or provider, not 'evaluator'");
    assertThat(
            run(
                    "agreements",
                    "negotiate",
                    "a",
                    "--as",
                    "client",
                    "--rationale",
                    "accept_as_proposed",
                    "--accept",
                    "--reject")
                .err())
        .startsWith(
            "asa agreements negotiate: give exactly one of --set PATH=VALUE, --accept or --reject");
    assertThat(run("agreements", "verify", "a", "--score", "accuracy=88").err())
        .startsWith("asa agreements verify: --score needs NAME=SCORE:EVIDENCE");
    assertThat(run("agreements", "create", "--template", "general").err())
        .startsWith("asa agreements create: missing --client-key FILE");
    assertThat(run("agreements", "create", "--file", "doc.json", "--template", "general").err())
        .startsWith("asa agreements create: --file and --template cannot be used together");
    assertThat(run("agreements", "create", "--file", "doc.json", "--template", "general").status())
        .isEqualTo(2);
  }

  @Test
  void unknownCommandsAndBareGroupsExitTwo() {
    Result unknown = run("agree");
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.err())
        .startsWith("asa: unknown command 'agree'\ncommands: serve, keys, templates, agreements");

    Result sub = run("agreements", "frobnicate");
    assertThat(sub.status()).isEqualTo(2);
    assertThat(sub.err())
        .startsWith("asa: unknown command 'agreements frobnicate'")
        .contains("agreements verify");

    assertThat(run().status()).isEqualTo(2);
    assertThat(run("keys").status()).isEqualTo(2);
  }

  @Test
  void aMistypedCommandIsNamedWithTheOneItMostLikelyMeant() {
    Result typo = run("agrements");
    assertThat(typo.status()).isEqualTo(2);
    assertThat(typo.err())
        .startsWith("asa: unknown command 'agrements'\ndid you mean 'agreements'?\n");
    assertThat(run("agreements", "sgin").err()).contains("did you mean 'sign'?");
    assertThat(run("agreements", "frobnicate").err()).doesNotContain("did you mean");
  }

  @Test
  void helpIsAvailableEverywhereAndExitsZero() {
    Result overview = run("--help");
    assertThat(overview.status()).isZero();
    assertThat(overview.out()).contains("agreements create").contains("keys new").contains("serve");

    Result group = run("agreements", "--help");
    assertThat(group.status()).isZero();
    assertThat(group.out()).contains("agreements challenge");

    Result command = run("agreements", "verify", "--help");
    assertThat(command.status()).isZero();
    assertThat(command.out())
        .startsWith("usage: asa agreements verify ID")
        .contains("--score NAME=SCORE:EVIDENCE");

    assertThat(run("serve", "-h").out()).contains("--data-dir DIR").doesNotContain("--json");
  }

  @Test
  void anUnreachableServerExitsFourAndSaysHowToStartIt() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }

    Result r = run("--server", "http://127.0.0.1:" + port, "agreements", "status", "asa-1");

    assertThat(r.status()).isEqualTo(4);
    assertThat(r.err())
        .startsWith(
            "asa agreements status: could not reach the ASA server at http://127.0.0.1:" + port)
        .contains("./asa serve")
        .doesNotContain("Exception");
  }

  @Test
  void aBadServerAddressIsAUsageError() {
    Result r = run("agreements", "status", "asa-1", "--server", "localhost:8080");

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("asa agreements status: --server must be an http(s) URL");
  }

  @Test
  void keysNewWritesAKeyThatKeysShowReads(@TempDir Path dir) {
    String file = dir.resolve("alice.jwk").toString();

    Result created = run("keys", "new", "--out", file);
    assertThat(created.status()).isZero();
    assertThat(created.out()).startsWith("wrote " + file).contains("did:key     did:key:z6Mk");

    Result shown = run("keys", "show", file, "--json");
    assertThat(shown.status()).isZero();
    String publicKey =
        created
            .out()
            .lines()
            .filter(l -> l.startsWith("public key"))
            .findFirst()
            .orElseThrow()
            .split("\\s+")[2];
    assertThat(shown.out()).contains("\"public_key\" : \"" + publicKey + "\"");

    Result again = run("keys", "new", "--out", file);
    assertThat(again.status()).isEqualTo(5);
    assertThat(again.err()).contains("refusing to overwrite");
  }

  @Test
  void fileProblemsAreNamedWithoutAStackTrace(@TempDir Path dir) throws Exception {
    Result missing = run("keys", "show", dir.resolve("nope.jwk").toString());
    assertThat(missing.status()).isEqualTo(5);
    assertThat(missing.err())
        .isEqualTo("asa keys show: no such file: " + dir.resolve("nope.jwk") + "\n");

    Path notJson = Files.writeString(dir.resolve("doc.json"), "{\"template\": ");
    Result bad = run("agreements", "create", "--file", notJson.toString());
    assertThat(bad.status()).isEqualTo(5);
    assertThat(bad.err()).startsWith("asa agreements create: " + notJson + " is not valid JSON");
  }
}
