package dev.asa.cli.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.asa.json.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The tools as an MCP host lists them: names, descriptions, input and output schemas, kept in
 * {@code tools.json} beside this class so that the contract other agents integrate against reads as
 * one document. The handlers live in the {@code *Tools} classes; {@link AsaTools} joins the two and
 * refuses to start if either lacks the other.
 */
final class ToolCatalog {
  private ToolCatalog() {}

  static List<McpSchema.Tool> load() {
    try (InputStream in = ToolCatalog.class.getResourceAsStream("tools.json")) {
      if (in == null) {
        throw new IllegalStateException("tools.json is missing from the build");
      }
      return Json.mapper().readValue(in, new TypeReference<List<McpSchema.Tool>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException("tools.json cannot be read", e);
    }
  }
}
