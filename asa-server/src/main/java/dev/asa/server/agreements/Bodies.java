package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;

/** Small readers for request bodies that name the offending field when something is wrong. */
public final class Bodies {
  private Bodies() {}

  public static ObjectNode object(JsonNode body, String what) {
    if (!(body instanceof ObjectNode o)) {
      throw new InvalidDocumentException("", what + " must be a JSON object");
    }
    return o;
  }

  public static String requiredText(JsonNode parent, String field, String pointerPrefix, String hint) {
    JsonNode v = parent.get(field);
    if (v == null || v.isNull()) {
      throw new InvalidDocumentException(pointerPrefix + "/" + field, "required: " + hint);
    }
    if (!v.isTextual()) {
      throw new InvalidDocumentException(pointerPrefix + "/" + field, "must be a string: " + hint);
    }
    return v.asText();
  }

  public static String optionalText(JsonNode parent, String field, String pointerPrefix) {
    JsonNode v = parent.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new InvalidDocumentException(pointerPrefix + "/" + field, "must be a string");
    }
    return v.asText();
  }

  public static void allowOnly(ObjectNode body, String pointerPrefix, String... fields) {
    java.util.Set<String> allowed = java.util.Set.of(fields);
    for (var it = body.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!allowed.contains(name)) {
        throw new InvalidDocumentException(
            pointerPrefix + "/" + name, "unknown field; expected " + String.join(", ", fields));
      }
    }
  }
}
