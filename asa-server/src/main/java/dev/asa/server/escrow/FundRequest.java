package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code POST /agreements/{id}/fund}, read from its body.
 *
 * @param amount and {@code currency}: when given, they must match the terms (a client states what
 *     it believes it pays, and is refused if the terms say otherwise)
 * @param bindingPayload what the escrow binding reads (an x402 payment payload, or nothing), with
 *     {@code amount} and {@code currency} taken out; each binding checks its own members
 */
public record FundRequest(
    Optional<String> amount, Optional<String> currency, ObjectNode bindingPayload) {
  public FundRequest {
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(currency, "currency");
    bindingPayload = bindingPayload.deepCopy();
  }

  @Override
  public ObjectNode bindingPayload() {
    return bindingPayload.deepCopy();
  }
}
