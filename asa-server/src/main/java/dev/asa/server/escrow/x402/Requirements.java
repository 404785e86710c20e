package dev.asa.server.escrow.x402;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.math.BigInteger;
import java.util.Objects;
import java.util.Set;

/**
 * One x402 v2 PaymentRequirements object.
 *
 * @param amount atomic units of the asset as a decimal string: the maximum for {@code upto} at
 *     funding, the amount to charge at settlement
 * @param extra scheme-specific details (token EIP-712 name/version, facilitator address), or null
 */
public record Requirements(
    String scheme,
    String network,
    String amount,
    String asset,
    String payTo,
    int maxTimeoutSeconds,
    ObjectNode extra) {

  public Requirements {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(network, "network");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(asset, "asset");
    Objects.requireNonNull(payTo, "payTo");
    if (!scheme.equals(X402.UPTO) && !scheme.equals(X402.EXACT)) {
      throw new IllegalArgumentException("scheme must be \"upto\" or \"exact\", not " + scheme);
    }
    if (!Evm.isUint256(amount)) {
      throw new IllegalArgumentException(
          "amount must be atomic units as a decimal string, not " + amount);
    }
    if (maxTimeoutSeconds <= 0) {
      throw new IllegalArgumentException(
          "maxTimeoutSeconds must be positive, not " + maxTimeoutSeconds);
    }
    extra = extra == null ? null : extra.deepCopy();
  }

  /** A copy: the record stays immutable although Jackson nodes are not. */
  @Override
  public ObjectNode extra() {
    return extra == null ? null : extra.deepCopy();
  }

  /** The same requirements for another amount, e.g. the released part at settlement. */
  public Requirements withAmount(String atomicAmount) {
    return new Requirements(scheme, network, atomicAmount, asset, payTo, maxTimeoutSeconds, extra);
  }

  public BigInteger atomic() {
    return new BigInteger(amount);
  }

  /** The wire form, members in the order of the specification. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("scheme", scheme);
    o.put("network", network);
    o.put("amount", amount);
    o.put("asset", asset);
    o.put("payTo", payTo);
    o.put("maxTimeoutSeconds", maxTimeoutSeconds);
    if (extra != null) {
      o.set("extra", extra.deepCopy());
    }
    return o;
  }

  /**
   * Reads a PaymentRequirements object strictly (all required members, well-formed EVM addresses
   * and amount), reporting problems under {@code pointer}.
   */
  public static Requirements fromJson(JsonNode node, String pointer) {
    StrictJson v = new StrictJson();
    Requirements r = read(node, pointer, v);
    v.throwIfAny();
    return r;
  }

  static Requirements read(JsonNode node, String pointer, StrictJson v) {
    if (node == null || !node.isObject()) {
      v.add(
          pointer,
          "must be a PaymentRequirements object with scheme, network, amount, asset, "
              + "payTo and maxTimeoutSeconds");
      return null;
    }
    int before = v.count();
    v.allowOnly(
        node,
        pointer,
        Set.of("scheme", "network", "amount", "asset", "payTo", "maxTimeoutSeconds", "extra"));
    String scheme =
        v.text(node, pointer, "scheme", null, "the payment scheme, \"upto\" or \"exact\"");
    if (scheme != null && !scheme.equals(X402.UPTO) && !scheme.equals(X402.EXACT)) {
      v.add(pointer + "/scheme", "must be \"upto\" or \"exact\", not \"" + scheme + "\"");
    }
    String network =
        v.text(node, pointer, "network", Evm.CAIP2, "a CAIP-2 network id such as \"eip155:84532\"");
    String amount =
        Evm.uint256(node, "amount", pointer, v, "the amount in atomic units of the asset");
    String asset =
        v.text(
            node,
            pointer,
            "asset",
            Evm.ADDRESS,
            "the token contract address: 0x followed by 40 hex digits");
    String payTo =
        v.text(
            node,
            pointer,
            "payTo",
            Evm.ADDRESS,
            "the recipient address: 0x followed by 40 hex digits");
    JsonNode timeout = node.get("maxTimeoutSeconds");
    int maxTimeoutSeconds = 0;
    if (timeout == null
        || !timeout.isIntegralNumber()
        || !timeout.canConvertToInt()
        || timeout.intValue() <= 0) {
      v.add(pointer + "/maxTimeoutSeconds", "must be a positive whole number of seconds");
    } else {
      maxTimeoutSeconds = timeout.intValue();
    }
    JsonNode extra = node.get("extra");
    if (extra != null && !extra.isObject() && !extra.isNull()) {
      v.add(pointer + "/extra", "must be an object of scheme-specific details when present");
    }
    if (v.count() > before) {
      return null;
    }
    return new Requirements(
        scheme,
        network,
        amount,
        asset,
        payTo,
        maxTimeoutSeconds,
        extra != null && extra.isObject() ? (ObjectNode) extra : null);
  }
}
