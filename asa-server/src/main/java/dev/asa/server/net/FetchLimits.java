package dev.asa.server.net;

import java.time.Duration;
import java.util.Objects;

/**
 * How much one outbound exchange may cost: time to connect, time for everything (connecting, TLS,
 * sending, the whole answer), and answer bytes kept. Each caller picks its own: a deliverable may
 * be as large as a request body, a webhook's answer is a receipt.
 *
 * @param connect the longest wait until the request is on the wire: connecting (to any of the
 *     host's addresses) and, for https, the TLS handshake
 * @param total the deadline of the whole exchange; a server trickling bytes is cut off here
 * @param maxResponseBytes answer bytes read at most; what lies beyond is never read
 */
public record FetchLimits(Duration connect, Duration total, long maxResponseBytes) {

  public FetchLimits {
    Objects.requireNonNull(connect, "connect");
    Objects.requireNonNull(total, "total");
    if (connect.isNegative() || connect.isZero() || total.isNegative() || total.isZero()) {
      throw new IllegalArgumentException(
          "fetch timeouts must be positive, got connect " + connect + ", total " + total);
    }
    if (maxResponseBytes < 0 || maxResponseBytes > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "maxResponseBytes must be between 0 and 2 GiB, got " + maxResponseBytes);
    }
  }

  /** The same timeout for connecting and for the whole exchange. */
  public static FetchLimits of(Duration timeout, long maxResponseBytes) {
    return new FetchLimits(timeout, timeout, maxResponseBytes);
  }
}
