package dev.asa.facts;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where an agreement's escrowed money stands.
 *
 * @param binding the escrow binding that holds it; null while unfunded
 * @param amount the held amount as a decimal string; null while unfunded
 * @param fundedAt null while unfunded
 * @param bindingDetails what the binding recorded at funding (webhook URL, x402 payer...), rendered
 *     as is; stored as members of the fact itself, after its own
 */
@JsonPropertyOrder({"binding", "status", "amount", "currency", "funded_at", "escrow_account"})
public record EscrowFact(
    EscrowStatus status,
    String binding,
    String amount,
    String currency,
    Instant fundedAt,
    String escrowAccount,
    @JsonIgnore ObjectNode bindingDetails)
    implements TypedFact {

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

  /**
   * How a stored escrow fact is read: its own members, and every other member, in order, as the
   * binding's details. (A record cannot take members one by one in order, so this class does.)
   */
  private static final class Stored {
    @JsonProperty EscrowStatus status;
    @JsonProperty String binding;
    @JsonProperty String amount;
    @JsonProperty String currency;
    @JsonProperty Instant fundedAt;
    @JsonProperty String escrowAccount;
    @JsonAnySetter final ObjectNode bindingDetails = Json.object();
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  private static EscrowFact stored(Stored s) {
    return new EscrowFact(
        s.status, s.binding, s.amount, s.currency, s.fundedAt, s.escrowAccount, s.bindingDetails);
  }

  @JsonAnyGetter
  @SuppressWarnings("UnusedMethod") // Jackson writes the details through it
  private Map<String, JsonNode> storedBindingDetails() {
    Map<String, JsonNode> details = new LinkedHashMap<>();
    bindingDetails.properties().forEach(e -> details.put(e.getKey(), e.getValue()));
    return details;
  }
}
