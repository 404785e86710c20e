package dev.asa.cli;

import dev.asa.cli.mcp.AsaMcpServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code asa mcp}: serves the ASA API as MCP tools to an agent's host, acting for one key file. The
 * work is in {@link dev.asa.cli.mcp}; this class reads the options.
 */
@Command(
    name = "mcp",
    header = "Serves the ASA API as MCP tools to an AI agent's host, acting with your key.",
    customSynopsis = "asa mcp --server URL --key FILE [--http PORT]",
    description = {
      "An MCP server (Model Context Protocol) over standard input and output, as an agent's host"
          + " starts one: tools to create, negotiate, sign, fund, deliver, evaluate, challenge and"
          + " follow agreements, verify a deliverable, and work an evaluator queue; the templates"
          + " and your agreements as resources. Every tool call is an ordinary request signed with"
          + " the key file, so the tools can do nothing that key could not. The key file is read"
          + " when a tool first needs it (and again after a failure) and is never printed.",
      "",
      "With --http PORT it serves Streamable HTTP at http://127.0.0.1:PORT/mcp instead (loopback"
          + " only; 0 picks a free port). See docs/mcp.md for the host configuration."
    })
final class McpCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--server",
      order = Order.COMMON,
      paramLabel = "URL",
      description =
          "the ASA server the tools call (default: $ASA_SERVER, else "
              + Session.DEFAULT_SERVER
              + ")")
  String server;

  @Option(
      names = "--key",
      order = Order.COMMON,
      paramLabel = "FILE",
      description = "your key file: every call is signed with it (default: $ASA_KEY)")
  String key;

  @Option(
      names = "--http",
      paramLabel = "PORT",
      description = "serve Streamable HTTP on 127.0.0.1:PORT instead of standard input and output")
  String http;

  @Override
  public Integer call() throws Exception {
    Asa root = Asa.of(spec);
    Session session =
        new Session(
            root.io(), server != null ? server : root.server, key != null ? key : root.key, false);
    String keyFile = session.keyFileName();
    if (keyFile == null) {
      throw new UsageException(
          "missing --key FILE: the tools act for the holder of that key (or set ASA_KEY)");
    }
    AsaMcpServer mcp =
        new AsaMcpServer(session.unsignedClient(), Path.of(keyFile), Version.version());
    if (http != null) {
      mcp.serveHttp(Inputs.intValue("--http", http, 0, 0, 65535), session.err());
    } else {
      mcp.serveStdio(session.in(), session.out(), session.err());
    }
    return Exit.OK;
  }
}
