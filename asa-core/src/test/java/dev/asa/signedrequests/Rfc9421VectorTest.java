package dev.asa.signedrequests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Published test vectors, copied from the RFCs (not produced by this code): RFC 9421 appendix B.2.6
 * and RFC 9530's Content-Digest example.
 */
class Rfc9421VectorTest {

  // RFC 9421 appendix B.1.4, test-key-ed25519, as printed there (PEM of SPKI and PKCS#8).
  private static final String TEST_KEY_ED25519_PUBLIC_PEM_BODY =
      "MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=";
  private static final String TEST_KEY_ED25519_PRIVATE_PEM_BODY =
      "MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF";
  // The fixed DER prefixes of an Ed25519 SubjectPublicKeyInfo and PKCS#8 PrivateKeyInfo (RFC 8410).
  private static final String SPKI_PREFIX = "302a300506032b6570032100";
  private static final String PKCS8_PREFIX = "302e020100300506032b657004220420";

  // RFC 9421 appendix B.2.6: the signature base and signature value, as printed there (the RFC
  // wraps the long line per RFC 8792; it is one line).
  private static final String RFC_SIGNATURE_BASE =
      String.join(
          "\n",
          "\"date\": Tue, 20 Apr 2021 02:07:55 GMT",
          "\"@method\": POST",
          "\"@path\": /foo",
          "\"@authority\": example.com",
          "\"content-type\": application/json",
          "\"content-length\": 18",
          "\"@signature-params\": (\"date\" \"@method\" \"@path\" \"@authority\""
              + " \"content-type\" \"content-length\");created=1618884473"
              + ";keyid=\"test-key-ed25519\"");
  private static final String RFC_SIGNATURE_INPUT =
      "sig-b26=(\"date\" \"@method\" \"@path\" \"@authority\" \"content-type\""
          + " \"content-length\");created=1618884473;keyid=\"test-key-ed25519\"";
  private static final String RFC_SIGNATURE =
      "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1"
          + "u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:";

  private static final HexFormat HEX = HexFormat.of();

  private static Ed25519PublicKey rfcPublicKey() {
    byte[] der = Base64.getDecoder().decode(TEST_KEY_ED25519_PUBLIC_PEM_BODY);
    assertThat(HEX.formatHex(Arrays.copyOf(der, 12))).isEqualTo(SPKI_PREFIX);
    return new Ed25519PublicKey(Arrays.copyOfRange(der, 12, der.length));
  }

  private static Ed25519PrivateKey rfcPrivateKey() {
    byte[] der = Base64.getDecoder().decode(TEST_KEY_ED25519_PRIVATE_PEM_BODY);
    assertThat(HEX.formatHex(Arrays.copyOf(der, 16))).isEqualTo(PKCS8_PREFIX);
    return Ed25519PrivateKey.fromSeed(Arrays.copyOfRange(der, 16, der.length));
  }

  @Test
  void theRfcKeyPairIsConsistent() {
    // A mistyped key would otherwise show up as a signature failure blamed on the base.
    assertThat(rfcPrivateKey().publicKey()).isEqualTo(rfcPublicKey());
    assertThat(rfcPublicKey().toBase64Url())
        .isEqualTo("JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs");
  }

  @Test
  void signatureBaseOfAppendixB26() {
    // The test request of appendix B.2:
    //   POST /foo?param=Value&Pet=dog HTTP/1.1
    //   Host: example.com
    //   Date: Tue, 20 Apr 2021 02:07:55 GMT
    //   Content-Type: application/json
    //   Content-Length: 18
    String params = RFC_SIGNATURE_INPUT.substring("sig-b26=".length());
    SignatureBase base =
        SignatureBase.of(
            List.of(
                new SignatureBase.Component("date", "Tue, 20 Apr 2021 02:07:55 GMT"),
                new SignatureBase.Component("@method", "POST"),
                new SignatureBase.Component("@path", "/foo"),
                new SignatureBase.Component("@authority", "example.com"),
                new SignatureBase.Component("content-type", "application/json"),
                new SignatureBase.Component("content-length", "18")),
            params);

    assertThat(base.text()).isEqualTo(RFC_SIGNATURE_BASE);
    assertThat(base.utf8()).isEqualTo(RFC_SIGNATURE_BASE.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void rfcSignatureVerifiesWithTheRfcKey() {
    String value = RFC_SIGNATURE.substring("sig-b26=:".length(), RFC_SIGNATURE.length() - 1);
    Ed25519Signature signature = new Ed25519Signature(Base64.getDecoder().decode(value));
    byte[] base = RFC_SIGNATURE_BASE.getBytes(StandardCharsets.UTF_8);

    assertThat(rfcPublicKey().verify(base, signature)).isTrue();
    // Ed25519 is deterministic, so the RFC's private key must reproduce the RFC's signature.
    assertThat(rfcPrivateKey().sign(base)).isEqualTo(signature);
    // And one changed byte of the base breaks it.
    byte[] altered = base.clone();
    altered[altered.length - 2] ^= 1;
    assertThat(rfcPublicKey().verify(altered, signature)).isFalse();
  }

  @Test
  void contentDigestExampleOfRfc9530() {
    byte[] body = "{\"hello\": \"world\"}".getBytes(StandardCharsets.UTF_8);

    assertThat(ContentDigest.of(body))
        .isEqualTo("sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:");
    assertThat(
            ContentDigest.matches("sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:", body))
        .isTrue();
  }
}
