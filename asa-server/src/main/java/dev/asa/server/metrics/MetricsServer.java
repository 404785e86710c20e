package dev.asa.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics} on a plain port of its own ({@code asa serve --metrics-port}), for a scraper
 * that cannot sign requests. Unauthenticated by design, so it binds where the operator says
 * (loopback by default) and answers nothing else. The JDK's small HTTP server is enough for one
 * scrape every few seconds and keeps this port apart from the API's Jetty.
 */
public final class MetricsServer implements AutoCloseable {
  private final HttpServer server;

  private MetricsServer(HttpServer server) {
    this.server = server;
  }

  /** Serves {@code metrics} at {@code http://bind:port/metrics}; port 0 picks a free one. */
  public static MetricsServer start(String bind, int port, Metrics metrics) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(bind, port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "could not listen for metrics on " + bind + ":" + port + ": " + e.getMessage(), e);
    }
    server.createContext("/", exchange -> answer(exchange, metrics));
    server.start();
    return new MetricsServer(server);
  }

  private static void answer(HttpExchange exchange, Metrics metrics) throws IOException {
    try (exchange) {
      boolean get = exchange.getRequestMethod().equals("GET");
      if (!exchange.getRequestURI().getPath().equals("/metrics") || !get) {
        exchange.sendResponseHeaders(get ? 404 : 405, -1);
        return;
      }
      byte[] body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", Metrics.CONTENT_TYPE);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
