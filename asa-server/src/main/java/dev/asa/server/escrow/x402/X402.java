package dev.asa.server.escrow.x402;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;

/**
 * The wire format of the x402 escrow binding (x402 protocol version 2, EVM networks): the
 * PaymentRequirements this server derives from an agreement, strict validation of the client's
 * PaymentPayload, and the bodies and headers exchanged with a facilitator. Pure functions: no I/O,
 * no clock (the caller passes the instant to judge expiry against).
 *
 * <p>The binding is {@code {"type":"x402","network":"eip155:84532","asset":"0x..","pay_to":"0x..",
 * "scheme":"upto"}}. Two schemes, each with the payload the x402 v2 scheme documents prescribe:
 *
 * <ul>
 *   <li>{@code upto} (default): the client authorizes up to the whole escrow when funding, and the
 *       server settles only the released part when the agreement closes. x402's {@code upto} on EVM
 *       is Permit2-only ({@code payload.permit2Authorization}); EIP-3009 cannot do it because it
 *       signs one exact value. At settlement {@code paymentRequirements.amount} is the amount to
 *       charge, which may be less than the signed maximum.
 *   <li>{@code exact}: an EIP-3009 {@code transferWithAuthorization} ({@code
 *       payload.authorization}) that moves exactly the signed value, so it can only settle all of
 *       the escrow or none.
 * </ul>
 *
 * <p>Each authorization settles at most once (its nonce is consumed on chain), so an agreement gets
 * exactly one settlement, at close.
 *
 * <p>This class is the entry point: the constants, the requirements derived from an agreement's
 * binding, and the operations on a payload. {@link Requirements} and {@link Authorization} are the
 * data; {@link PaymentPayloadParser} and {@link AuthorizationChecks} hold the strict checks, {@link
 * FacilitatorRequests} the facilitator request bodies.
 */
public final class X402 {

  /**
   * The protocol version spoken here; version 1 payloads have a different shape and are refused.
   */
  public static final int VERSION = 2;

  public static final String UPTO = "upto";
  public static final String EXACT = "exact";

  /** The base of every pointer into a client's PaymentPayload. */
  public static final String PAYLOAD_POINTER = "/x402";

  private static final String BINDING = "/escrow/binding";

  private X402() {}

  /**
   * The PaymentRequirements for an agreement's escrow: the binding's rail details, and the escrow
   * amount in atomic units of the asset. Problems are reported at {@code /escrow/binding/...}.
   *
   * <p>Binding members: {@code type} ("x402"), {@code network} (CAIP-2, EVM only), {@code asset}
   * and {@code pay_to} (addresses), optional {@code scheme} ("upto" by default, or "exact") and
   * optional {@code extra} (an object passed as the requirements' {@code extra}: the token's
   * EIP-712 {@code name}/{@code version} for exact, {@code facilitatorAddress} for upto). Other
   * members belong to other layers and are ignored here.
   *
   * @param maxTimeoutSeconds the x402 {@code maxTimeoutSeconds} offered to the client
   */
  public static Requirements requirements(JsonNode binding, Money amount, int maxTimeoutSeconds) {
    Objects.requireNonNull(amount, "amount");
    if (maxTimeoutSeconds <= 0) {
      throw new IllegalArgumentException(
          "maxTimeoutSeconds must be positive, not " + maxTimeoutSeconds);
    }
    if (binding == null || !binding.isObject()) {
      throw new InvalidDocumentException(
          BINDING,
          "must be an object such as "
              + "{\"type\":\"x402\",\"network\":\"eip155:84532\",\"asset\":\"0x...\",\"pay_to\":\"0x...\",\"scheme\":\"upto\"}");
    }
    StrictJson v = new StrictJson();
    JsonNode type = binding.get("type");
    if (type == null || !type.isTextual() || !type.textValue().equals("x402")) {
      v.add(BINDING + "/type", "must be \"x402\" for an x402 escrow binding");
    }
    String network =
        v.text(
            binding,
            BINDING,
            "network",
            Evm.CAIP2,
            "a CAIP-2 chain id such as \"eip155:84532\" (Base Sepolia) or \"eip155:8453\" (Base)");
    if (network != null && !Evm.EVM_CHAIN.matcher(network).matches()) {
      v.add(
          BINDING + "/network",
          "only EVM networks are supported: write \"eip155:<chain id>\", e.g. \"eip155:84532\", not \""
              + network
              + "\"");
    }
    String asset =
        v.text(
            binding,
            BINDING,
            "asset",
            Evm.ADDRESS,
            "the token contract address: 0x followed by 40 hex digits");
    String payTo =
        v.text(
            binding,
            BINDING,
            "pay_to",
            Evm.ADDRESS,
            "the recipient address: 0x followed by 40 hex digits");
    String scheme = UPTO;
    JsonNode schemeNode = binding.get("scheme");
    if (schemeNode != null) {
      if (schemeNode.isTextual()
          && (schemeNode.textValue().equals(UPTO) || schemeNode.textValue().equals(EXACT))) {
        scheme = schemeNode.textValue();
      } else {
        v.add(
            BINDING + "/scheme",
            "must be \"upto\" (the default: authorize the whole escrow, settle "
                + "what is released) or \"exact\" (settle all of it or nothing)");
      }
    }
    JsonNode extra = binding.get("extra");
    if (extra != null && !extra.isObject()) {
      v.add(
          BINDING + "/extra",
          "must be an object of scheme-specific details passed to the "
              + "facilitator, e.g. {\"name\":\"USDC\",\"version\":\"2\"}");
    }
    if (amount.amount().signum() == 0) {
      v.add("/escrow/payment/amount", "an x402 escrow needs an amount above zero");
    }
    v.throwIfAny();
    return new Requirements(
        scheme,
        network,
        atomicAmount(amount),
        asset,
        payTo,
        maxTimeoutSeconds,
        extra == null ? null : (ObjectNode) extra);
  }

