package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

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

  private static final Pattern CAIP2 = Pattern.compile("[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}");
  private static final Pattern EVM_CHAIN = Pattern.compile("eip155:[1-9][0-9]{0,17}");
  private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");
  private static final Pattern BYTES32 = Pattern.compile("0x[0-9a-fA-F]{64}");
  private static final Pattern UINT = Pattern.compile("0|[1-9][0-9]{0,77}");
  // 65 bytes is an EOA's r,s,v; smart-wallet signatures (ERC-1271, ERC-6492 wrapped) are longer.
  private static final Pattern SIGNATURE = Pattern.compile("0x(?:[0-9a-fA-F]{2}){65,4096}");
  private static final BigInteger UINT256_MAX =
      BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);

  private X402() {}

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
      if (!scheme.equals(UPTO) && !scheme.equals(EXACT)) {
        throw new IllegalArgumentException("scheme must be \"upto\" or \"exact\", not " + scheme);
      }
      if (!isUint256(amount)) {
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
      return new Requirements(
          scheme, network, atomicAmount, asset, payTo, maxTimeoutSeconds, extra);
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

    private static Requirements read(JsonNode node, String pointer, StrictJson v) {
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
      if (scheme != null && !scheme.equals(UPTO) && !scheme.equals(EXACT)) {
        v.add(pointer + "/scheme", "must be \"upto\" or \"exact\", not \"" + scheme + "\"");
      }
      String network =
          v.text(node, pointer, "network", CAIP2, "a CAIP-2 network id such as \"eip155:84532\"");
      String amount =
          uint256(node, "amount", pointer, v, "the amount in atomic units of the asset");
      String asset =
          v.text(
              node,
              pointer,
              "asset",
              ADDRESS,
              "the token contract address: 0x followed by 40 hex digits");
      String payTo =
          v.text(
              node,
              pointer,
              "payTo",
              ADDRESS,
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

  /**
   * The authorization inside a validated PaymentPayload, in one shape for both transfer methods.
   *
   * @param method {@code eip3009} ({@code exact}) or {@code permit2} ({@code upto})
   * @param to the recipient the signature binds (EIP-3009 {@code to}, Permit2 {@code witness.to})
   * @param value the signed amount (EIP-3009 {@code value}, Permit2 {@code permitted.amount})
   * @param validBefore unix seconds (EIP-3009 {@code validBefore}, Permit2 {@code deadline});
   *     settlement must happen before it
   * @param nonce as on the wire: bytes32 hex for EIP-3009, a decimal uint256 for Permit2
   */
  public record Authorization(
      String method,
      String from,
      String to,
      BigInteger value,
      BigInteger validAfter,
      BigInteger validBefore,
      String nonce,
      String signature) {

    public static final String EIP3009 = "eip3009";
    public static final String PERMIT2 = "permit2";

    /** Reads the authorization of a payload that {@link #parsePayload} accepted. */
    public static Authorization of(JsonNode paymentPayload) {
      JsonNode p = paymentPayload.path("payload");
      String signature = p.path("signature").asText(null);
      if (p.has("authorization")) {
        JsonNode a = p.get("authorization");
        return new Authorization(
            EIP3009,
            a.path("from").asText(),
            a.path("to").asText(),
            new BigInteger(a.path("value").asText()),
            new BigInteger(a.path("validAfter").asText()),
            new BigInteger(a.path("validBefore").asText()),
            a.path("nonce").asText(),
            signature);
      }
      if (p.has("permit2Authorization")) {
        JsonNode a = p.get("permit2Authorization");
        return new Authorization(
            PERMIT2,
            a.path("from").asText(),
            a.path("witness").path("to").asText(),
            new BigInteger(a.path("permitted").path("amount").asText()),
            new BigInteger(a.path("witness").path("validAfter").asText()),
            new BigInteger(a.path("deadline").asText()),
            a.path("nonce").asText(),
            signature);
      }
      throw new IllegalArgumentException(
          "the payment payload holds neither authorization nor permit2Authorization");
    }

    /**
     * When the authorization expires; a uint256 beyond Instant's range reads as {@link
     * Instant#MAX}.
     */
    public Instant expiresAt() {
      return validBefore.compareTo(BigInteger.valueOf(Instant.MAX.getEpochSecond())) > 0
          ? Instant.MAX
          : Instant.ofEpochSecond(validBefore.longValueExact());
    }
  }

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
            CAIP2,
            "a CAIP-2 chain id such as \"eip155:84532\" (Base Sepolia) or \"eip155:8453\" (Base)");
    if (network != null && !EVM_CHAIN.matcher(network).matches()) {
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
            ADDRESS,
            "the token contract address: 0x followed by 40 hex digits");
    String payTo =
        v.text(
            binding,
            BINDING,
            "pay_to",
            ADDRESS,
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
  public static ObjectNode parsePayload(JsonNode payload, Requirements expected, Instant now) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(now, "now");
    String at = PAYLOAD_POINTER;
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
        || version.intValue() != VERSION) {
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
              + (expected.scheme().equals(UPTO) ? "permit2Authorization" : "authorization"));
    } else if (expected.scheme().equals(UPTO)) {
      checkPermit2(inner, expected, now, v);
    } else {
      checkEip3009(inner, expected, now, v);
    }
    v.throwIfAny();
    return (ObjectNode) payload.deepCopy();
  }

  /**
   * The {@code POST /verify} request body: {@code
   * {"x402Version":2,"paymentPayload":...,"paymentRequirements":...}}.
   */
  public static String verifyBody(ObjectNode payload, Requirements requirements) {
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
  public static String settleBody(ObjectNode payload, Requirements atAmount) {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(atAmount, "atAmount");
    Requirements accepted =
        Requirements.fromJson(payload.get("accepted"), PAYLOAD_POINTER + "/accepted");
    if (!accepted.scheme().equals(atAmount.scheme())
        || !accepted.network().equals(atAmount.network())
        || !sameAddress(accepted.asset(), atAmount.asset())
        || !sameAddress(accepted.payTo(), atAmount.payTo())) {
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
    if (atAmount.scheme().equals(EXACT) && !charge.equals(authorized)) {
      throw new IllegalArgumentException(
          "the exact scheme moves the whole signed value ("
              + authorized
              + "): it cannot settle part of it ("
              + charge
              + "); use the upto scheme for partial releases");
    }
    return Json.write(facilitatorRequest(payload, atAmount));
  }

  /**
   * The {@code PAYMENT-RESPONSE} header value: the SettleResponse JSON, base64 (RFC 4648, padded).
   */
  public static String paymentResponseHeader(JsonNode settleResponse) {
    return Base64.getEncoder()
        .encodeToString(Json.write(settleResponse).getBytes(StandardCharsets.UTF_8));
  }

  // ---------------------------------------------------------------------------------------------

  private static ObjectNode facilitatorRequest(ObjectNode payload, Requirements requirements) {
    ObjectNode body = Json.object();
    // The specification's examples show only the two objects; the reference facilitator client
    // also sends the version at the top level, and facilitators expect it.
    body.put("x402Version", VERSION);
    body.set("paymentPayload", payload.deepCopy());
    body.set("paymentRequirements", requirements.toJson());
    return body;
  }

  private static void checkAccepted(JsonNode accepted, Requirements expected, StrictJson v) {
    String at = PAYLOAD_POINTER + "/accepted";
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
    if (!sameAddress(got.asset(), expected.asset())) {
      v.add(
          at + "/asset", "must be the escrow's asset " + expected.asset() + ", not " + got.asset());
    }
    if (!sameAddress(got.payTo(), expected.payTo())) {
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

  /** EIP-3009 {@code transferWithAuthorization}, the {@code exact} scheme. */
  private static void checkEip3009(
      JsonNode inner, Requirements expected, Instant now, StrictJson v) {
    String at = PAYLOAD_POINTER + "/payload";
    v.text(
        inner,
        at,
        "signature",
        SIGNATURE,
        "the payer's EIP-712 signature: 0x followed by at least 65 bytes in hex");
    JsonNode a = inner.get("authorization");
    if (a == null && inner.has("permit2Authorization")) {
      v.allowOnly(inner, at, Set.of("signature", "permit2Authorization"));
      v.add(
          at + "/permit2Authorization",
          "the exact scheme of this escrow takes an EIP-3009 "
              + "authorization: send payload.authorization {from, to, value, validAfter, validBefore, nonce} instead");
      return;
    }
    v.allowOnly(inner, at, Set.of("signature", "authorization"));
    if (a == null || !a.isObject()) {
      v.add(
          at + "/authorization",
          "must be the EIP-3009 authorization {from, to, value, validAfter, "
              + "validBefore, nonce}");
      return;
    }
    at += "/authorization";
    v.allowOnly(a, at, Set.of("from", "to", "value", "validAfter", "validBefore", "nonce"));
    v.text(a, at, "from", ADDRESS, "the payer's address: 0x followed by 40 hex digits");
    String to = v.text(a, at, "to", ADDRESS, "the recipient address: 0x followed by 40 hex digits");
    if (to != null && !sameAddress(to, expected.payTo())) {
      v.add(at + "/to", "must be the escrow's recipient " + expected.payTo() + ", not " + to);
    }
    checkValue(
        uint256(a, "value", at, v, "the amount in atomic units"), at + "/value", expected, v);
    checkWindow(
        uint256(a, "validAfter", at, v, "unix seconds"),
        at + "/validAfter",
        uint256(a, "validBefore", at, v, "unix seconds"),
        at + "/validBefore",
        now,
        v);
    v.text(a, at, "nonce", BYTES32, "a random 32-byte nonce: 0x followed by 64 hex digits");
  }

  /** Permit2 {@code permitWitnessTransferFrom} through the x402 proxy, the {@code upto} scheme. */
  private static void checkPermit2(
      JsonNode inner, Requirements expected, Instant now, StrictJson v) {
    String at = PAYLOAD_POINTER + "/payload";
    v.text(
        inner,
        at,
        "signature",
        SIGNATURE,
        "the payer's EIP-712 signature: 0x followed by at least 65 bytes in hex");
    JsonNode a = inner.get("permit2Authorization");
    if (a == null && inner.has("authorization")) {
      v.allowOnly(inner, at, Set.of("signature", "authorization"));
      v.add(
          at + "/authorization",
          "x402's upto scheme on EVM takes a Permit2 authorization (an EIP-3009 "
              + "authorization can only pay one exact amount): send payload.permit2Authorization {from, permitted: {token, "
              + "amount}, spender, nonce, deadline, witness: {to, validAfter}} instead");
      return;
    }
    v.allowOnly(inner, at, Set.of("signature", "permit2Authorization"));
    if (a == null || !a.isObject()) {
      v.add(
          at + "/permit2Authorization",
          "must be the Permit2 authorization {from, permitted: {token, "
              + "amount}, spender, nonce, deadline, witness: {to, validAfter}}: x402's upto scheme on EVM uses Permit2");
      return;
    }
    at += "/permit2Authorization";
    v.allowOnly(a, at, Set.of("from", "permitted", "spender", "nonce", "deadline", "witness"));
    v.text(a, at, "from", ADDRESS, "the payer's address: 0x followed by 40 hex digits");
    // The spender is the x402 Permit2 proxy; its address is the facilitator's to check.
    v.text(
        a, at, "spender", ADDRESS, "the x402 Permit2 proxy address: 0x followed by 40 hex digits");
    uint256(a, "nonce", at, v, "the Permit2 nonce, a decimal uint256");
    JsonNode permitted = a.get("permitted");
    if (permitted == null || !permitted.isObject()) {
      v.add(
          at + "/permitted", "must be {token, amount}: the asset and the most that may be charged");
    } else {
      String p = at + "/permitted";
      v.allowOnly(permitted, p, Set.of("token", "amount"));
      String token =
          v.text(
              permitted,
              p,
              "token",
              ADDRESS,
              "the token contract address: 0x followed by 40 hex digits");
      if (token != null && !sameAddress(token, expected.asset())) {
        v.add(p + "/token", "must be the escrow's asset " + expected.asset() + ", not " + token);
      }
      checkValue(
          uint256(permitted, "amount", p, v, "the most that may be charged, in atomic units"),
          p + "/amount",
          expected,
          v);
    }
    String deadline = uint256(a, "deadline", at, v, "unix seconds");
    JsonNode witness = a.get("witness");
    if (witness == null || !witness.isObject()) {
      v.add(
          at + "/witness", "must be {to, validAfter}: the signed recipient and start of validity");
      return;
    }
    String w = at + "/witness";
    // "facilitator" (who alone may settle) is in the reference implementation; "extra" in the spec
    // text.
    v.allowOnly(witness, w, Set.of("to", "validAfter", "facilitator", "extra"));
    String to =
        v.text(witness, w, "to", ADDRESS, "the recipient address: 0x followed by 40 hex digits");
    if (to != null && !sameAddress(to, expected.payTo())) {
      v.add(w + "/to", "must be the escrow's recipient " + expected.payTo() + ", not " + to);
    }
    if (witness.has("facilitator")) {
      String facilitator =
          v.text(
              witness,
              w,
              "facilitator",
              ADDRESS,
              "the facilitator's address: 0x followed by 40 hex digits");
      String offered =
          expected.extra == null ? null : expected.extra.path("facilitatorAddress").asText(null);
      if (facilitator != null && offered != null && !sameAddress(facilitator, offered)) {
        v.add(
            w + "/facilitator",
            "must be " + offered + ", the facilitator named in the requirements");
      }
    }
    checkWindow(
        uint256(witness, "validAfter", w, v, "unix seconds"),
        w + "/validAfter",
        deadline,
        at + "/deadline",
        now,
        v);
  }

  /**
   * The signed amount must be the escrow amount exactly: less cannot fund it, and more is refused
   * so that no settlement (for exact, the whole signed value moves) can take more than was agreed.
   */
  private static void checkValue(
      String value, String pointer, Requirements expected, StrictJson v) {
    if (value != null && !new BigInteger(value).equals(expected.atomic())) {
      v.add(
          pointer,
          "must authorize exactly "
              + expected.amount()
              + " atomic units (the escrow amount), not "
              + value);
    }
  }

  private static void checkWindow(
      String after,
      String afterPointer,
      String before,
      String beforePointer,
      Instant now,
      StrictJson v) {
    BigInteger t = BigInteger.valueOf(now.getEpochSecond());
    if (after != null && new BigInteger(after).compareTo(t) > 0) {
      v.add(
          afterPointer,
          "the authorization is not valid yet (starts at "
              + after
              + ", now is "
              + t
              + "): sign one that is valid now");
    }
    if (before != null && new BigInteger(before).compareTo(t) <= 0) {
      v.add(
          beforePointer,
          "the authorization has expired (at "
              + before
              + ", now is "
              + t
              + "): sign a new one that stays valid until the agreement is settled");
    }
  }

  /**
   * x402 writes every uint256 as a decimal string, never a JSON number (which would lose digits).
   */
  private static String uint256(
      JsonNode parent, String field, String pointer, StrictJson v, String what) {
    String s =
        v.text(parent, pointer, field, UINT, what + ", as a decimal string without leading zeros");
    if (s != null && new BigInteger(s).compareTo(UINT256_MAX) > 0) {
      v.add(StrictJson.child(pointer, field), "is larger than a uint256");
      return null;
    }
    return s;
  }

  static boolean isUint256(String s) {
    return s != null && UINT.matcher(s).matches() && new BigInteger(s).compareTo(UINT256_MAX) <= 0;
  }

  /** EVM addresses compare without case: mixed case is only an EIP-55 checksum. */
  static boolean sameAddress(String a, String b) {
    return a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
  }
}
