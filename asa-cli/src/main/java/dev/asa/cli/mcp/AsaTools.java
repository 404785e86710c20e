package dev.asa.cli.mcp;

import dev.asa.client.AsaApiException;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every tool of {@code asa mcp}: the catalogue's declarations joined to their handlers, each call
 * wrapped so that whatever goes wrong comes back as a tool result with {@code isError} and the MCP
 * server goes on serving.
 */
final class AsaTools {

  private static final Logger log = LoggerFactory.getLogger(AsaTools.class);

  private AsaTools() {}

  static List<SyncToolSpecification> specifications(Caller caller) {
    Map<String, ToolHandler> handlers = handlers(caller);
    List<McpSchema.Tool> tools = ToolCatalog.load();
    Set<String> declared = new TreeSet<>();
    tools.forEach(tool -> declared.add(tool.name()));
    if (!declared.equals(new TreeSet<>(handlers.keySet()))) {
      throw new IllegalStateException(
          "tools.json declares " + declared + " but the handlers are " + handlers.keySet());
    }
    return tools.stream()
        .map(tool ->
            SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, request) ->
                    call(tool.name(), handlers.get(tool.name()), caller, exchange, request))
                .build())
        .toList();
  }

  static Map<String, ToolHandler> handlers(Caller caller) {
    Map<String, ToolHandler> handlers = new HashMap<>();
    handlers.putAll(new ReadTools(caller).handlers());
    handlers.putAll(new TermsTools(caller).handlers());
    handlers.putAll(new WorkTools(caller).handlers());
    handlers.putAll(new JudgeTools(caller).handlers());
    return handlers;
  }

  static CallToolResult call(
      String name,
      ToolHandler handler,
      Caller caller,
      McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    try {
      Arguments arguments = Arguments.of(request.arguments());
      return ToolResults.success(handler.call(arguments, Progress.of(exchange, request.meta())));
    } catch (ToolError e) {
      return ToolResults.failed(e);
    } catch (Refusal e) {
      return ToolResults.refused(e.refusal(), caller.server(), e.hint());
    } catch (AsaApiException e) {
      return ToolResults.refused(e, caller.server(), null);
    } catch (IllegalArgumentException e) {
      // What the SDK's builders refuse (a template name, a currency): the caller's input.
      return ToolResults.failed(new ToolError(e.getMessage()));
    } catch (RuntimeException e) {
      log.error("asa mcp: the tool {} failed", name, e);
      return ToolResults.bug(name, e);
    }
  }
}
