package dev.asa.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class DidKeyTest {

  /** The Ed25519 example of the did:key method specification. */
  private static final String SPEC_EXAMPLE =
      "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp";

  @Test
  void specExampleDecodesAndReencodesIdentically() {
    Ed25519PublicKey key = DidKey.parse(SPEC_EXAMPLE);

    assertThat(key.bytes()).hasSize(32);
    assertThat(DidKey.of(key)).isEqualTo(SPEC_EXAMPLE);
  }

  @Test
  void rfc8032Test1KeyHasAStableDid() {
    Ed25519PublicKey key =
        new Ed25519PublicKey(
            HexFormat.of()
                .parseHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"));

    String did = DidKey.of(key);

    assertThat(did).startsWith("did:key:z6Mk");
    assertThat(DidKey.parse(did)).isEqualTo(key);
  }

  @Test
  void roundTripsGeneratedKeys() {
    SecureRandom random = new SecureRandom();
    for (int i = 0; i < 50; i++) {
      Ed25519PublicKey key = Ed25519PrivateKey.generate(random).publicKey();
      String did = DidKey.of(key);
      assertThat(did).startsWith("did:key:z6Mk");
      assertThat(DidKey.parse(did)).isEqualTo(key);
    }
  }

  @Test
  void roundTripsKeysWithLeadingAndTrailingZeroBytes() {
    byte[] zeros = new byte[32];
    byte[] ones = new byte[32];
    Arrays.fill(ones, (byte) 0xff);
    for (byte[] bytes : new byte[][] {zeros, ones}) {
      Ed25519PublicKey key = new Ed25519PublicKey(bytes);
      assertThat(DidKey.parse(DidKey.of(key))).isEqualTo(key);
    }
  }

  @Test
  void refusesOtherMethods() {
    assertRefused("did:web:example.com", "not a did:key DID");
    assertRefused("z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp", "not a did:key DID");
    assertRefused(null, "not a did:key DID");
  }

  @Test
  void refusesDidUrls() {
    assertRefused(SPEC_EXAMPLE + "#z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp", "DID URL");
  }

  @Test
  void refusesOtherMultibaseEncodings() {
    assertRefused("did:key:u7QEu...", "multibase base58btc");
    assertRefused("did:key:", "multibase base58btc");
  }

  @Test
  void refusesBadBase58() {
    // 0, O, I and l are not in the Bitcoin alphabet.
    assertRefused(
        "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDoo0p", "not valid base58btc");
    assertRefused(
        "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooIp", "not valid base58btc");
    assertRefused("did:key:z", "not valid base58btc");
  }

  @Test
  void refusesOtherKeyTypes() {
    // secp256k1-pub (0xe7 0x01), the did:key spec's secp256k1 example.
    assertRefused(
        "did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme",
        "expected multicodec ed25519-pub");
  }

  @Test
  void refusesWrongLength() {
    assertRefused("did:key:z" + base58(ed25519Payload(31)), "wrong length: 31 bytes instead of 32");
    assertRefused("did:key:z" + base58(ed25519Payload(33)), "wrong length: 33 bytes instead of 32");
    assertRefused(
        "did:key:z" + base58(new byte[] {(byte) 0xed}), "expected multicodec ed25519-pub");
    assertRefused("did:key:z" + "1".repeat(80), "too long");
  }

  private static byte[] ed25519Payload(int keyLength) {
    byte[] payload = new byte[2 + keyLength];
    payload[0] = (byte) 0xed;
    payload[1] = 0x01;
    Arrays.fill(payload, 2, payload.length, (byte) 0x5a);
    return payload;
  }

  /** An independent base58btc encoder for building malformed inputs (no leading zero bytes). */
  private static String base58(byte[] bytes) {
    String alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    BigInteger value = new BigInteger(1, bytes);
    StringBuilder out = new StringBuilder();
    while (value.signum() > 0) {
      out.insert(0, alphabet.charAt(value.mod(BigInteger.valueOf(58)).intValue()));
      value = value.divide(BigInteger.valueOf(58));
    }
    return out.toString();
  }

  private static void assertRefused(String did, String messagePart) {
    assertThatThrownBy(() -> DidKey.parse(did))
        .as(did)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(messagePart);
  }
}
