package dev.asa.server.escrow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.asa.json.Json;
import dev.asa.server.escrow.x402.Requirements;
import dev.asa.server.escrow.x402.X402;
import dev.asa.server.net.DestinationRefusedException;
import dev.asa.server.net.FetchLimits;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.net.OutboundRequest;
import dev.asa.server.net.OutboundResponse;
import dev.asa.server.net.OutboundTimeoutException;
import dev.asa.server.store.escrow.OutboxMessage;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * Client of an x402 (protocol version 2) facilitator: {@code POST /verify} synchronously when an
 * escrow is funded, and {@code POST /settle} as the {@link Courier} of the outbox when it closes.
 *
 * <p>Every exchange is bounded: one deadline for the whole answer, answers of at most {@value
 * #MAX_RESPONSE_BYTES} bytes, no redirects (a facilitator that moved is a configuration change, not
 * something to follow with a payment in hand), and through the {@link GuardedHttpClient}: a
 * facilitator on an internal address needs {@code asa serve --allow-fetch} like any other.
 */
public final class X402Facilitator implements Courier {

  /** Largest facilitator answer read; VerifyResponse and SettleResponse are a few hundred bytes. */
  public static final int MAX_RESPONSE_BYTES = 64 * 1024;

  private final URI baseUrl;
  private final Duration timeout;
  private final GuardedHttpClient http;
  private final FetchLimits limits;

  /** What the facilitator said about a payment authorization. */
  public record VerifyResult(boolean isValid, String invalidReason, String payer) {}

  /**
   * One payment kind the facilitator supports ({@code GET /supported}, x402 version 2 only).
   *
   * @param extra what the facilitator adds to requirements of this kind (for {@code upto}, its
   *     {@code facilitatorAddress}), or null
   */
  public record Kind(String scheme, String network, ObjectNode extra) {
    public Kind {
      Objects.requireNonNull(scheme, "scheme");
      Objects.requireNonNull(network, "network");
      extra = extra == null ? null : extra.deepCopy();
    }

    @Override
    public ObjectNode extra() {
      return extra == null ? null : extra.deepCopy();
    }
  }

  /**
   * How long an answer of {@code GET /supported} is used before it is asked again in the
   * background; meanwhile, and for an hour if the facilitator stops answering, the last answer
   * stands.
   */
  static final Duration SUPPORTED_REFRESH = Duration.ofMinutes(10);

  private final LoadingCache<String, List<Kind>> supported =
      Caffeine.newBuilder()
          .refreshAfterWrite(SUPPORTED_REFRESH)
          .expireAfterWrite(Duration.ofHours(1))
          .build(key -> fetchSupported());

  /**
   * The facilitator could not give an answer (unreachable, timed out, non-2xx, unreadable): the
   * payment is neither accepted nor refused, and the request may be repeated later.
   */
  public static final class FacilitatorUnavailableException extends RuntimeException {
    public FacilitatorUnavailableException(String message) {
      super(message);
    }

    public FacilitatorUnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * @param baseUrl the facilitator, e.g. {@code https://x402.org/facilitator}; {@code /verify} and
   *     {@code /settle} are appended
   * @param timeout the most one exchange may take, connecting included
   * @param http the guarded client every exchange goes through
   */
  public X402Facilitator(URI baseUrl, Duration timeout, GuardedHttpClient http) {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(timeout, "timeout");
    if (!"http".equals(baseUrl.getScheme()) && !"https".equals(baseUrl.getScheme())
        || baseUrl.getHost() == null) {
      throw new IllegalArgumentException(
          "the facilitator URL must be an absolute http(s) URL, not " + baseUrl);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          "the facilitator timeout must be positive, not " + timeout);
    }
    String s = baseUrl.toString();
    this.baseUrl = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    this.timeout = timeout;
    this.http = Objects.requireNonNull(http, "http");
    this.limits = FetchLimits.of(timeout, MAX_RESPONSE_BYTES);
  }

  /** Where settlements go: what an outbox message's {@code destination} should say. */
  public URI settleUri() {
    return URI.create(baseUrl + "/settle");
  }

  public URI verifyUri() {
    return URI.create(baseUrl + "/verify");
  }

  public URI supportedUri() {
    return URI.create(baseUrl + "/supported");
  }

