package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;

/**
 * Who caused an event: the role the caller's verified key holds in the agreement, and the key.
 * The server's own actions (built-in evaluator, timers) carry role "server" and the server's key.
 */
public record Actor(String role, String keyId, boolean authenticated) {

  public static Actor server(String serverKeyId) {
    return new Actor("server", serverKeyId, true);
  }

  /** A caller whose request signature verified, acting in {@code role}. */
  public static Actor verified(String role, String keyId) {
    return new Actor(role, keyId, true);
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("role", role);
    if (keyId != null) {
      o.put("key", keyId);
    }
    o.put("authenticated", authenticated);
    return o;
  }
}
