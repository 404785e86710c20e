package dev.asa.evaluators;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import com.networknt.schema.path.PathType;
import dev.asa.json.Json;
import dev.asa.json.JsonTree;
import dev.asa.json.SchemaPatterns;
import dev.asa.scoring.CheckResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Validation of a JSON deliverable against the agreement's {@code deliverable_schema} (JSON Schema,
 * 2020-12 unless the schema declares another dialect with {@code $schema}).
 *
 * <p>Each validation gets its own schema registry: the schema comes from the agreement's parties,
 * and a registry caches schemas by {@code $id}, so a shared one would let one agreement's schema
 * stand in for another's. The library's default loader fetches nothing from the network or the file
 * system, so a remote {@code $ref} fails validation instead of being followed. Its patterns run in
 * linear time ({@link SchemaPatterns}): this check answers in the request's thread.
 */
final class DeliverableSchema {
  private DeliverableSchema() {}

  /** How many errors the evidence lists; the rest are counted. */
  static final int ERRORS_SHOWN = 5;

  static CheckResult check(String content, JsonNode schemaJson) {
    JsonNode instance;
    try {
      instance = Json.parse(content);
    } catch (JsonProcessingException e) {
      return CheckResult.failed(
          "the deliverable is not JSON, so it cannot satisfy the deliverable schema: "
              + Formats.jsonProblem(e));
    }
    List<Error> errors;
    try {
      Schema schema = newRegistry().getSchema(schemaJson);
      errors = schema.validate(instance);
    } catch (RuntimeException e) {
      return CheckResult.failed(
          "the agreement's deliverable schema cannot be applied: " + e.getMessage());
    }
    if (errors.isEmpty()) {
      return CheckResult.passed("the deliverable satisfies the deliverable schema");
    }
    List<String> shown = new ArrayList<>();
    for (Error error : errors.subList(0, Math.min(ERRORS_SHOWN, errors.size()))) {
      shown.add(pointer(error) + ": " + error.getMessage());
    }
    int more = errors.size() - shown.size();
    return CheckResult.failed(
        Text.plural(errors.size(), "schema violation", "schema violations")
            + ": "
            + String.join("; ", shown)
            + (more > 0 ? "; and " + more + " more" : ""));
  }

  private static SchemaRegistry newRegistry() {
    return SchemaRegistry.withDefaultDialect(
        SpecificationVersion.DRAFT_2020_12,
        builder ->
            builder.schemaRegistryConfig(
                SchemaRegistryConfig.builder()
                    .locale(Locale.ENGLISH)
                    .pathType(PathType.JSON_POINTER)
                    .regularExpressionFactory(SchemaPatterns.LINEAR)
                    .build()));
  }

  /**
   * The RFC 6901 pointer of the offending member; for a missing required member, where it belongs.
   */
  private static String pointer(Error error) {
    StringBuilder sb = new StringBuilder();
    NodePath path = error.getInstanceLocation();
    for (int i = 0; path != null && i < path.getNameCount(); i++) {
      sb.append('/').append(JsonTree.pointerToken(String.valueOf(path.getElement(i))));
    }
    if ("required".equals(error.getKeyword()) && error.getProperty() != null) {
      sb.append('/').append(JsonTree.pointerToken(error.getProperty()));
    }
    return sb.isEmpty() ? "(document root)" : sb.toString();
  }
}
