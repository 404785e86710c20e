package dev.asa.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of {@code asa mcp} that need no server: the catalogue, arguments, results. */
class McpToolsTest {

  private static final Caller NOWHERE =
      new Caller(AsaClient.connect(URI.create("http://127.0.0.1:1")), new KeyHolder(Path.of("x")));

  @Test
  void everyDeclaredToolHasAHandlerAndEveryHandlerADeclaration() {
    var declared =
        ToolCatalog.load().stream().map(McpSchema.Tool::name).collect(Collectors.toSet());
    assertThat(new TreeSet<>(declared))
        .isEqualTo(new TreeSet<>(AsaTools.handlers(NOWHERE).keySet()));
    assertThat(AsaTools.specifications(NOWHERE)).hasSize(17);
  }

  @Test
  void everyDeclaredSchemaIsAValidJsonSchemaWithADescriptionForEachArgument() {
    var validator = McpJsonDefaults.getSchemaValidator();
    for (McpSchema.Tool tool : ToolCatalog.load()) {
      assertThat(tool.description()).as(tool.name()).isNotBlank();
      assertThat(tool.inputSchema()).containsEntry("type", "object");
      assertThat(tool.outputSchema()).containsEntry("type", "object");
      // An empty object is what a call without arguments sends; it must pass or fail, not throw.
      validator.validate(tool.inputSchema(), Map.of());
      @SuppressWarnings("unchecked")
      var properties = (Map<String, Map<String, Object>>) tool.inputSchema().get("properties");
      properties.forEach((name, schema) ->
          assertThat(schema.containsKey("description") || schema.containsKey("$ref"))
              .as("%s.%s says what to pass", tool.name(), name)
              .isTrue());
    }
  }

  @Test
  void aNulCharacterAnywhereIsRefusedByTheArgumentsName() {
    assertThatThrownBy(() -> Arguments.of(Map.of("content", "a\u0000b")))
        .isInstanceOf(ToolError.class)
        .hasMessageContaining("The argument content holds a NUL character (U+0000) at position 1");
    assertThatThrownBy(() ->
            Arguments.of(
                Map.of("scores", List.of(Map.of("evidence", "ok"), Map.of("evidence", "\u0000")))))
        .hasMessageContaining("scores[1].evidence");
  }

  @Test
  void anIdThatClimbsIsRefusedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> Arguments.of(Map.of("agreement_id", "../admin")).id("agreement_id"))
        .isInstanceOf(ToolError.class)
        .hasMessageContaining("no slash");
    assertThat(Arguments.of(Map.of("agreement_id", "asa-2026-01-01-ab")).id("agreement_id"))
        .isEqualTo("asa-2026-01-01-ab");
  }

  @Test
  void anUnreachableServerIsAToolErrorThatSaysSo(@TempDir Path dir) throws Exception {
    Path key = dir.resolve("k.key");
    KeyFile.write(key, Ed25519PrivateKey.generate(new SecureRandom()));
    Caller caller =
        new Caller(AsaClient.connect(URI.create("http://127.0.0.1:1")), new KeyHolder(key));
    CallToolResult result =
        AsaTools.call(
            "agreement_status",
            AsaTools.handlers(caller).get("agreement_status"),
            caller,
            null,
            new McpSchema.CallToolRequest("agreement_status", Map.of("agreement_id", "asa-123")));
    assertThat(result.isError()).isTrue();
    assertThat(((TextContent) result.content().get(0)).text())
        .startsWith("The ASA server at http://127.0.0.1:1 could not be reached");
    assertThat(result.structuredContent()).isNull();
  }

  @Test
  void aKeyFileThatIsADirectoryIsAToolError(@TempDir Path dir) {
    Caller caller =
        new Caller(AsaClient.connect(URI.create("http://127.0.0.1:1")), new KeyHolder(dir));
    CallToolResult result =
        AsaTools.call(
            "whoami",
            AsaTools.handlers(caller).get("whoami"),
            caller,
            null,
            new McpSchema.CallToolRequest("whoami", Map.of()));
    assertThat(result.isError()).isTrue();
    assertThat(((TextContent) result.content().get(0)).text())
        .contains("cannot be used: it cannot be read");
  }
}
