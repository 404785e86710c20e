package dev.asa.server.escrow.x402;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigInteger;
import java.util.Objects;

/**
 * The request bodies this server POSTs to an x402 facilitator's {@code /verify} and {@code
 * /settle}.
 */
final class FacilitatorRequests {

  private FacilitatorRequests() {}

  /**
   * The {@code POST /verify} request body: {@code
   * {"x402Version":2,"paymentPayload":...,"paymentRequirements":...}}.
   */
  static String verifyBody(ObjectNode payload, Requirements requirements) {
    return Json.write(facilitatorRequest(payload, requirements));
  }

  /**
   * The {@code POST /settle} request body that charges {@code atAmount.amount()} against the
   * authorization in {@code payload} (the same shape as {@link #verifyBody}: for {@code upto}, x402
   * reads the amount to charge from {@code paymentRequirements.amount}).
   *
   * @throws IllegalArgumentException when the settlement cannot be right: zero (settle nothing
   *     instead), more than was authorized, other rail details than the authorization's, or less
   *     than the whole authorization under {@code exact} (EIP-3009 always moves the signed value)
   */
  static String settleBody(ObjectNode payload, Requirements atAmount) {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(atAmount, "atAmount");
    Requirements accepted =
        Requirements.fromJson(payload.get("accepted"), X402.PAYLOAD_POINTER + "/accepted");
    if (!accepted.scheme().equals(atAmount.scheme())
        || !accepted.network().equals(atAmount.network())
        || !Evm.sameAddress(accepted.asset(), atAmount.asset())
        || !Evm.sameAddress(accepted.payTo(), atAmount.payTo())) {
      throw new IllegalArgumentException(
          "the settlement's scheme, network, asset or payTo differ from the authorization's");
    }
    BigInteger charge = atAmount.atomic();
    BigInteger authorized = Authorization.of(payload).value();
    if (charge.signum() == 0) {
      throw new IllegalArgumentException(
          "nothing to settle: when nothing is released, send no settlement at all");
    }
    if (charge.compareTo(authorized) > 0) {
      throw new IllegalArgumentException(
          "cannot settle " + charge + " atomic units: only " + authorized + " were authorized");
    }
    if (atAmount.scheme().equals(X402.EXACT) && !charge.equals(authorized)) {
      throw new IllegalArgumentException(
          "the exact scheme moves the whole signed value ("
              + authorized
              + "): it cannot settle part of it ("
              + charge
              + "); use the upto scheme for partial releases");
    }
    return Json.write(facilitatorRequest(payload, atAmount));
  }

  private static ObjectNode facilitatorRequest(ObjectNode payload, Requirements requirements) {
    ObjectNode body = Json.object();
    // The specification's examples show only the two objects; the reference facilitator client
    // also sends the version at the top level, and facilitators expect it.
    body.put("x402Version", X402.VERSION);
    body.set("paymentPayload", payload.deepCopy());
    body.set("paymentRequirements", requirements.toJson());
    return body;
  }
}