  /**
   * The kind the facilitator supports for {@code scheme} on {@code network}, if it does; from its
   * {@code GET /supported}, kept for {@link #SUPPORTED_REFRESH}.
   *
   * @throws FacilitatorUnavailableException when the facilitator has not answered (and no earlier
   *     answer is at hand)
   */
  public Optional<Kind> kind(String scheme, String network) {
    List<Kind> kinds;
    try {
      kinds = supported.get("supported");
    } catch (CompletionException | IllegalStateException e) {
      throw e.getCause() instanceof FacilitatorUnavailableException u
          ? u
          : new FacilitatorUnavailableException(
              "the x402 facilitator at " + supportedUri() + " failed: " + e.getMessage(), e);
    }
    return kinds.stream()
        .filter(k -> k.scheme().equals(scheme) && k.network().equals(network))
        .findFirst();
  }

  /** What {@link #kind} says the facilitator supports, for messages: "upto on eip155:84532". */
  public List<String> kindsSupported() {
    return supported.get("supported").stream().map(k -> k.scheme() + " on " + k.network()).toList();
  }

  private List<Kind> fetchSupported() {
    OutboundResponse response;
    try {
      response =
          http.send(
              OutboundRequest.get(supportedUri(), Map.of("Accept", "application/json")), limits);
    } catch (IOException | RuntimeException e) {
      throw new FacilitatorUnavailableException(
          "the x402 facilitator at " + supportedUri() + " could not be reached: " + describe(e), e);
    }
    JsonNode json = response.truncated() ? null : parse(response.body());
    if (response.status() / 100 != 2 || json == null || !json.path("kinds").isArray()) {
      throw new FacilitatorUnavailableException(
          "the x402 facilitator at "
              + supportedUri()
              + " answered HTTP "
              + response.status()
              + " without a SupportedResponse (an object with a kinds array)"
              + snippet(response.body()));
    }
    List<Kind> kinds = new ArrayList<>();
    for (JsonNode k : json.get("kinds")) {
      if (k.path("x402Version").asInt() == X402.VERSION
          && k.path("scheme").isTextual()
          && k.path("network").isTextual()) {
        kinds.add(
            new Kind(
                k.get("scheme").textValue(),
                k.get("network").textValue(),
                k.path("extra").isObject() ? (ObjectNode) k.get("extra") : null));
      }
    }
    return List.copyOf(kinds);
  }

  /**
   * Asks the facilitator whether the payment authorization is valid for the requirements
   * (signature, balance, amount, time window); nothing moves on chain.
   *
   * @throws FacilitatorUnavailableException when there is no answer to act on; the caller answers
   *     502/503 and the client may retry
   */
  public VerifyResult verify(ObjectNode payload, Requirements requirements) {
    Exchange answer;
    try {
      answer = post(verifyUri(), X402.verifyBody(payload, requirements), null);
    } catch (Failure f) {
      throw new FacilitatorUnavailableException(
          "the x402 facilitator at " + verifyUri() + " " + f.getMessage(), f.getCause());
    }
    JsonNode json = parse(answer.body());
    boolean definitive =
        answer.status() / 100 == 2
            // Some facilitators refuse a payment with a 4xx that still carries a VerifyResponse.
            || answer.status() / 100 == 4
                && answer.status() != 408
                && answer.status() != 429
                && json != null
                && json.path("isValid").isBoolean()
                && !json.get("isValid").booleanValue();
    if (!definitive) {
      throw new FacilitatorUnavailableException(
          "the x402 facilitator at "
              + verifyUri()
              + " answered HTTP "
              + answer.status()
              + snippet(answer.body()));
    }
    if (json == null || !json.isObject() || !json.path("isValid").isBoolean()) {
      throw new FacilitatorUnavailableException(
          "the x402 facilitator at "
              + verifyUri()
              + " answered without a VerifyResponse (a JSON object with a boolean isValid)"
              + snippet(answer.body()));
    }
    boolean valid = json.get("isValid").booleanValue();
    String reason =
        explained(json, "invalidReason", "invalidMessage", "the facilitator gave no reason");
    String payer = json.path("payer").isTextual() ? json.get("payer").textValue() : null;
    return new VerifyResult(valid, valid ? null : reason, payer);
  }

