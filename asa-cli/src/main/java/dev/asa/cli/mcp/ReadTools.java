package dev.asa.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.ListFilter;
import dev.asa.json.Json;
import dev.asa.lifecycle.EventChain;
import dev.asa.lifecycle.State;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/** The tools that only read: who you are, the templates, your agreements, anyone's reputation. */
final class ReadTools {

  private final Caller caller;

  ReadTools(Caller caller) {
    this.caller = caller;
  }

  Map<String, ToolHandler> handlers() {
    return Map.of(
        "whoami",
        (args, progress) -> whoami(),
        "list_templates",
        (args, progress) -> caller.client().templates(),
        "get_agreement",
        (args, progress) -> agreement(args.id("agreement_id")),
        "agreement_status",
        (args, progress) -> caller.client().status(args.id("agreement_id")),
        "list_agreements",
        (args, progress) -> list(args),
        "agreement_events",
        (args, progress) -> events(args.id("agreement_id")),
        "reputation",
        (args, progress) -> caller.client().reputation(args.text("scheme"), args.text("value")));
  }

  private ObjectNode whoami() {
    return Json.object()
        .put("identity", caller.identity())
        .put("key_id", caller.keyId())
        .put("server", caller.server().toString());
  }

  /** The envelope, and the parts the key holds in it: what a model needs to know what it may do. */
  ObjectNode agreement(String id) {
    ObjectNode envelope = caller.client().agreement(id);
    ArrayNode roles = envelope.putArray("your_roles");
    Roles.of(envelope, caller.key().publicKey()).forEach(roles::add);
    return envelope;
  }

  ObjectNode list(Arguments args) {
    ListFilter filter = ListFilter.NONE;
    String state = args.optionalText("state").orElse(null);
    if (state != null) {
      try {
        filter = filter.withState(State.valueOf(state));
      } catch (IllegalArgumentException e) {
        throw new ToolError(
            "The argument state must be one of "
                + Arrays.toString(State.values())
                + ", not '"
                + state
                + "'.");
      }
    }
    int limit = args.wholeNumber("limit").map(Long::intValue).orElse(20);
    ObjectNode page =
        caller
            .client()
            .list(caller.identity(), filter, args.optionalText("cursor").orElse(null), limit);
    ObjectNode out = Json.object();
    out.set("agreements", page.path("items"));
    if (page.path("next_cursor").isTextual()) {
      out.put("next_cursor", page.path("next_cursor").asText());
    }
    return out;
  }

  /** The log with its chain checked here, as {@code asa agreements events} does. */
  ObjectNode events(String id) {
    ObjectNode log = caller.client().events(id);
    Optional<String> broken = EventChain.firstBreak((JsonNode) log);
    log.put("chain_valid", broken.isEmpty() && log.path("chain_valid").asBoolean(true));
    broken.ifPresent(b -> log.put("chain_break", b));
    return log;
  }
}
