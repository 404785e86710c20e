package dev.asa.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An OpenAPI 3.1 document as a contract a test can hold the server to: the document itself checked
 * against the official OpenAPI 3.1 schema, and a response's body checked against the schema the
 * document declares for its route, status and content type.
 *
 * <p>The official schema ({@code https://spec.openapis.org/oas/3.1/schema-base/2022-10-07}, which
 * also checks every Schema Object in the document as JSON Schema 2020-12 through the OAS dialect)
 * is read from the copy packaged in {@code io.vertx:vertx-openapi} (a test dependency only for
 * these files); the validator is networknt's, as for the agreement schema. Nothing is fetched.
 */
public final class OpenApiContract {
  private static final String OAS_SCHEMA =
      "https://spec.openapis.org/oas/3.1/schema-base/2022-10-07";

  /** Where the document is registered for the validator, so that its {@code $ref}s resolve. */
  private static final String DOCUMENT_IRI = "https://asa.test/openapi.json";

  private static final SchemaRegistryConfig CONFIG =
      SchemaRegistryConfig.builder()
          .locale(Locale.ENGLISH)
          .pathType(PathType.JSON_POINTER)
          .formatAssertionsEnabled(false)
          .build();

  private final JsonNode document;
  private final SchemaRegistry registry;
  private int checks;

  public OpenApiContract(JsonNode document) {
    this.document = document;
    this.registry =
        SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            b ->
                b.schemaLoader(loader -> loader.fetchRemoteResources(false))
                    .schemas(Map.of(DOCUMENT_IRI, Json.write(document)))
                    .schemaRegistryConfig(CONFIG));
  }

  /** What the official OpenAPI 3.1 schema finds wrong with the document; empty when it is valid. */
  static List<String> oasViolations(JsonNode document) {
    SchemaRegistry official =
        SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            b ->
                b.schemaLoader(loader -> loader.fetchRemoteResources(false))
                    .schemaIdResolvers(ids ->
                        ids.mapPrefix("https://spec.openapis.org/", "classpath:spec.openapis.org/"))
                    .schemaRegistryConfig(CONFIG));
    return messages(official.getSchema(SchemaLocation.of(OAS_SCHEMA)).validate(document));
  }

  /** Each {@code METHOD /path/{template}} the document describes. */
  List<String> operations() {
    List<String> out = new ArrayList<>();
    document
        .path("paths")
        .properties()
        .forEach(path ->
            path.getValue()
                .properties()
                .forEach(op -> {
                  if (HTTP_METHODS.contains(op.getKey())) {
                    out.add(op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey());
                  }
                }));
    return out;
  }

  private static final List<String> HTTP_METHODS =
      List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

  /** The path template of the document that {@code concretePath} (no query) matches. */
  Optional<String> template(String concretePath) {
    Iterator<String> paths = document.path("paths").fieldNames();
    while (paths.hasNext()) {
      String template = paths.next();
      String regex = Pattern.quote(template).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q");
      if (concretePath.matches(regex)) {
        return Optional.of(template);
      }
    }
    return Optional.empty();
  }

  /**
   * What is wrong with a response, judged by the document: an undocumented route, status or content
   * type, or a body that breaks the declared schema. Empty when it conforms.
   */
  public List<String> check(
      String method, String concretePath, int status, String contentType, JsonNode body) {
    String label = method + " " + concretePath + " -> " + status + " " + contentType;
    Optional<String> template = template(concretePath);
    if (template.isEmpty()) {
      return List.of(label + ": no path of the document matches");
    }
    JsonNode operation =
        document.path("paths").path(template.get()).path(method.toLowerCase(Locale.ROOT));
    if (operation.isMissingNode()) {
      return List.of(label + ": " + template.get() + " documents no " + method);
    }
    JsonNode response = resolve(operation.path("responses").path(String.valueOf(status)));
    if (response.isMissingNode()) {
      return List.of(label + ": status " + status + " is not documented for " + template.get());
    }
    String mediaType = contentType.split(";")[0].strip();
    JsonNode media = response.path("content").path(mediaType);
    if (media.isMissingNode()) {
      return List.of(
          label
              + ": "
              + mediaType
              + " is not documented for status "
              + status
              + " (documented: "
              + fieldNames(response.path("content"))
              + ")");
    }
    JsonNode schema = media.path("schema");
    if (schema.isMissingNode() || body == null) {
      return List.of();
    }
    // Compiled under a location of its own: the document's location is the whole document.
    Schema compiled =
        registry.getSchema(
            SchemaLocation.of("https://asa.test/checks/" + (++checks)), absoluteRefs(schema));
    return messages(compiled.validate(body)).stream().map(m -> label + ": " + m).toList();
  }

  /** A response object, following one {@code $ref} into the components. */
  private JsonNode resolve(JsonNode node) {
    JsonNode ref = node.path("$ref");
    return ref.isTextual() ? document.at(ref.asText().substring(1)) : node;
  }

  /**
   * The schema with its {@code #...} references made absolute, so they resolve into the document.
   */
  private static JsonNode absoluteRefs(JsonNode schema) {
    JsonNode copy = schema.deepCopy();
    rewrite(copy);
    return copy;
  }

  private static void rewrite(JsonNode node) {
    if (node instanceof ObjectNode o) {
      JsonNode ref = o.path("$ref");
      if (ref.isTextual() && ref.asText().startsWith("#")) {
        o.put("$ref", DOCUMENT_IRI + ref.asText());
      }
    }
    node.forEach(OpenApiContract::rewrite);
  }

  private static String fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return String.join(", ", names);
  }

  private static List<String> messages(List<Error> errors) {
    return errors.stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
  }
}
