package dev.asa.server.escrow;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.server.net.DestinationRefusedException;
import dev.asa.server.net.FetchLimits;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.net.OutboundRequest;
import dev.asa.server.net.OutboundResponse;
import dev.asa.server.net.OutboundTimeoutException;
import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.signedrequests.StandardWebhooks;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Delivers outbox messages as Standard Webhooks (https://www.standardwebhooks.com): an HTTP POST of
 * the JSON body, signed with the server's Ed25519 key ({@code v1a}), so the receiver can check the
 * sender with our public key alone and deduplicate on {@code webhook-id}, which is the outbox
 * message id and so the same on every retry.
 *
 * <p>Every failure of the receiver or the network becomes {@link Attempt.Retry} with a reason that
 * names it; the {@link Outbox} decides when to try again. Only a message that no retry can fix (a
 * destination that is not an http(s) URL) becomes {@link Attempt.Failed}. A destination the {@link
 * GuardedHttpClient} refuses (an internal address the operator did not allow) is retried: the
 * operator chose every webhook destination, so the fix is {@code --allow-fetch} and a restart,
 * after which the message goes out; nothing is sent meanwhile.
 *
 * <p>Each attempt is signed when it is sent, with the clock's time then: a receiver refuses old
 * timestamps, so a retry must not reuse the first attempt's signature.
 */
public final class WebhookCourier implements Courier, AutoCloseable {

  /** Longest response body kept in {@link Attempt.Delivered#response()}, in characters. */
  public static final int MAX_RECORDED_RESPONSE = 4096;

  /** Most response bytes read; the rest is dropped unread, so a receiver cannot exhaust memory. */
  static final int MAX_RESPONSE_BYTES = 64 * 1024;

  /** Longest piece of an error response quoted in a retry reason. */
  private static final int MAX_QUOTED_ERROR = 200;

  private final Ed25519PrivateKey serverKey;
  private final Clock clock;
  private final Duration timeout;
  private final GuardedHttpClient http;
  private final FetchLimits limits;

  /**
   * @param serverKey signs every delivery; receivers are given its public key
   * @param clock the time written in {@code webhook-timestamp}
   * @param timeout the longest one attempt may take: connecting, and the whole exchange
   * @param http the guarded client every delivery goes through; it never follows a redirect (which
   *     would send a signed message somewhere nobody configured: a 3xx is a non-2xx like any other)
   */
  public WebhookCourier(
      Ed25519PrivateKey serverKey, Clock clock, Duration timeout, GuardedHttpClient http) {
    this.serverKey = Objects.requireNonNull(serverKey, "serverKey");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.http = Objects.requireNonNull(http, "http");
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("the webhook timeout must be positive, got " + timeout);
    }
    this.limits = FetchLimits.of(timeout, MAX_RESPONSE_BYTES);
  }

  @Override
  public Attempt deliver(OutboxMessage message) {
    Objects.requireNonNull(message, "message");
    URI destination;
    OutboundRequest request;
    try {
      destination = URI.create(message.destination());
      long timestamp = clock.instant().getEpochSecond();
      request =
          OutboundRequest.post(
              destination,
              Map.of(
                  "Content-Type",
                  "application/json",
                  "User-Agent",
                  "asa-server",
                  StandardWebhooks.WEBHOOK_ID,
                  message.id(),
                  StandardWebhooks.WEBHOOK_TIMESTAMP,
                  Long.toString(timestamp),
                  StandardWebhooks.WEBHOOK_SIGNATURE,
                  StandardWebhooks.sign(message.id(), timestamp, message.body(), serverKey)),
              message.body().getBytes(StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      // Not an http(s) URL, no host, or an id that cannot be a header value: no retry fixes that.
      return new Attempt.Failed(
          "message "
              + message.id()
              + " cannot be sent as a webhook to "
              + printable(message.destination(), MAX_QUOTED_ERROR)
              + ": "
              + e.getMessage());
    }
    String where = describe(destination);

    OutboundResponse response;
    try {
      // The limits bound the whole exchange, body included, so a receiver trickling bytes cannot
      // hold a delivery thread; past MAX_RESPONSE_BYTES the answer is dropped unread.
      response = http.send(request, limits);
    } catch (DestinationRefusedException e) {
      return new Attempt.Retry("not sent: " + printable(e.getMessage(), 400));
    } catch (IOException | RuntimeException e) {
      return failure(e, where);
    }

    int status = response.status();
    String body = new String(response.body(), StandardCharsets.UTF_8);
    if (status / 100 == 2) {
      return new Attempt.Delivered(status, truncate(body, MAX_RECORDED_RESPONSE));
    }
    StringBuilder reason = new StringBuilder("HTTP ").append(status).append(" from ").append(where);
    if (status / 100 == 3) {
      reason.append(" (redirects are not followed; configure the final URL)");
    }
    if (!body.isBlank()) {
      reason.append(": ").append(printable(body.strip(), MAX_QUOTED_ERROR));
    }
    return new Attempt.Retry(reason.toString());
  }

  /** Nothing to release: the guarded client is shared, and its owner (the server) closes it. */
  @Override
  public void close() {}

  private Attempt failure(Throwable error, String where) {
    if (error instanceof OutboundTimeoutException) {
      return timedOut(where);
    }
    if (error instanceof ConnectException) {
      return new Attempt.Retry("connection refused: " + where + " (" + causes(error) + ")");
    }
    if (error instanceof IOException) {
      return new Attempt.Retry("I/O error delivering to " + where + ": " + causes(error));
    }
    // Nothing else is expected from the client; still the other side's doing as far as we can
    // tell (e.g. a TLS failure surfacing unchecked), so retry rather than throw into the outbox.
    return new Attempt.Retry("delivery to " + where + " failed: " + causes(error));
  }

  private Attempt timedOut(String where) {
    return new Attempt.Retry(
        "timed out after " + timeout.toMillis() + " ms delivering to " + where);
  }

  /**
   * The destination for a reason: scheme, host, port and path, never user info or query, which
   * often carry a receiver's secret token and would end up in logs and the outbox table.
   */
  static String describe(URI uri) {
    StringBuilder out = new StringBuilder();
    out.append(uri.getScheme()).append("://").append(uri.getHost());
    if (uri.getPort() >= 0) {
      out.append(':').append(uri.getPort());
    }
    if (uri.getRawPath() != null) {
      out.append(uri.getRawPath());
    }
    if (uri.getRawQuery() != null) {
      out.append("?…");
    }
    return printable(out.toString(), MAX_QUOTED_ERROR);
  }

  /** "ConnectException: Connection refused; ClosedChannelException", skipping repeated messages. */
  private static String causes(Throwable error) {
    StringBuilder out = new StringBuilder();
    String previous = "";
    Throwable t = error;
    for (int depth = 0; t != null && depth < 5; depth++, t = t.getCause()) {
      String message = t.getMessage();
      if (message != null && previous.contains(message)) {
        continue; // the JDK often wraps an exception in one that repeats its message
      }
      String text = t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
      out.append(out.isEmpty() ? "" : "; ").append(text);
      previous = text;
    }
    return printable(out.toString(), 400);
  }

  /** At most {@code max} characters, without splitting a surrogate pair. */
  private static String truncate(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
    return text.substring(0, end);
  }

  /** Text from the other side made safe for one log line: control characters escaped, shortened. */
  static String printable(String text, int max) {
    String cut = truncate(text, max);
    StringBuilder out = new StringBuilder(cut.length() + 8);
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    if (cut.length() < text.length()) {
      out.append("…");
    }
    return out.toString();
  }
}
