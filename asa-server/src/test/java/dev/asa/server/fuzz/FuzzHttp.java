package dev.asa.server.fuzz;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The one place the fuzz tests send raw HTTP requests from: java.net.http over HTTP/1.1, no
 * redirects, nothing added or checked on the way. Anything a request needs on every call (e.g.
 * request-signature headers) belongs in {@link #send}.
 */
final class FuzzHttp {

  /** One header as sent; the value may hold anything java.net.http lets through. */
  record Header(String name, String value) {}

  /**
   * A raw request. {@code target} is the path and query exactly as sent (already percent-encoded);
   * {@code body} null sends no body; {@code chunked} streams the body without a Content-Length.
   */
  record Request(String method, String target, List<Header> headers, byte[] body, boolean chunked) {

    /** What a person needs to replay the request by hand: method, target, headers, body prefix. */
    String describe() {
      StringBuilder s = new StringBuilder();
      s.append(method).append(' ').append(abbreviate(target, 300));
      for (Header h : headers) {
        s.append("\n    ").append(h.name()).append(": ").append(printable(abbreviate(h.value(), 120)))
            .append(h.value().length() > 120 ? " (" + h.value().length() + " chars)" : "");
      }
      if (body == null) {
        s.append("\n    (no body)");
      } else {
        s.append("\n    body ").append(body.length).append(" bytes").append(chunked ? ", chunked" : "").append(": ")
            .append(printable(new String(body, 0, Math.min(body.length, 240), StandardCharsets.ISO_8859_1)));
        if (body.length > 240) {
          s.append("...");
        }
      }
      return s.toString();
    }
  }

  /** The answer: status, headers and the raw body bytes. */
  record Answer(int status, HttpHeaders headers, byte[] body) {
    String contentType() {
      return headers.firstValue("content-type").orElse("");
    }

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final String base;
  private final HttpClient http;

  FuzzHttp(String baseUrl) {
    this.base = baseUrl;
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** Builds the request exactly as given and sends it; the single entry point for raw requests. */
  Answer send(Request r) throws IOException, InterruptedException {
    HttpRequest.BodyPublisher publisher;
    if (r.body() == null) {
      publisher = HttpRequest.BodyPublishers.noBody();
    } else if (r.chunked()) {
      byte[] bytes = r.body();
      publisher = HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes));
    } else {
      publisher = HttpRequest.BodyPublishers.ofByteArray(r.body());
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + r.target()))
        .timeout(Duration.ofSeconds(60))
        .method(r.method(), publisher);
    for (Header h : r.headers()) {
      b.header(h.name(), h.value());
    }
    HttpResponse<byte[]> response = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.headers(), response.body());
  }

  static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "...";
  }

  /** Control and non-ASCII characters as \\uXXXX, so a report shows exactly what was sent. */
  static String printable(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
