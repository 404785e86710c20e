package dev.asa.server.escrow.x402;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.time.Instant;

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

  /** Reads the authorization of a payload that {@link X402#parsePayload} accepted. */
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
   * When the authorization expires; a uint256 beyond Instant's range reads as {@link Instant#MAX}.
   */
  public Instant expiresAt() {
    return validBefore.compareTo(BigInteger.valueOf(Instant.MAX.getEpochSecond())) > 0
        ? Instant.MAX
        : Instant.ofEpochSecond(validBefore.longValueExact());
  }
}
