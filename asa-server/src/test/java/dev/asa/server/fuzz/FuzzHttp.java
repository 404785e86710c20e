package dev.asa.server.fuzz;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.testing.Fixtures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one place the fuzz tests send raw HTTP requests from: java.net.http over HTTP/1.1, no
 * redirects. The only thing added on the way is the RFC 9421 request signature (Content-Digest,
 * Signature-Input, Signature) of the key the request names, made in {@link #send} over exactly the
 * method, target and body bytes that are sent.
 */
final class FuzzHttp {

  /** One header as sent; the value may hold anything java.net.http lets through. */
  record Header(String name, String value) {}

  /**
   * A raw request. {@code target} is the path and query exactly as sent (already percent-encoded);
   * {@code body} null sends no body; {@code chunked} streams the body without a Content-Length;
   * {@code signer} names the {@link Fixtures#key} that signs it, null for an unsigned request.
   */
  record Request(
      String method,
      String target,
      List<Header> headers,
      byte[] body,
      boolean chunked,
      String signer) {

    /** What a person needs to replay the request by hand: method, target, headers, body prefix. */
    String describe() {
      StringBuilder s = new StringBuilder();
      s.append(method)
          .append(' ')
          .append(abbreviate(target, 300))
          .append(signer == null ? "  (unsigned)" : "  (signed by " + signer + ")");
      for (Header h : headers) {
        s.append("\n    ")
            .append(h.name())
            .append(": ")
            .append(printable(abbreviate(h.value(), 120)))
            .append(h.value().length() > 120 ? " (" + h.value().length() + " chars)" : "");
      }
      if (body == null) {
        s.append("\n    (no body)");
      } else {
        s.append("\n    body ")
            .append(body.length)
            .append(" bytes")
            .append(chunked ? ", chunked" : "")
            .append(": ")
            .append(
                printable(
                    new String(body, 0, Math.min(body.length, 240), StandardCharsets.ISO_8859_1)));
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
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Ed25519PrivateKey> keys = new ConcurrentHashMap<>();

  /** {@code clock} stamps the signatures: the server's own, so that a test may move it. */
  FuzzHttp(String baseUrl, Clock clock) {
    this.base = baseUrl;
    this.clock = clock;
    this.http =
        HttpClient.newBuilder()
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
    URI uri = URI.create(base + r.target());
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).method(r.method(), publisher);
    for (Header h : r.headers()) {
      b.header(h.name(), h.value());
    }
    if (r.signer() != null) {
      Ed25519PrivateKey key = keys.computeIfAbsent(r.signer(), Fixtures::key);
      byte[] signed = r.body() == null ? new byte[0] : r.body();
      new RequestSigner(key, clock, random)
          .sign(r.method(), uri, signed)
          .asMap()
          .forEach(b::header);
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
