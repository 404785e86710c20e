package dev.asa.signedrequests;

import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The RFC 9421 check the server runs on every request ({@link RequestVerifier#verify}, as
 * asa-server's Authentication calls it): parse Signature-Input and Signature, check the parameters
 * and {@code created}, match Content-Digest against the body, rebuild the signature base, verify
 * Ed25519. The nonce registry here accepts every nonce, so the same signed request can be checked
 * again and again; recording nonces is the store's work, not measured here. Run with {@code ./asa
 * bench-core RequestVerifierBenchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class RequestVerifierBenchmark {

  private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

  private RequestVerifier verifier;
  private URI getUri;
  private Function<String, String> getHeaders;
  private URI postUri;
  private byte[] postBody;
  private Function<String, String> postHeaders;

  @Setup
  public void setUp() {
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    NonceRegistry acceptsAll =
        new NonceRegistry() {
          @Override
          public Duration maxSkew() {
            return RequestVerifier.DEFAULT_MAX_SKEW;
          }

          @Override
          public boolean firstUse(String keyId, String nonce, Instant created) {
            return true;
          }
        };
    verifier = new RequestVerifier(clock, RequestVerifier.DEFAULT_MAX_SKEW, acceptsAll);
    RequestSigner signer = new RequestSigner(Fixtures.key("alice"), clock, new SecureRandom());

    getUri = URI.create("https://asa.example.org/agreements/asa-bench-0001");
    getHeaders = HttpTesting.lookup(signer.sign("GET", getUri, null).asMap());

    // A create request: the general template's partial document as the body (about 1 KB).
    postUri = URI.create("https://asa.example.org/agreements");
    postBody = Json.writeBytes(Fixtures.general());
    postHeaders = HttpTesting.lookup(signer.sign("POST", postUri, postBody).asMap());

    verifyGet();
    verifyPost(); // throws if the setup is wrong
  }

  /** A request without a body (GET). */
  @Benchmark
  public VerifiedCaller verifyGet() {
    return verifier.verify("GET", getUri, getHeaders, null);
  }

  /** A request with a body (POST /agreements): Content-Digest is also checked against the body. */
  @Benchmark
  public VerifiedCaller verifyPost() {
    return verifier.verify("POST", postUri, postHeaders, postBody);
  }
}
