package dev.asa.server.escrow.x402;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * Strict validation of a client's x402 v2 PaymentPayload: the envelope and its {@code accepted}
 * requirements here, the authorization inside it in {@link AuthorizationChecks}.
 */
final class PaymentPayloadParser {

  private PaymentPayloadParser() {}

  /**
   * Validates a client's x402 v2 PaymentPayload against the requirements this server derived,
   * strictly: version 2, {@code accepted} equal to {@code expected} in scheme, network, asset,
   * payTo and amount, and an authorization of the scheme's shape that is well formed, pays {@code
   * payTo}, signs exactly the expected amount, and is valid at {@code now} (validAfter ≤ now <
   * validBefore). Every problem is reported, at a pointer under {@code /x402}.
   *
   * <p>The authorization is checked here only for form; whether the signature is genuine and the
   * payer can pay is the facilitator's {@code /verify}.
   *
   * @return a copy of the payload, for {@code /verify} and later {@code /settle}
   */
  static ObjectNode parse(JsonNode payload, Requirements expected, Instant now) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(now, "now");
    String at = X402.PAYLOAD_POINTER;
    if (payload == null || !payload.isObject()) {
      throw new InvalidDocumentException(
          at,
          "must be an x402 version 2 PaymentPayload object: "
              + "{\"x402Version\":2,\"accepted\":{...},\"payload\":{\"signature\":\"0x...\",...}}");
    }
    StrictJson v = new StrictJson();
    v.allowOnly(
        payload, at, Set.of("x402Version", "resource", "accepted", "payload", "extensions"));
    JsonNode version = payload.get("x402Version");
    if (version == null
        || !version.isIntegralNumber()
        || !version.canConvertToInt()
        || version.intValue() != X402.VERSION) {
      v.add(at + "/x402Version", "must be 2: this server speaks x402 protocol version 2");
    }
    JsonNode resource = payload.get("resource");
    if (resource != null && (!resource.isObject() || !resource.path("url").isTextual())) {
      v.add(at + "/resource", "must be a ResourceInfo object with a url when present");
    }
    JsonNode extensions = payload.get("extensions");
    if (extensions != null && !extensions.isObject()) {
      v.add(at + "/extensions", "must be an object when present");
    }
    checkAccepted(payload.get("accepted"), expected, v);
    JsonNode inner = payload.get("payload");
    if (inner == null || !inner.isObject()) {
      v.add(
          at + "/payload",
          "must be an object with the signature and the "
              + (expected.scheme().equals(X402.UPTO) ? "permit2Authorization" : "authorization"));
    } else if (expected.scheme().equals(X402.UPTO)) {
      AuthorizationChecks.checkPermit2(inner, expected, now, v);
    } else {
      AuthorizationChecks.checkEip3009(inner, expected, now, v);
    }
    v.throwIfAny();
    return (ObjectNode) payload.deepCopy();
  }

  private static void checkAccepted(JsonNode accepted, Requirements expected, StrictJson v) {
    String at = X402.PAYLOAD_POINTER + "/accepted";
    Requirements got = Requirements.read(accepted, at, v);
    if (got == null) {
      return;
    }
    if (!got.scheme().equals(expected.scheme())) {
      v.add(
          at + "/scheme",
          "must be \""
              + expected.scheme()
              + "\", the scheme of this agreement's "
              + "escrow binding, not \""
              + got.scheme()
              + "\"");
    }
    if (!got.network().equals(expected.network())) {
      v.add(
          at + "/network", "must be \"" + expected.network() + "\", not \"" + got.network() + "\"");
    }
    if (!Evm.sameAddress(got.asset(), expected.asset())) {
      v.add(
          at + "/asset", "must be the escrow's asset " + expected.asset() + ", not " + got.asset());
    }
    if (!Evm.sameAddress(got.payTo(), expected.payTo())) {
      v.add(
          at + "/payTo",
          "must be the escrow's recipient " + expected.payTo() + ", not " + got.payTo());
    }
    if (!got.amount().equals(expected.amount())) {
      v.add(
          at + "/amount",
          "must be "
              + expected.amount()
              + " (the escrow amount in atomic units of "
              + "the asset), not "
              + got.amount());
    }
  }
}
