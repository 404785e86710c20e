package dev.asa.server.http;

import dev.asa.access.Caller;
import dev.asa.server.metrics.Metrics;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import org.eclipse.jetty.ee10.servlet.ServletContextResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One access-log line and one metrics sample per request, and the request id ({@link RequestIds})
 * for everything in between: given before any handler runs (so refusals carry it too), put in the
 * MDC so every line logged while the request runs has it, and answered as a header.
 *
 * <p>The line names the route template next to the path, the status, the time taken, the bytes sent
 * and the key that signed the request; never a header value, a query or a body.
 */
public final class AccessLog {
  private static final Logger log = LoggerFactory.getLogger("dev.asa.server.access");
  static final String MDC_KEY = "request_id";

  /** The route of requests that matched none (404s); paths never become metric tags. */
  static final String UNMATCHED = "unmatched";

  private final Metrics metrics;

  public AccessLog(Metrics metrics) {
    this.metrics = metrics;
  }

  /** Gives each request its id first, and logs it once its answer has been written. */
  public void install(JavalinConfig config) {
    config.routes.before(this::begin);
    config.requestLogger.http(this::end);
  }

  private void begin(Context ctx) {
    String id = RequestIds.accept(ctx.header(RequestIds.HEADER));
    ctx.attribute(RequestIds.ATTRIBUTE, id);
    ctx.header(RequestIds.HEADER, id);
    MDC.put(MDC_KEY, id);
  }

  private void end(Context ctx, Float millis) {
    try {
      Endpoint endpoint = ctx.endpoints().matchedHttpEndpoint();
      String route = endpoint == null ? UNMATCHED : endpoint.path;
      String method = ctx.method().name();
      int status = ctx.statusCode();
      metrics.request(route, method, status, (long) (millis * 1_000_000));
      if (!log.isInfoEnabled()) {
        return;
      }
      MDC.put(MDC_KEY, RequestIds.of(ctx)); // the same thread, but a refusal may have cleared it
      long bytes = bytesSent(ctx);
      String path = printable(ctx.path());
      String caller = Authentication.verified(ctx) instanceof Caller.Key k ? k.keyId() : null;
      long ms = Math.round(millis);
      log.atInfo()
          .setMessage("{} {} {} {} ms {} B{}")
          .addArgument(method)
          .addArgument(path)
          .addArgument(status)
          .addArgument(ms)
          .addArgument(bytes)
          .addArgument(caller == null ? "" : " key " + caller)
          .addKeyValue("event", "access")
          .addKeyValue("method", method)
          .addKeyValue("route", route)
          .addKeyValue("path", path)
          .addKeyValue("status", status)
          .addKeyValue("duration_ms", ms)
          .addKeyValue("bytes", bytes)
          .addKeyValue("caller", caller)
          .log();
    } finally {
      MDC.remove(MDC_KEY);
    }
  }

  /**
   * The body bytes the handlers wrote, as Jetty's servlet output counted them (what reached the
   * wire may be fewer, for a HEAD, or more, with chunk framing); -1 if unknown.
   */
  private static long bytesSent(Context ctx) {
    ServletContextResponse response = ServletContextResponse.getServletContextResponse(ctx.res());
    return response == null ? -1 : response.getHttpOutput().getWritten();
  }

  /** The path with control characters replaced, so it cannot forge a text log line. */
  static String printable(String path) {
    for (int i = 0; i < path.length(); i++) {
      if (Character.isISOControl(path.charAt(i))) {
        return path.replaceAll("\\p{Cntrl}", "?");
      }
    }
    return path;
  }
}
