package dev.asa.server.http;

import io.javalin.http.Context;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request body that stopped arriving: the client closed the connection half-way, or missed the
 * body deadline ({@link ReadDeadlines}). That is the client's doing and routine on the internet, so
 * it is logged in one line (method, path, address, what happened), not as a stack trace; the
 * answer, if the connection still takes one, is a 400.
 */
final class AbortedUpload {
  private static final Logger log = LoggerFactory.getLogger(AbortedUpload.class);

  private AbortedUpload() {}

  /**
   * What to throw for a failure while reading the body: a {@link RequestException} after one log
   * line when the read failed on I/O (an aborted upload), otherwise the failure itself.
   */
  static RuntimeException from(Context ctx, Exception failure) {
    Throwable io = first(failure, IOException.class);
    if (io == null) {
      return failure instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException("reading the request body failed", failure);
    }
    // A deadline (ours, or Jetty's idle timeout) closes the connection with a TimeoutException
    // that says which; otherwise the client went away.
    Throwable timeout = first(failure, TimeoutException.class);
    String what =
        timeout != null
            ? timeout.getMessage()
            : "the connection ended before the body was complete";
    // The path is the client's text: control characters are replaced so it cannot forge log lines.
    String path = ctx.path().replaceAll("[\\p{Cntrl}]", "?");
    log.warn(
        "aborted upload: {} {} from {} (Content-Length {}): {} [{}]",
        ctx.method(),
        path,
        ctx.ip(),
        ctx.contentLength(),
        what,
        io.getClass().getSimpleName());
    return new RequestException(
        Problem.of(
            "aborted-upload",
            "Request body incomplete",
            400,
            "the request body did not arrive in full: " + what));
  }

  private static Throwable first(Throwable failure, Class<? extends Throwable> kind) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (kind.isInstance(t)) {
        return t;
      }
    }
    return null;
  }
}
