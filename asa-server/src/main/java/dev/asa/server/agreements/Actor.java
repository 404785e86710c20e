package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;

/**
 * Who caused an event. Until request signatures are enforced (issue 3) the role is the one the
 * request claims, and {@code authenticated} says so honestly in the event log.
 */
public record Actor(String role, String keyId, boolean authenticated) {

  public static final Actor SERVER = new Actor("server", null, true);

  public static Actor claimed(String role) {
    return new Actor(role, null, false);
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
