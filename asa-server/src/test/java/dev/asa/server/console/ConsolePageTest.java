package dev.asa.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /console} over plain HTTP (no browser): the page and its two files come from this
 * server with a strict Content-Security-Policy, no inline script, no other host, and any other
 * asset name is a 404.
 */
class ConsolePageTest {
  @TempDir static Path dataDir;
  static AsaServer server;
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults().withPort(0).withDataDir(dataDir).withTimerPolling(false));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static final List<String> MODULES =
      List.of(
          "console.js",
          "api.js",
          "dom.js",
          "list.js",
          "agreement.js",
          "actions.js",
          "evaluators.js",
          "health.js");

  static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url("127.0.0.1") + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void thePageAndItsFilesAreServedWithAStrictPolicy() throws Exception {
    List<String[]> files = new java.util.ArrayList<>();
    files.add(new String[] {"/console", "text/html"});
    files.add(new String[] {"/console/assets/console.css", "text/css"});
    for (String module : MODULES) {
      files.add(new String[] {"/console/assets/" + module, "text/javascript"});
    }
    for (String[] file : files) {
      HttpResponse<String> r = get(file[0]);
      assertThat(r.statusCode()).as(file[0]).isEqualTo(200);
      assertThat(r.headers().firstValue("content-type").orElseThrow()).startsWith(file[1]);
      String csp = r.headers().firstValue("content-security-policy").orElseThrow();
      assertThat(csp)
          .contains("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'")
          .doesNotContain("unsafe-inline", "unsafe-eval", "http:", "https:", "*");
      assertThat(r.headers().firstValue("x-content-type-options")).contains("nosniff");
      assertThat(r.headers().firstValue("referrer-policy")).contains("no-referrer");
      assertThat(r.body()).as("no other host, no CDN").doesNotContain("http://", "https://");
    }
  }

  @Test
  void thePageHasNoInlineScriptAndLoadsOnlyItsOwnModule() throws Exception {
    String html = get("/console").body();
    assertThat(html)
        .contains("<script type=\"module\" src=\"console/assets/console.js\"></script>")
        .doesNotContain("onclick=", "onload=", "onchange=", "javascript:");
    assertThat(html.split("<script", -1)).as("exactly one script element").hasSize(2);
  }

  @Test
  void theScriptsNeverStoreTheKeyAndWriteDataAsTextOnly() throws Exception {
    assertThat(get("/console/assets/api.js").body())
        .as("the key is imported non-extractable, for signing only")
        .contains("importKey('jwk', clean, { name: 'Ed25519' }, false, ['sign'])");
    for (String module : MODULES) {
      String js = get("/console/assets/" + module).body();
      assertThat(js)
          .as(module)
          .doesNotContain("localStorage", "sessionStorage", "indexedDB", "document.cookie")
          .doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "new Function")
          .doesNotContain("http://", "https://");
    }
  }

  /**
   * Every module the page imports, directly or through another module, is one the server serves.
   */
  @Test
  void everyImportedModuleIsServed() throws Exception {
    var imports = java.util.regex.Pattern.compile("from '\\./([a-z]+\\.js)'");
    for (String module : MODULES) {
      var m = imports.matcher(get("/console/assets/" + module).body());
      while (m.find()) {
        assertThat(MODULES).as(module + " imports " + m.group(1)).contains(m.group(1));
      }
    }
  }

  @Test
  void noOtherFileIsServed() throws Exception {
    for (String name : List.of("secrets.txt", "index.html", "..%2Fhttp%2Fopenapi.yaml")) {
      assertThat(get("/console/assets/" + name).statusCode()).as(name).isEqualTo(404);
    }
  }
}
