package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * Where an agreement's escrowed money stands.
 *
 * @param binding the escrow binding that holds it; null while unfunded
 * @param amount the held amount as a decimal string; null while unfunded
 * @param fundedAt null while unfunded
 * @param bindingDetails what the binding recorded at funding (webhook URL, x402 payer...), rendered
 *     as is
 */
public record EscrowFact(
    EscrowStatus status,
    String binding,
    String amount,
    String currency,
    Instant fundedAt,
    String escrowAccount,
    ObjectNode bindingDetails) {

  private static final Set<String> OWN =
      Set.of("status", "binding", "amount", "currency", "funded_at", "escrow_account");

  public EscrowFact {
    Objects.requireNonNull(status, "status");
    bindingDetails = bindingDetails == null ? Json.object() : bindingDetails.deepCopy();
  }

  /** An active agreement whose client has not funded yet. */
  public static EscrowFact unfunded() {
    return new EscrowFact(EscrowStatus.UNFUNDED, null, null, null, null, null, null);
  }

  public boolean isFunded() {
    return fundedAt != null;
  }

  public EscrowFact withStatus(EscrowStatus next) {
    return new EscrowFact(next, binding, amount, currency, fundedAt, escrowAccount, bindingDetails);
  }

  @Override
  public ObjectNode bindingDetails() {
    return bindingDetails.deepCopy();
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    FactJson.put(o, "binding", binding);
    o.put("status", status.wireName());
    FactJson.put(o, "amount", amount);
    FactJson.put(o, "currency", currency);
    FactJson.put(o, "funded_at", fundedAt);
    FactJson.put(o, "escrow_account", escrowAccount);
    o.setAll(bindingDetails.deepCopy());
    return o;
  }

  static EscrowFact fromJson(JsonNode o) {
    ObjectNode details = Json.object();
    o.properties()
        .forEach(e -> {
          if (!OWN.contains(e.getKey())) details.set(e.getKey(), e.getValue().deepCopy());
        });
    return new EscrowFact(
        EscrowStatus.fromWire(o.path("status").asText()),
        FactJson.text(o, "binding"),
        FactJson.text(o, "amount"),
        FactJson.text(o, "currency"),
        FactJson.instant(o, "funded_at"),
        FactJson.text(o, "escrow_account"),
        details);
  }
}
