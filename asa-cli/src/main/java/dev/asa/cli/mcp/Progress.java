package dev.asa.cli.mcp;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/**
 * Progress notifications for one tool call: sent only when the caller asked for them with a {@code
 * progressToken}, as the MCP specification has it. A tool that waits (a semantic verification)
 * reports what it sees, so the host knows it is working and need not time out.
 */
interface Progress {

  /** No notifications: for calls that gave no token, and for tests. */
  Progress NONE = message -> {};

  /** Reports one more step, described in words. */
  void report(String message);

  static Progress of(McpSyncServerExchange exchange, Map<String, Object> meta) {
    Object token = meta == null ? null : meta.get("progressToken");
    if (exchange == null || token == null) {
      return NONE;
    }
    return new Progress() {
      // The specification asks for a value that grows with each notification; a job's own
      // counts start over at each stage, so they go into the message and a step count goes here.
      private int steps;

      @Override
      public synchronized void report(String message) {
        steps++;
        exchange.progressNotification(
            new McpSchema.ProgressNotification(token, steps, null, message));
      }
    };
  }
}
