package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * An x402 escrow was asked to fund without a payment: answered 402 with the x402 v2 {@code
 * PaymentRequired} in the {@code PAYMENT-REQUIRED} header (and in the problem document), as an x402
 * resource server answers an unpaid request.
 */
public final class PaymentRequiredException extends RuntimeException {
  private final ObjectNode paymentRequired;

  PaymentRequiredException(String message, ObjectNode paymentRequired) {
    super(message);
    this.paymentRequired = Objects.requireNonNull(paymentRequired, "paymentRequired").deepCopy();
  }

  /** The v2 PaymentRequired: x402Version, resource, accepts. */
  public ObjectNode paymentRequired() {
    return paymentRequired.deepCopy();
  }
}
