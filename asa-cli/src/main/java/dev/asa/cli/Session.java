package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.util.Map;

/**
 * What a running command works with: where to print, the environment, and the server it talks to.
 */
final class Session {

  static final String DEFAULT_SERVER = "http://127.0.0.1:8080";

  private final InputStream in;
  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, String> env;
  private final Arguments args;
  private AsaClient client;

  Session(
      InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Arguments args) {
    this.in = in;
    this.out = out;
    this.err = err;
    this.env = env;
    this.args = args;
  }

  /** Standard input, for a file given as {@code -}. */
  InputStream in() {
    return in;
  }

  PrintStream out() {
    return out;
  }

  PrintStream err() {
    return err;
  }

  String env(String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? null : v;
  }

  /** Whether the user asked for JSON rather than a summary. */
  boolean json() {
    return args.flag("--json");
  }

  void printJson(JsonNode node) {
    out.println(Json.writePretty(node));
  }

  /** The server's answer: as JSON with {@code --json}, else as the command's readable summary. */
  void print(JsonNode answer, java.util.function.Function<JsonNode, String> summary) {
    if (json()) {
      printJson(answer);
    } else {
      out.print(summary.apply(answer));
    }
  }

  /**
   * The client for {@code --server} (else {@code $ASA_SERVER}, else the local default), signing
   * with {@code --key} (else {@code $ASA_KEY}) when one is given.
   */
  AsaClient client() throws UsageException, CliException {
    AsaClient c = unsignedClient();
    String keyFile = keyFileName();
    return keyFile == null ? c : c.withKey(Inputs.keyFile(keyFile));
  }

  /** The request-signing key file named by {@code --key} or {@code $ASA_KEY}, or null. */
  String keyFileName() {
    String file = args.has("--key") ? args.value("--key") : null;
    return file != null ? file : env("ASA_KEY");
  }

  private AsaClient unsignedClient() throws UsageException {
    if (client == null) {
      String server = args.value("--server");
      String source = "--server";
      if (server == null) {
        server = env("ASA_SERVER");
        source = "ASA_SERVER";
      }
      if (server == null) {
        server = DEFAULT_SERVER;
      }
      try {
        client = AsaClient.connect(URI.create(server));
      } catch (IllegalArgumentException e) {
        throw new UsageException(
            source
                + " must be an http(s) URL such as "
                + DEFAULT_SERVER
                + ", not '"
                + server
                + "'");
      }
    }
    return client;
  }
}
