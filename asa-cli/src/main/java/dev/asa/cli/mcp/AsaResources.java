package dev.asa.cli.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.json.Json;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a host can attach to a conversation without a tool call: the templates, the key holder's
 * agreements, one agreement ({@code asa://agreements/{agreement_id}}) and its event log. Each is
 * read through the same signed calls as the tools, so a key sees only what it takes part in.
 */
final class AsaResources {

  static final String TEMPLATES = "asa://templates";
  static final String AGREEMENTS = "asa://agreements";
  private static final String AGREEMENT_PREFIX = AGREEMENTS + "/";
  private static final String EVENTS_SUFFIX = "/events";
  private static final String JSON = "application/json";

  private final Caller caller;
  private final ReadTools reads;

  AsaResources(Caller caller) {
    this.caller = caller;
    this.reads = new ReadTools(caller);
  }

  List<SyncResourceSpecification> resources() {
    return List.of(
        new SyncResourceSpecification(
            McpSchema.Resource.builder()
                .uri(TEMPLATES)
                .name("templates")
                .title("Agreement templates")
                .description(
                    "The service templates agreements start from, with their default terms.")
                .mimeType(JSON)
                .build(),
            (exchange, request) -> read(request.uri(), () -> caller.client().templates())),
        new SyncResourceSpecification(
            McpSchema.Resource.builder()
                .uri(AGREEMENTS)
                .name("agreements")
                .title("Your agreements")
                .description("The newest 100 agreements your key takes part in, with their states.")
                .mimeType(JSON)
                .build(),
            (exchange, request) ->
                read(request.uri(), () -> reads.list(Arguments.of(Map.of("limit", 100))))));
  }

  List<SyncResourceTemplateSpecification> templates() {
    return List.of(
        new SyncResourceTemplateSpecification(
            McpSchema.ResourceTemplate.builder()
                .uriTemplate(AGREEMENT_PREFIX + "{agreement_id}")
                .name("agreement")
                .title("An agreement")
                .description(
                    "One agreement you take part in: its terms, state, agreement_hash, allowed"
                        + " actions and your roles.")
                .mimeType(JSON)
                .build(),
            (exchange, request) ->
                read(request.uri(), () -> reads.agreement(agreementId(request.uri(), "")))),
        new SyncResourceTemplateSpecification(
            McpSchema.ResourceTemplate.builder()
                .uriTemplate(AGREEMENT_PREFIX + "{agreement_id}" + EVENTS_SUFFIX)
                .name("agreement-events")
                .title("An agreement's event log")
                .description(
                    "Every step of one agreement, hash-chained, with the chain checked here.")
                .mimeType(JSON)
                .build(),
            (exchange, request) ->
                read(
                    request.uri(), () -> reads.events(agreementId(request.uri(), EVENTS_SUFFIX)))));
  }

  /** The id between {@code asa://agreements/} and {@code suffix}, checked as the tools check it. */
  static String agreementId(String uri, String suffix) {
    String id = uri.substring(AGREEMENT_PREFIX.length(), uri.length() - suffix.length());
    if (!Arguments.ID.matcher(id).matches()) {
      throw new McpError(
          new McpSchema.JSONRPCResponse.JSONRPCError(
              McpSchema.ErrorCodes.INVALID_PARAMS,
              "'" + id + "' is not an agreement id (3 to 128 letters, digits and . _ : -)",
              null));
    }
    return id;
  }

  /** A resource's JSON; what goes wrong is a protocol error whose message says what and why. */
  private static ReadResourceResult read(String uri, Supplier<ObjectNode> content) {
    try {
      return new ReadResourceResult(
          List.of(new TextResourceContents(uri, JSON, Json.writePretty(content.get()))));
    } catch (AsaApiException e) {
      throw new McpError(
          new McpSchema.JSONRPCResponse.JSONRPCError(
              e.status() == 404
                  ? McpSchema.ErrorCodes.RESOURCE_NOT_FOUND
                  : McpSchema.ErrorCodes.INTERNAL_ERROR,
              e.isUnreachable()
                  ? "the ASA server cannot be reached: " + e.detail()
                  : e.getMessage(),
              null));
    } catch (ToolError e) {
      throw new McpError(
          new McpSchema.JSONRPCResponse.JSONRPCError(
              McpSchema.ErrorCodes.INTERNAL_ERROR, e.getMessage(), null));
    }
  }
}
