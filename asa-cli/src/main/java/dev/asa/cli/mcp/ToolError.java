package dev.asa.cli.mcp;

/**
 * A call a tool cannot make, in words a model can act on: a bad argument, a key file that cannot be
 * read, a step the agreement's terms do not allow. It becomes a tool result with {@code isError},
 * never a failure of the MCP server.
 */
final class ToolError extends RuntimeException {

  ToolError(String message) {
    super(message, null, false, false);
  }
}
