package dev.asa.cli.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.json.Json;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.URI;
import java.util.Map;

/**
 * What a tool call answers. A success carries its {@code structuredContent} and the same JSON as
 * text; every failure is a result with {@code isError: true} whose text says what went wrong and
 * what to do, so the model can act on it and the MCP server goes on serving.
 */
final class ToolResults {
  private ToolResults() {}

  /** Where a refusal's problem document travels, for clients that read more than the text. */
  static final String PROBLEM_META = "dev.asa/problem";

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  static CallToolResult success(ObjectNode structured) {
    return CallToolResult.builder()
        .structuredContent(Json.mapper().convertValue(structured, MAP))
        .addTextContent(Json.write(structured))
        .isError(false)
        .build();
  }

  /** A call the tool would not make (a bad argument, an unreadable key file). */
  static CallToolResult failed(ToolError e) {
    return error(e.getMessage(), null);
  }

  /**
   * The ASA server's refusal, with its status, detail and the pointer of each field at fault; or,
   * when it could not be reached, that, and that nothing is known to have happened.
   *
   * @param hint what to do instead, when the tool knows better than the server; null for none
   */
  static CallToolResult refused(AsaApiException e, URI server, String hint) {
    StringBuilder text = new StringBuilder();
    ObjectNode problem;
    if (e.isUnreachable()) {
      text.append("The ASA server at ")
          .append(server)
          .append(" could not be reached: ")
          .append(e.detail())
          .append(". It may be down, or asa mcp --server may name the wrong address. If this call")
          .append(" was a change, read the agreement (get_agreement) before making it again.");
      problem = Json.object().put("status", 0).put("detail", e.detail());
    } else {
      text.append("The ASA server refused this call (HTTP ").append(e.status());
      if (e.kind() != null) {
        text.append(", ").append(e.kind());
      }
      text.append("): ").append(e.detail());
      for (AsaApiException.FieldError field : e.errors()) {
        if (e.errors().size() == 1 && e.detail().contains(field.detail())) {
          break; // the detail already is that one field's
        }
        text.append("\n  at ")
            .append(field.pointer().isEmpty() ? "(the whole request)" : field.pointer())
            .append(": ")
            .append(field.detail());
      }
      JsonNode body = e.problem();
      problem = body instanceof ObjectNode o ? o.deepCopy() : Json.object();
      problem.put("status", e.status());
      problem.put("detail", e.detail());
    }
    if (hint != null) {
      text.append("\n").append(hint);
    }
    return error(text.toString(), problem);
  }

  /** Not the caller's doing: a bug in asa mcp, said as such (the stack trace goes to stderr). */
  static CallToolResult bug(String tool, RuntimeException e) {
    return error(
        "asa mcp failed on "
            + tool
            + " with an unexpected error ("
            + e.getClass().getSimpleName()
            + "); this is a bug in asa mcp, not in your call. Its details are on the MCP server's"
            + " standard error.",
        null);
  }

  private static CallToolResult error(String text, ObjectNode problem) {
    CallToolResult.Builder result = CallToolResult.builder().addTextContent(text).isError(true);
    if (problem != null) {
      result.meta(Map.of(PROBLEM_META, Json.mapper().convertValue(problem, MAP)));
    }
    return result.build();
  }
}
