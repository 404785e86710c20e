package dev.asa.server.net;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the other side answered.
 *
 * @param status the HTTP status; 3xx included, redirects are never followed
 * @param headers by lower-case name, in the order received
 * @param body the first {@link FetchLimits#maxResponseBytes()} bytes of the body at most
 * @param truncated whether the body went on past that limit (the rest was not read)
 */
public record OutboundResponse(
    int status, Map<String, List<String>> headers, byte[] body, boolean truncated) {

  public OutboundResponse {
    headers = Map.copyOf(headers);
  }

  /** The first value of a header, or null. */
  public String header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? null : values.getFirst();
  }
}
