package dev.asa.server.escrow.x402;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.StrictJson;
import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The textual forms x402 gives EVM values on the wire (CAIP-2 network ids, addresses, bytes32,
 * signatures, uint256 as decimal strings), and how to read and compare them.
 */
final class Evm {

  static final Pattern CAIP2 = Pattern.compile("[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}");
  static final Pattern EVM_CHAIN = Pattern.compile("eip155:[1-9][0-9]{0,17}");
  static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");
  static final Pattern BYTES32 = Pattern.compile("0x[0-9a-fA-F]{64}");
  private static final Pattern UINT = Pattern.compile("0|[1-9][0-9]{0,77}");
  // 65 bytes is an EOA's r,s,v; smart-wallet signatures (ERC-1271, ERC-6492 wrapped) are longer.
  static final Pattern SIGNATURE = Pattern.compile("0x(?:[0-9a-fA-F]{2}){65,4096}");
  private static final BigInteger UINT256_MAX =
      BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);

  private Evm() {}

  /**
   * x402 writes every uint256 as a decimal string, never a JSON number (which would lose digits).
   */
  static String uint256(JsonNode parent, String field, String pointer, StrictJson v, String what) {
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
