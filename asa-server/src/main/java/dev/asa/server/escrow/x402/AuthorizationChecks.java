package dev.asa.server.escrow.x402;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.StrictJson;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Set;

/**
 * The form checks of the authorization inside a PaymentPayload, one shape per scheme: EIP-3009 for
 * {@code exact}, Permit2 for {@code upto}. Whether the signature is genuine is the facilitator's to
 * check.
 */
final class AuthorizationChecks {

  private AuthorizationChecks() {}

  /** EIP-3009 {@code transferWithAuthorization}, the {@code exact} scheme. */
  static void checkEip3009(JsonNode inner, Requirements expected, Instant now, StrictJson v) {
    String at = X402.PAYLOAD_POINTER + "/payload";
    v.text(
        inner,
        at,
        "signature",
        Evm.SIGNATURE,
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
    v.text(a, at, "from", Evm.ADDRESS, "the payer's address: 0x followed by 40 hex digits");
    String to =
        v.text(a, at, "to", Evm.ADDRESS, "the recipient address: 0x followed by 40 hex digits");
    if (to != null && !Evm.sameAddress(to, expected.payTo())) {
      v.add(at + "/to", "must be the escrow's recipient " + expected.payTo() + ", not " + to);
    }
    checkValue(
        Evm.uint256(a, "value", at, v, "the amount in atomic units"), at + "/value", expected, v);
    checkWindow(
        Evm.uint256(a, "validAfter", at, v, "unix seconds"),
        at + "/validAfter",
        Evm.uint256(a, "validBefore", at, v, "unix seconds"),
        at + "/validBefore",
        now,
        v);
    v.text(a, at, "nonce", Evm.BYTES32, "a random 32-byte nonce: 0x followed by 64 hex digits");
  }

  /** Permit2 {@code permitWitnessTransferFrom} through the x402 proxy, the {@code upto} scheme. */
  static void checkPermit2(JsonNode inner, Requirements expected, Instant now, StrictJson v) {
    String at = X402.PAYLOAD_POINTER + "/payload";
    v.text(
        inner,
        at,
        "signature",
        Evm.SIGNATURE,
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
    v.text(a, at, "from", Evm.ADDRESS, "the payer's address: 0x followed by 40 hex digits");
    // The spender is the x402 Permit2 proxy; its address is the facilitator's to check.
    v.text(
        a,
        at,
        "spender",
        Evm.ADDRESS,
        "the x402 Permit2 proxy address: 0x followed by 40 hex digits");
    Evm.uint256(a, "nonce", at, v, "the Permit2 nonce, a decimal uint256");
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
              Evm.ADDRESS,
              "the token contract address: 0x followed by 40 hex digits");
      if (token != null && !Evm.sameAddress(token, expected.asset())) {
        v.add(p + "/token", "must be the escrow's asset " + expected.asset() + ", not " + token);
      }
      checkValue(
          Evm.uint256(permitted, "amount", p, v, "the most that may be charged, in atomic units"),
          p + "/amount",
          expected,
          v);
    }
    String deadline = Evm.uint256(a, "deadline", at, v, "unix seconds");
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
        v.text(
            witness, w, "to", Evm.ADDRESS, "the recipient address: 0x followed by 40 hex digits");
    if (to != null && !Evm.sameAddress(to, expected.payTo())) {
      v.add(w + "/to", "must be the escrow's recipient " + expected.payTo() + ", not " + to);
    }
    if (witness.has("facilitator")) {
      String facilitator =
          v.text(
              witness,
              w,
              "facilitator",
              Evm.ADDRESS,
              "the facilitator's address: 0x followed by 40 hex digits");
      JsonNode extra = expected.extra();
      String offered = extra == null ? null : extra.path("facilitatorAddress").asText(null);
      if (facilitator != null && offered != null && !Evm.sameAddress(facilitator, offered)) {
        v.add(
            w + "/facilitator",
            "must be " + offered + ", the facilitator named in the requirements");
      }
    }
    checkWindow(
        Evm.uint256(witness, "validAfter", w, v, "unix seconds"),
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
}
