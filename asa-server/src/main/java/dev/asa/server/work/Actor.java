package dev.asa.server.work;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.json.Json;

/**
 * Who caused an event: the role the caller's verified key holds in the agreement, and the key. The
 * server's own actions (built-in evaluator, timers) carry role "server" and the server's key.
 */
public record Actor(String role, String keyId, boolean authenticated) {

  public static Actor server(String serverKeyId) {
    return new Actor("server", serverKeyId, true);
  }

  /** A caller whose request signature verified, acting in {@code role}. */
  public static Actor verified(String role, String keyId) {
    return new Actor(role, keyId, true);
  }

  /** A body may name the party it acts as; it must be the one the caller's key is. */
  public static void requireClaimMatches(String claimed, Actor actor) {
    if (claimed != null && !claimed.equals(actor.role())) {
      throw AccessDeniedException.forbidden(
          "the request says it acts as the "
              + claimed
              + ", but it is signed by the "
              + actor.role()
              + "'s key");
    }
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
