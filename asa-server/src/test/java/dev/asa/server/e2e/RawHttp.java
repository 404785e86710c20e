package dev.asa.server.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.signedrequests.SignedHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for attacks a well-behaved client cannot make: a forged {@code
 * Host}, repeated header lines, the exact bytes of a captured request sent again, a stalled
 * request. One request per connection ({@code Connection: close}).
 */
final class RawHttp {

  /** The answer: status line code, the raw head, and the body (problem+json when refused). */
  record Response(int status, String head, String body) {
    JsonNode json() {
      try {
        return Json.parse(body.getBytes(StandardCharsets.UTF_8));
      } catch (java.io.IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }

    String reason() {
      return json().path("reason").asText();
    }

    String detail() {
      return json().path("detail").asText();
    }
  }

  private RawHttp() {}

  /**
   * The bytes of a request signed by {@code key} for {@code signedFor} (scheme and authority, such
   * as {@code http://127.0.0.1:8080}) + {@code path}, sent with {@code Host: host}.
   */
  static byte[] signed(
      Ed25519PrivateKey key,
      String method,
      String signedFor,
      String path,
      String host,
      byte[] body) {
    SignedHeaders headers =
        new RequestSigner(key, Clock.systemUTC(), new SecureRandom())
            .sign(method, URI.create(signedFor + path), body);
    return request(method, path, host, headers.asMap(), List.of(), body);
  }

  /** A request with {@code headers} (one line each) then {@code extraLines} ("Name: value"). */
  static byte[] request(
      String method,
      String path,
      String host,
      Map<String, String> headers,
      List<String> extraLines,
      byte[] body) {
    StringBuilder head =
        new StringBuilder()
            .append(method)
            .append(' ')
            .append(path)
            .append(" HTTP/1.1\r\n")
            .append("Host: ")
            .append(host)
            .append("\r\n")
            .append("Connection: close\r\n");
    headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    extraLines.forEach(line -> head.append(line).append("\r\n"));
    if (body != null && body.length > 0) {
      head.append("Content-Type: application/json\r\n")
          .append("Content-Length: ")
          .append(body.length)
          .append("\r\n");
    }
    head.append("\r\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (body != null) {
      out.writeBytes(body);
    }
    return out.toByteArray();
  }

  /** Sends {@code request} to 127.0.0.1:{@code port} and reads the whole answer. */
  static Response send(int port, byte[] request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(request);
      out.flush();
      return parse(socket.getInputStream().readAllBytes());
    }
  }

  private static Response parse(byte[] raw) {
    String text = new String(raw, StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    String head = end < 0 ? text : text.substring(0, end);
    String body = end < 0 ? "" : text.substring(end + 4);
    if (head.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked")) {
      body = unchunk(body);
    }
    int status = Integer.parseInt(head.substring(9, 12));
    return new Response(status, head, body);
  }

  private static String unchunk(String chunked) {
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (true) {
      int lineEnd = chunked.indexOf("\r\n", at);
      int size = Integer.parseInt(chunked.substring(at, lineEnd).trim(), 16);
      if (size == 0) {
        return out.toString();
      }
      out.append(chunked, lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
  }
}
