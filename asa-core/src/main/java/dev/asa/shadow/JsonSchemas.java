package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import com.networknt.schema.path.PathType;
import dev.asa.json.SchemaPatterns;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code json_schema} check's use of the validator library.
 *
 * <p>Each schema gets its own registry: a registry caches schemas by {@code $id}, and criteria of
 * different seals (from different sealers) must never stand in for one another. The default loader
 * fetches nothing from the network or the file system, so a remote {@code $ref} fails.
 */
final class JsonSchemas {
  private JsonSchemas() {}

  /** How many violations the evidence lists; the rest are counted. */
  static final int ERRORS_SHOWN = 3;

  /**
   * Compiles the schema, throwing {@link IllegalArgumentException} with the reason when it cannot
   * be used.
   */
  static Schema compile(JsonNode schemaJson) {
    try {
      Schema schema = registry().getSchema(schemaJson);
      schema.initializeValidators();
      return schema;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the JSON Schema cannot be used: " + e.getMessage());
    }
  }

  /** The violations of {@code instance}, each as "pointer: message"; empty when it conforms. */
  static List<String> violations(JsonNode schemaJson, JsonNode instance) {
    List<String> out = new ArrayList<>();
    for (Error error : compile(schemaJson).validate(instance)) {
      out.add(pointer(error) + ": " + error.getMessage());
    }
    return out;
  }

  private static SchemaRegistry registry() {
    return SchemaRegistry.withDefaultDialect(
        SpecificationVersion.DRAFT_2020_12,
        builder ->
            builder
                .schemaLoader(loader -> loader.fetchRemoteResources(false))
                .schemaRegistryConfig(
                    SchemaRegistryConfig.builder()
                        .locale(Locale.ENGLISH)
                        .pathType(PathType.JSON_POINTER)
                        .formatAssertionsEnabled(false)
                        .regularExpressionFactory(SchemaPatterns.LINEAR)
                        .build()));
  }

  private static String pointer(Error error) {
    StringBuilder sb = new StringBuilder();
    NodePath path = error.getInstanceLocation();
    for (int i = 0; path != null && i < path.getNameCount(); i++) {
      sb.append('/')
          .append(String.valueOf(path.getElement(i)).replace("~", "~0").replace("/", "~1"));
    }
    if ("required".equals(error.getKeyword()) && error.getProperty() != null) {
      sb.append('/').append(error.getProperty().replace("~", "~0").replace("/", "~1"));
    }
    return sb.isEmpty() ? "(document root)" : sb.toString();
  }
}
