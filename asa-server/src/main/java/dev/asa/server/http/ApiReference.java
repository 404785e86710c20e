package dev.asa.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.asa.agreement.AgreementSchemas;
import dev.asa.json.Json;
import dev.asa.server.work.NotFoundException;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The API described and rendered: {@code GET /openapi.json}, the OpenAPI 3.1 document, and {@code
 * GET /docs}, a reference page that renders it with Swagger UI.
 *
 * <p>The document is written by hand in {@code openapi.yaml} beside this class, the one place that
 * describes the routes of {@link Routes}; {@code OpenApiDriftTest} holds it to the real route table
 * and to real responses. Two things are filled in here rather than copied into it: the project
 * version, and the agreement document's JSON Schema (embedded from {@link AgreementSchemas}, so it
 * exists once).
 *
 * <p>Swagger UI's files come from the {@code org.webjars:swagger-ui} jar on the class path and are
 * served by this server under {@code /docs/assets/}: the page works offline and loads nothing from
 * any other host.
 */
public final class ApiReference {
  private static final String DOCUMENT = "openapi.yaml";
  private static final String PAGE = "docs.html";
  private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";
  private static final String WEBJAR_POM = "META-INF/maven/org.webjars/swagger-ui/pom.properties";

  /** The Swagger UI files the page uses, and their content types; nothing else is served. */
  private static final Map<String, String> ASSETS =
      Map.of(
          "swagger-ui.css", "text/css; charset=utf-8",
          "swagger-ui-bundle.js", "text/javascript; charset=utf-8",
          "favicon-32x32.png", "image/png",
          "favicon-16x16.png", "image/png");

  private final byte[] document;
  private final byte[] page;
  private final String swaggerUiVersion;

  public ApiReference(BuildInfo build) {
    ObjectNode doc = readYaml(DOCUMENT);
    ((ObjectNode) doc.path("info")).put("version", build.version());
    List<String> versions = AgreementSchemas.versions();
    ObjectNode agreement =
        (ObjectNode) AgreementSchemas.schemaJson(versions.get(versions.size() - 1));
    // Inside the document the schema speaks the document's dialect (jsonSchemaDialect: OpenAPI's
    // base dialect, JSON Schema 2020-12 with OpenAPI's annotations) rather than naming its own;
    // the official schema for documents of that dialect refuses any other $schema.
    agreement.remove("$schema");
    ((ObjectNode) doc.path("components").path("schemas")).set("AgreementDocument", agreement);
    this.document = Json.writeBytes(doc);
    this.page = read(ApiReference.class, PAGE);
    this.swaggerUiVersion = webjarVersion();
  }

  void serveDocument(Context ctx) {
    ctx.contentType("application/json");
    ctx.result(document);
  }

  void servePage(Context ctx) {
    ctx.contentType("text/html; charset=utf-8");
    ctx.result(page);
  }

  /** One of Swagger UI's files, from its webjar; 404 for any other name. */
  void serveAsset(Context ctx) {
    String file = ctx.pathParam("file");
    String type = ASSETS.get(file);
    if (type == null) {
      throw new NotFoundException(
          "no asset '" + file + "'; the reference page uses " + String.join(", ", ASSETS.keySet()));
    }
    ctx.header("Cache-Control", "public, max-age=86400");
    ctx.contentType(type);
    ctx.result(read(null, WEBJAR + swaggerUiVersion + "/" + file));
  }

  private static ObjectNode readYaml(String name) {
    try {
      return (ObjectNode) new YAMLMapper().readTree(read(ApiReference.class, name));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }

  private static String webjarVersion() {
    Properties p = new Properties();
    try (InputStream in = ApiReference.class.getClassLoader().getResourceAsStream(WEBJAR_POM)) {
      if (in == null) {
        throw new IllegalStateException(
            WEBJAR_POM + " is missing: is swagger-ui on the class path?");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + WEBJAR_POM, e);
    }
    return p.getProperty("version");
  }

  /** A resource beside {@code anchor}, or on the class path's root when it is null. */
  private static byte[] read(Class<?> anchor, String name) {
    try (InputStream in =
        anchor == null
            ? ApiReference.class.getClassLoader().getResourceAsStream(name)
            : anchor.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is missing from the build");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }
}
