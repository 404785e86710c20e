package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code asa server ...}: what a server says about itself, on its unsigned routes (health,
 * readiness, version, its key, its API description, the agreement schema). {@code /docs} is a page
 * for a browser and {@code /metrics} is for Prometheus, so neither has a command.
 */
@Command(
    name = "server",
    header = "Asks a server about itself: health, readiness, version, key, API, schema.",
    customSynopsis = "asa server health|ready|version|key|openapi|schema ...",
    subcommands = {
      ServerCommands.Health.class,
      ServerCommands.Ready.class,
      ServerCommands.ServerVersion.class,
      ServerCommands.Key.class,
      ServerCommands.OpenApi.class,
      ServerCommands.Schema.class
    })
final class ServerCommands extends Group {

  /** {@code asa server health}: {@code GET /health}. */
  @Command(
      name = "health",
      header = "Says whether the server process answers (GET /health).",
      customSynopsis = "asa server health")
  static final class Health implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.print(session.client().health(), h -> h.path("status").asText() + "\n");
      return Exit.OK;
    }
  }

  /** {@code asa server ready}: {@code GET /ready}; exit 3 with the failing check when not ready. */
  @Command(
      name = "ready",
      header =
          "Says whether the server is ready: its database answers, its migrations are applied.",
      customSynopsis = "asa server ready",
      description =
          "Exit 0 when ready; a server that is not ready answers 503, printed with the failing"
              + " check, exit 4.")
  static final class Ready implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.print(session.client().ready(), Ready::summary);
      return Exit.OK;
    }

    static String summary(JsonNode r) {
      StringBuilder s = new StringBuilder(r.path("status").asText()).append('\n');
      for (Map.Entry<String, JsonNode> check : r.path("checks").properties()) {
        s.append("  ").append(check.getKey()).append(": ").append(check.getValue().asText());
        s.append('\n');
      }
      return s.toString();
    }
  }

  /** {@code asa server version}: {@code GET /version}. */
  @Command(
      name = "version",
      header = "Shows which build the server runs (GET /version).",
      customSynopsis = "asa server version")
  static final class ServerVersion implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.print(
          session.client().version(),
          v ->
              "asa server "
                  + v.path("version").asText()
                  + (v.hasNonNull("build_time") ? ", built " + v.path("build_time").asText() : "")
                  + ", Java "
                  + v.path("java").asText()
                  + "; ASA versions "
                  + String.join(
                      ", ",
                      v.path("protocol_versions").valueStream().map(JsonNode::asText).toList())
                  + "\n");
      return Exit.OK;
    }
  }

  /** {@code asa server key}: {@code GET /.well-known/asa/server-key}. */
  @Command(
      name = "key",
      header = "Shows the server's own public key, which signs its evaluator's results.",
      customSynopsis = "asa server key",
      description = "Printed as the server publishes it at /.well-known/asa/server-key.")
  static final class Key implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().serverKey());
      return Exit.OK;
    }
  }

  /** {@code asa server openapi}: {@code GET /openapi.json}. */
  @Command(
      name = "openapi",
      header = "Prints the server's OpenAPI 3.1 description (GET /openapi.json).",
      customSynopsis = "asa server openapi",
      description = "For client generators; a browser reads the same at /docs.")
  static final class OpenApi implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().openApi());
      return Exit.OK;
    }
  }

  /** {@code asa server schema [VERSION]}: {@code GET /schemas/asa/VERSION/agreement.json}. */
  @Command(
      name = "schema",
      header = "Prints the JSON Schema of agreement documents of one ASA version.",
      customSynopsis = "asa server schema [VERSION]")
  static final class Schema implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Parameters(
        paramLabel = "VERSION",
        arity = "0..1",
        defaultValue = "1.0.0",
        description = "an asa_version, e.g. 1.0.0 (the default)")
    String version;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().schema(version));
      return Exit.OK;
    }
  }
}
