package dev.asa.cli.mcp;

import dev.asa.client.AsaClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code asa mcp}: the ASA API as MCP tools, resources and prompts, acting for one key file against
 * one ASA server, over standard input and output or over Streamable HTTP on loopback.
 */
public final class AsaMcpServer {

  /**
   * The transport reads one JSON-RPC message per line, and a line longer than this ends the
   * session. It is far above what any tool takes (4,000,000 characters of content, escaped), so
   * that an oversized argument is refused as a tool error rather than closing the connection.
   */
  static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  static final String INSTRUCTIONS =
      "Agent Service Agreements (ASA): hire another agent under a signed contract with escrow, or"
          + " work and get paid under one. Every tool acts for one key (whoami says which) and is"
          + " an ordinary signed request to the ASA server: it can do nothing that key could not."
          + " The usual order: list_templates, create_agreement (client), get_agreement and"
          + " sign_agreement (both parties), fund_escrow (client, only after both signatures),"
          + " deliver (provider), submit_evaluation (evaluator), then agreement_status until"
          + " CLOSED. A refusal comes back as a tool error that says why.";

  private final Caller caller;
  private final String version;

  /**
   * @param server the ASA server the tools call
   * @param keyFile the key file every call is signed with; read when first needed, never printed
   * @param version this build's version, for the host's server info
   */
  public AsaMcpServer(AsaClient server, Path keyFile, String version) {
    this.caller = new Caller(server, new KeyHolder(keyFile));
    this.version = version;
  }

  /**
   * Serves over {@code in} and {@code out} until the host closes {@code in}, then returns. Nothing
   * else may be written to {@code out}; what a person should know goes to {@code err}.
   */
  public void serveStdio(InputStream in, OutputStream out, PrintStream err)
      throws InterruptedException {
    EndOfInput input = new EndOfInput(in);
    McpSyncServer server =
        configure(
            McpServer.sync(
                new StdioServerTransportProvider(
                    McpJsonDefaults.getMapper(), input, out, MAX_MESSAGE_BYTES)));
    announce(err, "standard input and output");
    input.await();
    server.closeGracefully();
  }

  /** Serves Streamable HTTP on 127.0.0.1 until the process is stopped. */
  public void serveHttp(int port, PrintStream err) throws Exception {
    try (LoopbackHttp http = new LoopbackHttp(port)) {
      McpSyncServer server = configure(McpServer.sync(http.transport()));
      announce(err, http.url());
      http.join();
      server.closeGracefully();
    }
  }

  /** Says where it serves and for whom, or that the key file cannot be used yet. */
  private void announce(PrintStream err, String where) {
    String whom;
    try {
      whom = caller.identity();
    } catch (ToolError e) {
      whom = "a key file that cannot be used yet (every tool call says why until it is fixed)";
    }
    err.println(
        "asa mcp: serving MCP on " + where + " for " + whom + ", against " + caller.server());
  }

  <S extends McpServer.SyncSpecification<S>> McpSyncServer configure(S spec) {
    AsaResources resources = new AsaResources(caller);
    return spec.serverInfo("asa", version)
        .instructions(INSTRUCTIONS)
        .capabilities(
            ServerCapabilities.builder()
                .tools(false)
                .resources(false, false)
                .prompts(false)
                .build())
        .tools(AsaTools.specifications(caller))
        .resources(resources.resources())
        .resourceTemplates(resources.templates())
        .prompts(AsaPrompts.prompts())
        .build();
  }
}
