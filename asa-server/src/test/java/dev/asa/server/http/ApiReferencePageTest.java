package dev.asa.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /docs}, the API reference page: it and everything it loads come from this server (the
 * Swagger UI webjar), so it works offline and names no other host.
 */
class ApiReferencePageTest {
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

  static HttpResponse<byte[]> get(URI uri) throws Exception {
    return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void thePageAndEveryAssetItLoadsAreServedHereWithTheirContentTypes() throws Exception {
    URI page = URI.create(server.url("127.0.0.1") + "/docs");
    HttpResponse<byte[]> html = get(page);
    assertThat(html.statusCode()).isEqualTo(200);
    assertThat(html.headers().firstValue("content-type").orElseThrow()).startsWith("text/html");
    String text = new String(html.body(), java.nio.charset.StandardCharsets.UTF_8);

    List<String> references = new ArrayList<>();
    Matcher m = Pattern.compile("(?:src|href|url)\\s*[=:]\\s*\"([^\"]+)\"").matcher(text);
    while (m.find()) {
      references.add(m.group(1));
    }
    assertThat(references)
        .contains("docs/assets/swagger-ui.css", "docs/assets/swagger-ui-bundle.js", "openapi.json");
    assertThat(text).as("no other host, no CDN").doesNotContain("http://", "https://", "//cdn");

    Map<String, String> types =
        Map.of(
            ".css", "text/css",
            ".js", "text/javascript",
            ".png", "image/png",
            ".json", "application/json");
    for (String reference : references) {
      URI asset = page.resolve(reference);
      assertThat(asset.getAuthority()).as(reference).isEqualTo(page.getAuthority());
      HttpResponse<byte[]> r = get(asset);
      assertThat(r.statusCode()).as(reference).isEqualTo(200);
      assertThat(r.body()).as(reference).isNotEmpty();
      String expected =
          types.entrySet().stream()
              .filter(e -> reference.endsWith(e.getKey()))
              .map(Map.Entry::getValue)
              .findFirst()
              .orElseThrow();
      assertThat(r.headers().firstValue("content-type").orElseThrow())
          .as(reference)
          .startsWith(expected);
    }
  }

  @Test
  void onlyThePagesOwnAssetsAreServed() throws Exception {
    for (String name :
        List.of("index.html", "swagger-initializer.js", "..%2F..%2Fpom.properties")) {
      HttpResponse<byte[]> r = get(URI.create(server.url("127.0.0.1") + "/docs/assets/" + name));
      assertThat(r.statusCode()).as(name).isEqualTo(404);
      assertThat(r.headers().firstValue("content-type").orElseThrow())
          .as(name)
          .isEqualTo("application/problem+json");
    }
  }
}
