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

  private final Io io;
  private final String server;
  private final String key;
  private final boolean json;
  private AsaClient client;

  /**
   * @param server {@code --server}, or null for {@code $ASA_SERVER} or the default
   * @param key {@code --key}, or null for {@code $ASA_KEY} or none
   */
  Session(Io io, String server, String key, boolean json) {
    this.io = io;
    this.server = server;
    this.key = key;
    this.json = json;
  }

  /** A session for tests and offline commands: no server options. */
  static Session of(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {
    return new Session(new Io(in, out, err, env), null, null, false);
  }

  /** Standard input, for a file given as {@code -}. */
  InputStream in() {
    return io.in();
  }

  PrintStream out() {
    return io.out();
  }

  PrintStream err() {
    return io.err();
  }

  String env(String name) {
    return io.env(name);
  }

  /** Whether the user asked for JSON rather than a summary. */
  boolean json() {
    return json;
  }

  void printJson(JsonNode node) {
    io.out().println(Json.writePretty(node));
  }

  /** The server's answer: as JSON with {@code --json}, else as the command's readable summary. */
  void print(JsonNode answer, java.util.function.Function<JsonNode, String> summary) {
    if (json()) {
      printJson(answer);
    } else {
      io.out().print(summary.apply(answer));
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
    return key != null ? key : env("ASA_KEY");
  }

  /** The client for the server, signing nothing yet. */
  AsaClient unsignedClient() throws UsageException {
    if (client == null) {
      String server = this.server;
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
