package dev.asa.cli.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One tool's work: its arguments in, its {@code structuredContent} out. A refusal is thrown (an
 * {@link dev.asa.client.AsaApiException} from the SDK, or a {@link ToolError}) and turned into a
 * tool error by {@link AsaTools}.
 */
@FunctionalInterface
interface ToolHandler {
  ObjectNode call(Arguments arguments, Progress progress);
}
