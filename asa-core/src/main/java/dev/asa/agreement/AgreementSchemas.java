package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import com.networknt.schema.path.PathType;
import dev.asa.json.Json;
import dev.asa.json.JsonTree;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bundled JSON Schemas (2020-12) of the agreement document, one per supported major version of
 * {@code asa_version}, and structural validation against them.
 *
 * <p>A document is validated against the schema of the major version it declares (whitepaper,
 * versioning rules): every {@code 1.x.y} document against the {@code 1.0.0} schema, which accepts
 * unknown members everywhere. Cross-field rules (weights summing to 1, boolean SLOs only with
 * {@code eq}/{@code neq}, ...) are not schema matters and are checked elsewhere.
 *
 * <p>Schemas are loaded lazily, once, and are safe to use from any thread. Validation never touches
 * the network: the schemas only refer to themselves, and the library resolves the 2020-12
 * meta-schema (needed only by {@link #metaSchema()}) from the copy bundled in its jar; remote
 * fetching is off in its default loader and is not enabled here.
 */
public final class AgreementSchemas {

  /** Classpath folder of the bundled schemas; {@code <version>/agreement.json} below it. */
  private static final String RESOURCE_ROOT = "dev/asa/schemas/asa/";

  /** The schema version that serves each supported major version. */
  private static final Map<Integer, String> SCHEMA_FOR_MAJOR = Map.of(1, "1.0.0");

  /** Identifier of the JSON Schema 2020-12 meta-schema. */
  static final String META_SCHEMA_ID = SpecificationVersion.DRAFT_2020_12.getDialectId();

  private static final Map<String, Loaded> LOADED = new ConcurrentHashMap<>();

  private AgreementSchemas() {}

  /** A bundled schema: its raw JSON and the compiled validator. */
  private record Loaded(JsonNode raw, Schema schema) {}

  /** Registry holder: created on first use (initialisation of a nested class is thread-safe). */
  private static final class Registry {
    static final SchemaRegistry INSTANCE =
        SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            builder ->
                builder
                    // Never fetch over the network (the default, made explicit): the 2020-12
                    // meta-schema and its vocabularies resolve to the copies inside the jar.
                    .schemaLoader(loader -> loader.fetchRemoteResources(false))
                    .schemaRegistryConfig(
                        SchemaRegistryConfig.builder()
                            .locale(Locale.ENGLISH)
                            .pathType(PathType.JSON_POINTER)
                            .formatAssertionsEnabled(false)
                            .build()));
  }

  /**
   * The schema versions bundled, one per supported major version of {@code asa_version}, oldest
   * first (what a server announces as the protocol versions it speaks).
   */
  public static List<String> versions() {
    return SCHEMA_FOR_MAJOR.values().stream().sorted().toList();
  }

  /** Whether a schema is bundled for documents whose {@code asa_version} has this major version. */
  public static boolean knowsMajor(int major) {
    return SCHEMA_FOR_MAJOR.containsKey(major);
  }

  /**
   * Validates a document against the bundled schema of the given major version.
   *
   * @return the violations, in the validator's (deterministic) order, each with an RFC 6901 pointer
   *     to the offending member ("" for the document itself; for a missing required member, the
   *     pointer of where it should be); empty when the document is structurally valid
   * @throws IllegalArgumentException if no schema is bundled for {@code majorVersion}
   */
  public static List<Violation> validate(JsonNode document, int majorVersion) {
    Objects.requireNonNull(document, "document");
    String version = SCHEMA_FOR_MAJOR.get(majorVersion);
    if (version == null) {
      throw new IllegalArgumentException(
          "no agreement schema for asa_version major "
              + majorVersion
              + "; known: "
              + SCHEMA_FOR_MAJOR.keySet());
    }
    Loaded loaded = load(version);
    return toViolations(loaded.schema().validate(document), loaded.raw());
  }

  /**
   * The raw bundled schema of a schema version (e.g. {@code "1.0.0"}), for serving over HTTP. The
   * returned node is a fresh copy that the caller may modify.
   *
   * @throws IllegalArgumentException if no schema of that version is bundled
   */
  public static JsonNode schemaJson(String version) {
    Objects.requireNonNull(version, "version");
    if (!SCHEMA_FOR_MAJOR.containsValue(version)) {
      throw new IllegalArgumentException(
          "no agreement schema of version '" + version + "'; known: " + SCHEMA_FOR_MAJOR.values());
    }
    return load(version).raw().deepCopy();
  }

  /** The JSON Schema 2020-12 meta-schema, resolved from the validator's bundled copy. */
  static Schema metaSchema() {
    return Registry.INSTANCE.getSchema(SchemaLocation.of(META_SCHEMA_ID));
  }

  /** Validates any JSON against the 2020-12 meta-schema (used to check the bundled schemas). */
  static List<Violation> validateAgainstMetaSchema(JsonNode schema) {
    return toViolations(metaSchema().validate(schema), null);
  }

  private static Loaded load(String version) {
    return LOADED.computeIfAbsent(version, AgreementSchemas::read);
  }

  private static Loaded read(String version) {
    String resource = RESOURCE_ROOT + version + "/agreement.json";
    String text;
    try (InputStream in = AgreementSchemas.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("bundled schema missing from the classpath: " + resource);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read bundled schema " + resource, e);
    }
    JsonNode raw = Json.parseTrusted(text);
    String id = raw.path("$id").asText("");
    if (id.isEmpty()) {
      throw new IllegalStateException("bundled schema " + resource + " has no $id");
    }
    Schema schema = Registry.INSTANCE.getSchema(SchemaLocation.of(id), raw);
    schema.initializeValidators(); // compile everything now, not on the first document
    return new Loaded(raw, schema);
  }

  private static List<Violation> toViolations(List<Error> errors, JsonNode rawSchema) {
    Set<Violation> out = new LinkedHashSet<>();
    for (Error error : errors) {
      if (insideCombinatorBranch(error.getEvaluationPath())) {
        continue;
      }
      String pointer = pointer(error.getInstanceLocation());
      String message = message(error);
      if ("required".equals(error.getKeyword()) && error.getProperty() != null) {
        pointer = pointer + "/" + JsonTree.pointerToken(error.getProperty());
      }
      String description = rawSchema == null ? null : describe(error, rawSchema);
      if (description != null) {
        message = message + " (" + description + ")";
      }
      out.add(new Violation(pointer, message));
    }
    return List.copyOf(new ArrayList<>(out));
  }

  /**
   * Whether an error comes from inside one branch of {@code oneOf}, {@code anyOf} or {@code not}.
   * The validator reports such branch errors next to the combinator's own error; they describe why
   * one alternative did not fit ("required property 'composite_score_lt' not found") and would read
   * as contradictory demands, so only the combinator's error is kept.
   */
  private static boolean insideCombinatorBranch(NodePath evaluationPath) {
    if (evaluationPath == null) {
      return false;
    }
    int n = evaluationPath.getNameCount();
    for (int i = 0; i < n - 1; i++) {
      String segment = String.valueOf(evaluationPath.getElement(i));
      boolean isKeyword =
          i == 0 || !NAMING_KEYWORDS.contains(String.valueOf(evaluationPath.getElement(i - 1)));
      if (isKeyword && COMBINATORS.contains(segment)) {
        return true;
      }
    }
    return false;
  }

  /** Keywords whose subschemas are alternatives (their failures are not, by themselves, errors). */
  private static final Set<String> COMBINATORS = Set.of("oneOf", "anyOf", "not");

  /** Keywords whose next path segment is a member or definition name, not a keyword. */
  private static final Set<String> NAMING_KEYWORDS =
      Set.of(
          "properties",
          "patternProperties",
          "$defs",
          "definitions",
          "dependentSchemas",
          "dependentRequired");

  /** The validator's message without any location prefix. */
  private static String message(Error error) {
    String message = error.getMessage();
    if (message == null || message.isBlank()) {
      message = "fails the '" + error.getKeyword() + "' rule";
    }
    return message.strip();
  }

  /**
   * The description of what is expected, taken from the schema: for a missing member, the
   * description of that member; otherwise the description of the (sub)schema whose keyword failed.
   * Null when the schema has none.
   */
  private static String describe(Error error, JsonNode rawSchema) {
    SchemaLocation location = error.getSchemaLocation();
    if (location == null || location.getFragment() == null) {
      return null;
    }
    NodePath fragment = location.getFragment();
    List<String> path = new ArrayList<>();
    for (int i = 0; i < fragment.getNameCount(); i++) {
      path.add(String.valueOf(fragment.getElement(i)));
    }
    // The location names the failing keyword ("…/properties/weight/maximum"): drop it.
    if (path.isEmpty()) {
      return null;
    }
    String keyword = path.remove(path.size() - 1);
    JsonNode schemaObject = rawSchema;
    for (String segment : path) {
      schemaObject =
          schemaObject.isArray()
              ? schemaObject.path(parseIndex(segment))
              : schemaObject.path(segment);
    }
    if ("required".equals(keyword) && error.getProperty() != null) {
      JsonNode member = schemaObject.path("properties").path(error.getProperty());
      return descriptionOf(member, rawSchema);
    }
    return descriptionOf(schemaObject, rawSchema);
  }

  private static String descriptionOf(JsonNode schemaObject, JsonNode rawSchema) {
    JsonNode description = schemaObject.path("description");
    if (!description.isTextual()) {
      // A member given only as {"$ref": "#/$defs/x"}: use the description of the definition.
      JsonNode ref = schemaObject.path("$ref");
      if (ref.isTextual() && ref.asText().startsWith("#/")) {
        description = rawSchema.at(ref.asText().substring(1)).path("description");
      }
    }
    if (!description.isTextual() || description.asText().isBlank()) {
      return null;
    }
    String text = description.asText().strip();
    return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
  }

  private static int parseIndex(String segment) {
    try {
      return Integer.parseInt(segment);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** RFC 6901 pointer of an instance location, built from its elements (never from its text). */
  static String pointer(NodePath path) {
    if (path == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < path.getNameCount(); i++) {
      sb.append('/').append(JsonTree.pointerToken(String.valueOf(path.getElement(i))));
    }
    return sb.toString();
  }
}
