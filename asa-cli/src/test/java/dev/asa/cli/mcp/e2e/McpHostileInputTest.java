package dev.asa.cli.mcp.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asa mcp} as its own process, fed what a confused or hostile model might send, with a key
 * file that cannot be read and a server that is down: each call answers a tool error that says what
 * is wrong, and the same process goes on answering. Driven by the MCP Java SDK's client.
 */
class McpHostileInputTest {

  @TempDir static Path dir;
  static AsaServer server;
  static Path keyFile;

  @BeforeAll
  static void start() throws Exception {
    server = AsaServer.start(ServerConfig.defaults().withPort(0).withDataDir(dir.resolve("data")));
    keyFile = dir.resolve("agent.key");
    KeyFile.write(keyFile, Ed25519PrivateKey.generate(new SecureRandom()));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /**
   * An {@code asa mcp} process for {@code key} against {@code url}; its stderr into {@code err}.
   */
  private static McpSyncClient mcp(String url, Path key, ConcurrentLinkedQueue<String> err) {
    List<String> command = new ArrayList<>(OfficialMcpClientTest.mcpCommand(url));
    command.addAll(List.of("--key", key.toString()));
    StdioClientTransport transport =
        new StdioClientTransport(
            ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .build(),
            McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(err::add);
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(60))
            .build();
    client.initialize();
    return client;
  }

  private static CallToolResult call(McpSyncClient mcp, String tool, Map<String, Object> args) {
    return mcp.callTool(new CallToolRequest(tool, args));
  }

  private static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  @Test
  void hostileArgumentsAreToolErrorsAndTheServerGoesOn() {
    var err = new ConcurrentLinkedQueue<String>();
    try (McpSyncClient mcp = mcp(server.url("127.0.0.1"), keyFile, err)) {
      CallToolResult huge =
          call(
              mcp,
              "deliver",
              Map.of("agreement_id", "asa-huge-1", "content", "x".repeat(5_000_000)));
      assertThat(huge.isError()).isTrue();
      assertThat(text(huge)).contains("/content: must be at most 4,000,000 characters");

      CallToolResult nul =
          call(
              mcp,
              "create_agreement",
              Map.of(
                  "template", "general",
                  "description", "summarise\u0000this",
                  "provider", "did:key:z6MktkBzPpGTLhcPsAukspCNkuj1RUy1PdLo9NGNhjV521P2"));
      assertThat(nul.isError()).isTrue();
      assertThat(text(nul)).contains("description").contains("NUL character");

      CallToolResult climbing =
          call(mcp, "get_agreement", Map.of("agreement_id", "../../admin/config"));
      assertThat(climbing.isError()).isTrue();
      assertThat(text(climbing)).contains("agreement_id");

      CallToolResult nested =
          call(mcp, "negotiate", Map.of("agreement_id", "asa-1", "changes", Map.of("a\u0000", 1)));
      assertThat(nested.isError()).isTrue();
      assertThat(text(nested)).contains("NUL character");

      CallToolResult still = call(mcp, "whoami", Map.of());
      assertThat(still.isError()).isFalse();
      assertThat(text(still)).contains("did:key:");
    }
  }

  @Test
  void aKeyFileThatCannotBeReadIsAToolErrorUntilItIsFixedAndItIsNeverPrinted() throws Exception {
    Path missing = dir.resolve("later.key");
    var err = new ConcurrentLinkedQueue<String>();
    try (McpSyncClient mcp = mcp(server.url("127.0.0.1"), missing, err)) {
      CallToolResult unreadable = call(mcp, "list_templates", Map.of());
      assertThat(unreadable.isError()).isTrue();
      assertThat(text(unreadable))
          .contains("The key file " + missing + " cannot be used: there is no such file")
          .contains("nothing was sent");

      Files.writeString(missing, "{\"kty\": \"OKP\", \"crv\": \"Ed25519\", \"d\": \"c2VjcmV0\"}");
      CallToolResult broken = call(mcp, "whoami", Map.of());
      assertThat(broken.isError()).isTrue();
      assertThat(text(broken)).contains("does not hold an Ed25519 key").doesNotContain("c2VjcmV0");

      Files.delete(missing);
      KeyFile.write(missing, Ed25519PrivateKey.generate(new SecureRandom()));
      CallToolResult fixed = call(mcp, "list_templates", Map.of());
      assertThat(fixed.isError()).isFalse();
      String secret = Json.parse(Files.readString(missing)).path("d").asText();
      assertThat(text(fixed)).doesNotContain(secret);
      assertThat(String.join("\n", err)).doesNotContain(secret).doesNotContain("c2VjcmV0");
    }
  }

  @Test
  void aServerThatIsDownIsSaidSoAndTheMcpServerGoesOn() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    var err = new ConcurrentLinkedQueue<String>();
    try (McpSyncClient mcp = mcp("http://127.0.0.1:" + closed, keyFile, err)) {
      CallToolResult down = call(mcp, "agreement_status", Map.of("agreement_id", "asa-1234"));
      assertThat(down.isError()).isTrue();
      assertThat(text(down))
          .contains("The ASA server at http://127.0.0.1:" + closed + " could not be reached");
      assertThat(down.meta()).containsKey("dev.asa/problem");

      CallToolResult stillHere = call(mcp, "whoami", Map.of());
      assertThat(stillHere.isError()).isFalse();
    }
  }
}
