package dev.asa.signedrequests;

import dev.asa.crypto.Ed25519PrivateKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** Helpers shared by the tests of this package. */
final class HttpTesting {

  private HttpTesting() {}

  static Ed25519PrivateKey key(int n) {
    byte[] seed = new byte[Ed25519PrivateKey.SEED_LENGTH];
    seed[0] = (byte) n;
    seed[31] = (byte) (n * 7 + 1);
    return Ed25519PrivateKey.fromSeed(seed);
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A case-insensitive header lookup over {@code headers}, as a server would provide. */
  static Function<String, String> lookup(Map<String, String> headers) {
    TreeMap<String, String> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    map.putAll(headers);
    return map::get;
  }

  /** A "random" source that always yields {@code bytes}, repeated, for known-answer tests. */
  @SuppressWarnings("serial")
  static SecureRandom fixedRandom(byte[] bytes) {
    return new SecureRandom() {
      @Override
      public void nextBytes(byte[] out) {
        for (int i = 0; i < out.length; i++) {
          out[i] = bytes[i % bytes.length];
        }
      }
    };
  }

  /**
   * A Signature header value signing exactly {@code components} with {@code params}, built by hand
   * so tests can produce validly signed requests that break other rules.
   */
  static String signature(
      Ed25519PrivateKey key, List<SignatureBase.Component> components, String params) {
    byte[] signature = key.sign(SignatureBase.of(components, params).utf8()).bytes();
    return "sig1=:" + Base64.getEncoder().encodeToString(signature) + ":";
  }
}
