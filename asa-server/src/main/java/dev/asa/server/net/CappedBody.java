package dev.asa.server.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpField;

/**
 * Reads an answer's body up to a cap. Jetty hands the body over one network buffer at a time and
 * asks for the next only when this one is consumed, so memory stays at the cap plus one buffer; one
 * byte past the cap marks the answer truncated and aborts the exchange, which closes the
 * connection: the rest is never read, however much the server offers.
 */
final class CappedBody {
  private CappedBody() {}

  static OutboundResponse read(Response response, InputStream body, long cap) throws IOException {
    ByteArrayOutputStream kept = new ByteArrayOutputStream((int) Math.min(cap, 8192));
    boolean truncated = false;
    try (body) {
      byte[] buffer = new byte[8192];
      for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
        long room = cap - kept.size();
        if (n > room) {
          kept.write(buffer, 0, (int) room);
          truncated = true;
          response.abort(
              new IOException("the answer is larger than " + cap + " bytes; the rest is not read"));
          break;
        }
        kept.write(buffer, 0, n);
      }
    }
    return new OutboundResponse(
        response.getStatus(), headers(response), kept.toByteArray(), truncated);
  }

  /** By lower-case name, values in the order received. */
  private static Map<String, List<String>> headers(Response response) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (HttpField field : response.getHeaders()) {
      headers
          .computeIfAbsent(field.getLowerCaseName(), k -> new ArrayList<>())
          .add(field.getValue());
    }
    return headers;
  }
}
