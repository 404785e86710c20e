package dev.asa.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Violation;
import dev.asa.json.Json;
import java.util.List;

/**
 * An RFC 9457 problem detail. {@code type} is a stable URI per kind of problem; {@code errors}
 * lists JSON pointers into the request body with what is wrong at each; {@code request_id} is the
 * request's id ({@link RequestIds}), to quote when reporting it.
 */
record Problem(
    String slug,
    String title,
    int status,
    String detail,
    List<Violation> errors,
    ObjectNode extensions) {

  static final String TYPE_BASE = "https://asa.dev/problems/";

  static Problem of(String slug, String title, int status, String detail) {
    return new Problem(slug, title, status, detail, List.of(), null);
  }

  ObjectNode toJson(String instance, String requestId) {
    ObjectNode o = Json.object();
    o.put("type", TYPE_BASE + slug);
    o.put("title", title);
    o.put("status", status);
    o.put("detail", detail);
    o.put("instance", instance);
    o.put("request_id", requestId);
    if (!errors.isEmpty()) {
      ArrayNode arr = o.putArray("errors");
      for (Violation v : errors) {
        arr.addObject().put("pointer", v.pointer()).put("detail", v.message());
      }
    }
    if (extensions != null) {
      o.setAll(extensions);
    }
    return o;
  }
}
