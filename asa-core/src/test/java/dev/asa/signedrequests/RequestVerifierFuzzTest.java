package dev.asa.signedrequests;

import static dev.asa.signedrequests.HttpTesting.key;
import static dev.asa.signedrequests.HttpTesting.lookup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random mutations of validly signed requests. Two properties: the verifier throws nothing
 * but {@link RequestAuthException}, and it accepts a request only if nothing that matters changed.
 * Rerun a failure with {@code -Dasa.fuzz.seed=<printed seed>}.
 */
class RequestVerifierFuzzTest {

  private static final Instant NOW = Instant.ofEpochSecond(1_700_000_000);
  private static final Duration SKEW = Duration.ofSeconds(300);
  private static final List<URI> URIS =
      List.of(
          URI.create("http://127.0.0.1:8080/agreements/asa-1/sign?x=1"),
          URI.create("http://127.0.0.1:8080/agreements"),
          URI.create("https://asa.example/agreements/asa-2/deliverables?limit=5&after=x%20y"));
  private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE");
  private static final String[] HEADER_NAMES = {"Content-Digest", "Signature-Input", "Signature"};

  /** Characters that matter to the parsers, plus some that must never be accepted. */
  private static final String INTERESTING =
      "\"()=;:, \t\\-_+/*.0123456789aAzZ@sig1edkycrtnoa\r\n\u0000\u007f\u00e9\u2028\uffff";

  private static long seed() {
    long seed = Long.getLong("asa.fuzz.seed", System.nanoTime());
    System.out.println(RequestVerifierFuzzTest.class.getSimpleName() + " seed: " + seed);
    return seed;
  }

  /** A SecureRandom that draws from {@code random}, so a seed reproduces the nonces too. */
  @SuppressWarnings("serial")
  private static SecureRandom from(Random random) {
    return new SecureRandom() {
      @Override
      public void nextBytes(byte[] bytes) {
        random.nextBytes(bytes);
      }
    };
  }

  private record Request(String method, URI uri, Map<String, String> headers, byte[] body) {}

  private static Request signedRequest(Random random, Ed25519PrivateKey key, MutableClock clock) {
    String method = METHODS.get(random.nextInt(METHODS.size()));
    URI uri = URIS.get(random.nextInt(URIS.size()));
    byte[] body = null;
    if (random.nextBoolean()) {
      body = new byte[1 + random.nextInt(64)];
      random.nextBytes(body);
    }
    SignedHeaders signed = new RequestSigner(key, clock, from(random)).sign(method, uri, body);
    return new Request(method, uri, new LinkedHashMap<>(signed.asMap()), body);
  }

  @Test
  void mutatedRequestsAreRefusedCleanlyAndNeverAcceptedWhenChanged() {
    long seed = seed();
    Random random = new Random(seed);
    MutableClock clock = new MutableClock(NOW);
    List<Ed25519PrivateKey> keys = List.of(key(1), key(2));
    // Signing is the slow part, so mutate copies drawn from a pool of signed requests.
    List<Request> pool = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      pool.add(signedRequest(random, keys.get(random.nextInt(2)), clock));
    }
    int accepted = 0;
    int unchanged = 0;
    Map<RequestAuthException.Reason, Integer> reasons =
        new EnumMap<>(RequestAuthException.Reason.class);
    for (int iteration = 0; iteration < 5_000; iteration++) {
      Request original = pool.get(random.nextInt(pool.size()));
      Request donor = pool.get(random.nextInt(pool.size()));
      Map<String, String> headers = new LinkedHashMap<>(original.headers());
      byte[] body = original.body() == null ? null : original.body().clone();
      boolean mutate = random.nextInt(20) != 0;
      if (mutate) {
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
          int what = random.nextInt(10);
          if (what == 0) {
            body = mutateBody(random, body);
          } else if (what == 1) {
            headers.remove(HEADER_NAMES[random.nextInt(HEADER_NAMES.length)]);
          } else {
            String name = HEADER_NAMES[random.nextInt(HEADER_NAMES.length)];
            String value = headers.get(name);
            String donorValue = donor.headers().get(name);
            if (value != null) {
              headers.put(name, mutate(random, value, donorValue));
            } else if (donorValue != null && random.nextBoolean()) {
              headers.put(name, donorValue);
            }
          }
        }
      }

