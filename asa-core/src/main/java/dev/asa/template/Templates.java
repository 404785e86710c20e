package dev.asa.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The six bundled templates of section 4.4, loaded once from the classpath. */
public final class Templates {

  public static final List<String> TYPES =
      List.of("research", "code_generation", "data_analysis", "translation", "review", "general");

  private static final Map<String, Template> BUNDLED = load();

  private Templates() {}

  public static List<Template> all() {
    return List.copyOf(BUNDLED.values());
  }

  public static Optional<Template> get(String type) {
    return Optional.ofNullable(BUNDLED.get(type));
  }

  private static Map<String, Template> load() {
    Map<String, Template> map = new LinkedHashMap<>();
    for (String type : TYPES) {
      String path = "/dev/asa/templates/" + type + ".json";
      try (InputStream in = Templates.class.getResourceAsStream(path)) {
        if (in == null) {
          throw new IllegalStateException("bundled template missing: " + path);
        }
        JsonNode node = Json.parseTrusted(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        map.put(
            type,
            new Template(
                node.path("type").asText(),
                node.path("version").asText(),
                node.path("title").asText(),
                node.path("description").asText(),
                (ObjectNode) node.path("defaults")));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return map;
  }
}
