package dev.asa.server.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a client may take to send a request, so that slow clients cannot hold connections (and
 * the threads and memory behind them) open at will.
 *
 * @param head from the moment a connection opens, or its previous response completes, until the
 *     request line and headers have arrived in full; also the connection's idle timeout (no byte
 *     either way for this long closes it). Trickling one header byte at a time does not extend it.
 * @param body from the moment the head has arrived until the body has arrived in full; a body still
 *     incomplete then is an aborted upload (16 MiB, the largest body, needs about 140 KB/s to
 *     arrive within the default)
 */
public record ReadDeadlines(Duration head, Duration body) {

  public static final ReadDeadlines DEFAULTS =
      new ReadDeadlines(Duration.ofSeconds(30), Duration.ofSeconds(120));

  public ReadDeadlines {
    Objects.requireNonNull(head, "head");
    Objects.requireNonNull(body, "body");
    if (head.isNegative() || head.isZero() || body.isNegative() || body.isZero()) {
      throw new IllegalArgumentException(
          "read deadlines must be positive, not " + head + " and " + body);
    }
  }
}