  /**
   * Sends one settlement ({@code message.body()} is an {@link X402#settleBody} request) to the
   * facilitator's {@code /settle}. A 2xx SettleResponse with {@code success: true} is delivered,
   * one with {@code success: false} has failed for good (the facilitator refused the payment);
   * anything else may succeed later and is retried. The message id travels as {@code
   * Idempotency-Key}, which facilitators may use; the authorization's nonce is what really stops a
   * second charge.
   */
  @Override
  public Attempt deliver(OutboxMessage message) {
    Exchange answer;
    try {
      answer = post(settleUri(), message.body(), message.id());
    } catch (Failure f) {
      return new Attempt.Retry("the x402 facilitator at " + settleUri() + " " + f.getMessage());
    }
    int status = answer.status();
    JsonNode json = parse(answer.body());
    boolean settleResponse = json != null && json.isObject() && json.path("success").isBoolean();
    if (status / 100 == 2) {
      if (!settleResponse) {
        return new Attempt.Retry(
            "the x402 facilitator at "
                + settleUri()
                + " answered HTTP "
                + status
                + " without a SettleResponse (a JSON object with a boolean success)"
                + snippet(answer.body()));
      }
      if (json.get("success").booleanValue()) {
        return new Attempt.Delivered(status, Json.write(json));
      }
      return new Attempt.Failed(reasonOf(json));
    }
    // A 4xx that carries a refusal is as final as the same refusal with 200; other answers may
    // change.
    if (status / 100 == 4
        && status != 408
        && status != 429
        && settleResponse
        && !json.get("success").booleanValue()) {
      return new Attempt.Failed(reasonOf(json));
    }
    return new Attempt.Retry(
        "the x402 facilitator at "
            + settleUri()
            + " answered HTTP "
            + status
            + snippet(answer.body()));
  }

  private static String reasonOf(JsonNode settleResponse) {
    return explained(
        settleResponse,
        "errorReason",
        "errorMessage",
        "the facilitator refused the settlement without a reason");
  }

  /**
   * The facilitator's machine-readable reason and, when it sent one, its message for people
   * ("invalid_exact_evm_payload_signature: the signature does not match the payer"), each made
   * printable and kept short: it is quoted in an error answer and kept in the outbox.
   */
  static String explained(JsonNode response, String reasonField, String messageField, String none) {
    String reason =
        printable(
            response.path(reasonField).isTextual() ? response.get(reasonField).textValue() : null);
    String message =
        printable(
            response.path(messageField).isTextual()
                ? response.get(messageField).textValue()
                : null);
    if (reason == null) {
      return message == null ? none : message;
    }
    return message == null ? reason : reason + ": " + message;
  }

  /**
   * The facilitator's text shortened and made printable, as a webhook's answer is; null for blank.
   */
  private static String printable(String text) {
    return text == null || text.isBlank() ? null : WebhookCourier.printable(text.strip(), 300);
  }

  // ---------------------------------------------------------------------------------------------

  private record Exchange(int status, byte[] body) {}

  /** No usable answer; the message says why, phrased to follow "the facilitator at URL ". */
  private static final class Failure extends Exception {
    Failure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private Exchange post(URI uri, String body, String idempotencyKey) throws Failure {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("Accept", "application/json");
    if (idempotencyKey != null) {
      headers.put("Idempotency-Key", idempotencyKey);
    }
    OutboundResponse response;
    try {
      // The limits' deadline covers the whole answer, body included.
      response =
          http.send(
              OutboundRequest.post(uri, headers, body.getBytes(StandardCharsets.UTF_8)), limits);
    } catch (DestinationRefusedException e) {
      throw new Failure("is not an allowed destination: " + e.getMessage(), e);
    } catch (OutboundTimeoutException e) {
      throw new Failure("did not answer within " + timeout.toMillis() + " ms", e);
    } catch (IOException e) {
      throw new Failure("could not be reached: " + describe(e), e);
    } catch (RuntimeException e) {
      throw new Failure("failed: " + describe(e), e);
    }
    if (response.truncated()) {
      throw new Failure("answered more than " + MAX_RESPONSE_BYTES + " bytes", null);
    }
    return new Exchange(response.status(), response.body());
  }

  private static String describe(Throwable t) {
    return t.getMessage() == null
        ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  private static JsonNode parse(byte[] body) {
    try {
      return body.length == 0 ? null : Json.parse(body);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  /** A short, printable excerpt of an answer for error messages. */
  private static String snippet(byte[] body) {
    if (body.length == 0) {
      return "";
    }
    String s =
        new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8)
            .replaceAll("\\p{Cntrl}", " ");
    return ": " + s + (body.length > 200 ? "..." : "");
  }
}