  /**
   * The amount in atomic units of its currency: amount × 10^decimals, exactly ("10.00" USDC, 6
   * decimals: "10000000"). {@link Money} never holds more decimals than its currency, so no
   * rounding can happen.
   */
  public static String atomicAmount(Money money) {
    return money
        .amount()
        .movePointRight(money.currency().decimals())
        .toBigIntegerExact()
        .toString();
  }

  /**
   * Validates a client's x402 v2 PaymentPayload against the requirements this server derived,
   * strictly; every problem is reported, at a pointer under {@code /x402}. See {@link
   * PaymentPayloadParser#parse}.
   *
   * @return a copy of the payload, for {@code /verify} and later {@code /settle}
   */
  public static ObjectNode parsePayload(JsonNode payload, Requirements expected, Instant now) {
    return PaymentPayloadParser.parse(payload, expected, now);
  }

  /**
   * The {@code POST /verify} request body: {@code
   * {"x402Version":2,"paymentPayload":...,"paymentRequirements":...}}.
   */
  public static String verifyBody(ObjectNode payload, Requirements requirements) {
    return FacilitatorRequests.verifyBody(payload, requirements);
  }

  /**
   * The {@code POST /settle} request body that charges {@code atAmount.amount()} against the
   * authorization in {@code payload}. See {@link FacilitatorRequests#settleBody}.
   *
   * @throws IllegalArgumentException when the settlement cannot be right
   */
  public static String settleBody(ObjectNode payload, Requirements atAmount) {
    return FacilitatorRequests.settleBody(payload, atAmount);
  }

  /** The header an unpaid request is answered with (x402 v2 HTTP transport). */
  public static final String PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";

  /** The header a client may send its PaymentPayload in instead of the JSON body. */
  public static final String PAYMENT_SIGNATURE_HEADER = "PAYMENT-SIGNATURE";

  /** The header a paid request is answered with. */
  public static final String PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";

  /**
   * A v2 PaymentRequired: {@code {"x402Version":2, "resource":{...}, "accepts":[requirements]}},
   * with {@code error} when one is given.
   *
   * @param resource the URL of what is paid for (here the agreement's fund route)
   */
  public static ObjectNode paymentRequired(
      Requirements requirements, String resource, String description, String error) {
    ObjectNode o = Json.object();
    o.put("x402Version", VERSION);
    if (error != null) {
      o.put("error", error);
    }
    o.putObject("resource")
        .put("url", resource)
        .put("description", description)
        .put("mimeType", "application/json");
    o.putArray("accepts").add(requirements.toJson());
    return o;
  }

  /**
   * What {@code PAYMENT-RESPONSE} says when an escrow is funded: a SettleResponse with {@code
   * success} and nothing settled yet ({@code amount} "0", no transaction). The authorization is
   * held; the released amount is settled when the agreement is enforced, and shows in {@code GET
   * /agreements/{id}/escrow}.
   *
   * @param payload a PaymentPayload {@link #parsePayload} accepted
   */
  public static ObjectNode fundedResponse(JsonNode payload) {
    JsonNode inner = payload.path("payload");
    JsonNode authorization =
        inner.has("permit2Authorization")
            ? inner.get("permit2Authorization")
            : inner.path("authorization");
    ObjectNode o = Json.object();
    o.put("success", true);
    o.put("transaction", "");
    o.put("network", payload.path("accepted").path("network").asText());
    o.put("payer", authorization.path("from").asText());
    o.put("amount", "0");
    o.putObject("extra").put("escrow", "held").put("settled", "when the agreement is enforced");
    return o;
  }

  /**
   * A JSON value as an x402 header carries it ({@code PAYMENT-REQUIRED}, {@code PAYMENT-RESPONSE}):
   * its UTF-8 JSON text, base64 (RFC 4648, padded).
   */
  public static String header(JsonNode value) {
    return Base64.getEncoder().encodeToString(Json.write(value).getBytes(StandardCharsets.UTF_8));
  }

  /** EVM addresses compare without case: mixed case is only an EIP-55 checksum. */
  public static boolean sameAddress(String a, String b) {
    return Evm.sameAddress(a, b);
  }
}
