package dev.asa.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.Ed25519PublicKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts a key holds in an agreement, read from its parties' verification keys: the tools act
 * "as whichever party the key is", so a model never has to say which.
 */
final class Roles {
  private Roles() {}

  static List<String> of(JsonNode envelope, Ed25519PublicKey key) {
    JsonNode parties = envelope.path("agreement").path("parties");
    List<String> roles = new ArrayList<>();
    for (String role : List.of("client", "provider", "evaluator")) {
      if (parties
          .path(role)
          .path("verification_key")
          .path("value")
          .asText("")
          .equals(key.toBase64Url())) {
        roles.add(role);
      }
    }
    return roles;
  }

  /**
   * The signing party the key is (client or provider), for signing, negotiating and challenging.
   *
   * @throws ToolError if the key is neither
   */
  static String signingParty(JsonNode envelope, Ed25519PublicKey key, String what) {
    List<String> roles = of(envelope, key);
    if (roles.contains("client")) {
      return "client";
    }
    if (roles.contains("provider")) {
      return "provider";
    }
    throw new ToolError(
        "Only the client or the provider can "
            + what
            + ", and your key is neither in agreement "
            + envelope.path("agreement_id").asText()
            + (roles.isEmpty() ? "" : " (you are its " + String.join(" and ", roles) + ")")
            + ".");
  }
}