      // A fresh nonce cache per request, so that an unchanged request is not a replay.
      RequestVerifier verifier = new RequestVerifier(clock, SKEW, new NonceCache(clock, SKEW));
      try {
        VerifiedCaller caller =
            verifier.verify(original.method(), original.uri(), lookup(headers), body);
        accepted++;
        boolean same = sameRequest(original, headers, body);
        if (!same) {
          fail(
              "seed %d iteration %d: accepted a changed request%n  original %s%n  mutated  %s%n"
                  + "  body changed: %s",
              seed, iteration, original.headers(), headers, !sameBody(original.body(), body));
        }
        assertThat(caller.key()).isIn(keys.get(0).publicKey(), keys.get(1).publicKey());
      } catch (RequestAuthException e) {
        reasons.merge(e.reason(), 1, Integer::sum);
        assertThat(e.getMessage()).doesNotContain("\n", "\r");
        if (!mutate) {
          fail("seed %d iteration %d: refused an unchanged request: %s", seed, iteration, e);
        }
      } catch (RuntimeException | Error e) {
        throw new AssertionError(
            "seed " + seed + " iteration " + iteration + ": " + e + "\n  headers " + headers, e);
      }
      if (!mutate) {
        unchanged++;
      }
    }
    System.out.println(
        "accepted " + accepted + " (" + unchanged + " unchanged), refused " + reasons);
    assertThat(accepted).isGreaterThanOrEqualTo(unchanged).isPositive();
    // The mutations reach past the parsers to the later checks.
    assertThat(reasons)
        .containsKeys(
            RequestAuthException.Reason.MALFORMED_SIGNATURE_INPUT,
            RequestAuthException.Reason.MALFORMED_SIGNATURE,
            RequestAuthException.Reason.CONTENT_DIGEST_MISMATCH,
            RequestAuthException.Reason.BAD_SIGNATURE);
  }

  @Test
  void randomGarbageIsRefusedCleanly() {
    long seed = seed();
    Random random = new Random(seed);
    MutableClock clock = new MutableClock(NOW);
    RequestVerifier verifier = new RequestVerifier(clock, SKEW, new NonceCache(clock, SKEW));
    URI uri = URIS.get(0);
    for (int iteration = 0; iteration < 10_000; iteration++) {
      Map<String, String> headers = new LinkedHashMap<>();
      for (String name : HEADER_NAMES) {
        if (random.nextInt(4) != 0) {
          headers.put(name, garbage(random));
        }
      }
      byte[] body = random.nextBoolean() ? new byte[] {1, 2, 3} : null;
      try {
        verifier.verify("POST", uri, lookup(headers), body);
        fail("seed %d iteration %d: accepted garbage %s", seed, iteration, headers);
      } catch (RequestAuthException expected) {
        // the only acceptable outcome
      } catch (RuntimeException | Error e) {
        throw new AssertionError(
            "seed " + seed + " iteration " + iteration + ": " + e + "\n  headers " + headers, e);
      }
    }
  }

  /** Random text biased toward the shape of a real header, so parsing gets past the first byte. */
  private static String garbage(Random random) {
    StringBuilder out = new StringBuilder();
    if (random.nextBoolean()) {
      out.append(random.nextBoolean() ? "sig1=" : "sha-256=");
      out.append(random.nextBoolean() ? "(" : ":");
    }
    int length = random.nextInt(10) == 0 ? random.nextInt(6000) : random.nextInt(120);
    for (int i = 0; i < length; i++) {
      out.append(
          random.nextInt(3) == 0
              ? (char) random.nextInt(0x3000)
              : INTERESTING.charAt(random.nextInt(INTERESTING.length())));
    }
    return out.toString();
  }

  private static String mutate(Random random, String value, String donor) {
    StringBuilder text = new StringBuilder(value);
    int at = text.isEmpty() ? 0 : random.nextInt(text.length());
    switch (random.nextInt(9)) {
      case 0 -> { // replace a character
        if (!text.isEmpty()) {
          text.setCharAt(at, randomChar(random));
        }
      }
      case 1 -> text.insert(random.nextInt(text.length() + 1), randomChar(random));
      case 2 -> { // delete a character
        if (!text.isEmpty()) {
          text.deleteCharAt(at);
        }
      }
      case 3 -> text.setLength(random.nextInt(text.length() + 1)); // truncate
      case 4 -> { // duplicate a slice
        int end = at + random.nextInt(text.length() - at + 1);
        text.insert(end, text.substring(at, end));
      }
      case 5 -> { // swap two characters
        if (text.length() > 1) {
          int other = random.nextInt(text.length());
          char c = text.charAt(at);
          text.setCharAt(at, text.charAt(other));
          text.setCharAt(other, c);
        }
      }
      case 6 -> { // splice in a piece of another valid header
        if (donor != null && !donor.isEmpty()) {
          int from = random.nextInt(donor.length());
          int to = from + random.nextInt(donor.length() - from + 1);
          int end = Math.min(text.length(), at + (to - from));
          text.replace(at, end, donor.substring(from, to));
        }
      }
      case 7 -> { // bump a digit
        for (int i = at; i < text.length(); i++) {
          if (Character.isDigit(text.charAt(i))) {
            text.setCharAt(i, (char) ('0' + (text.charAt(i) - '0' + 1 + random.nextInt(9)) % 10));
            break;
          }
        }
      }
      default -> { // flip the case of a letter
        for (int i = at; i < text.length(); i++) {
          char c = text.charAt(i);
          if (Character.isLetter(c)) {
            text.setCharAt(
                i, Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
            break;
          }
        }
      }
    }
    return text.toString();
  }

  private static char randomChar(Random random) {
    return random.nextInt(4) == 0
        ? (char) random.nextInt(0x10000)
        : INTERESTING.charAt(random.nextInt(INTERESTING.length()));
  }

  private static byte[] mutateBody(Random random, byte[] body) {
    if (body == null || body.length == 0) {
      return random.nextBoolean() ? new byte[] {(byte) random.nextInt()} : new byte[0];
    }
    byte[] out =
        random.nextBoolean() ? body.clone() : Arrays.copyOf(body, random.nextInt(body.length + 2));
    if (out.length > 0 && random.nextBoolean()) {
      out[random.nextInt(out.length)] ^= (byte) (1 + random.nextInt(255));
    }
    return out;
  }

  private static boolean sameRequest(Request original, Map<String, String> headers, byte[] body) {
    if (!sameBody(original.body(), body)) {
      return false;
    }
    List<String> relevant = new ArrayList<>(List.of("Signature-Input", "Signature"));
    if (original.body() != null) {
      relevant.add("Content-Digest");
    }
    for (String name : relevant) {
      String value = headers.get(name);
      // Surrounding SP and HTAB are not part of a field value (RFC 9110 section 5.5).
      if (value == null
          || !value.replaceAll("^[ \t]+|[ \t]+$", "").equals(original.headers().get(name))) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameBody(byte[] a, byte[] b) {
    boolean emptyA = a == null || a.length == 0;
    boolean emptyB = b == null || b.length == 0;
    return (emptyA && emptyB) || Arrays.equals(a, b);
  }
}
