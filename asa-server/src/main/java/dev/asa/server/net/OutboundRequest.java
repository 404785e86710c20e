package dev.asa.server.net;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One outbound HTTP request: GET or POST to an absolute http(s) URL with a host. Checked when
 * built, so a bad URL or a header that could split the request fails here, before any lookup.
 *
 * @param headers extra headers; Host, Content-Length, Connection and Transfer-Encoding are the
 *     client's own and may not be given
 * @param body the bytes to send, or null for none
 */
public record OutboundRequest(String method, URI uri, Map<String, String> headers, byte[] body) {

  private static final Set<String> RESERVED =
      Set.of("host", "content-length", "connection", "transfer-encoding");

  public OutboundRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(uri, "uri");
    if (!method.equals("GET") && !method.equals("POST")) {
      throw new IllegalArgumentException("only GET and POST are sent, not " + method);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!uri.isAbsolute()
        || !(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null) {
      throw new IllegalArgumentException("not an absolute http(s) URL with a host");
    }
    if (uri.getRawFragment() != null && !uri.getRawFragment().isEmpty()) {
      uri =
          URI.create(
              uri.toString().substring(0, uri.toString().indexOf('#'))); // never sent on the wire
    }
    headers = Map.copyOf(new LinkedHashMap<>(headers));
    for (Map.Entry<String, String> h : headers.entrySet()) {
      if (!h.getKey().matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")
          || RESERVED.contains(h.getKey().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("not a header the caller may set: " + h.getKey());
      }
      // Only visible ASCII and spaces: a CR or LF here would let a value start a second request.
      if (!h.getValue().matches("[\\x20-\\x7e\\t]*")) {
        throw new IllegalArgumentException(
            "the value of header " + h.getKey() + " has characters a header cannot carry");
      }
    }
  }

  public static OutboundRequest get(URI uri, Map<String, String> headers) {
    return new OutboundRequest("GET", uri, headers, null);
  }

  public static OutboundRequest post(URI uri, Map<String, String> headers, byte[] body) {
    return new OutboundRequest("POST", uri, headers, body);
  }
}
