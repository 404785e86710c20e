package dev.asa.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Violation;
import dev.asa.json.ExactNumbers;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import dev.asa.json.NulCharacters;
import dev.asa.text.Utf8;
import java.util.List;

/**
 * How every request body becomes JSON, in one place: strict UTF-8 first (400 on a malformed
 * sequence, so the parser never sees text a lenient decoder repaired), then the strict JSON parser,
 * then the I-JSON number rule (422 with a pointer to each number JCS would hash as another value),
 * then no NUL character in any string or member name (422 with a pointer to each, see {@link
 * NulCharacters}). Every route's body passes here, so no route can forget a rule.
 */
final class RequestBodies {
  /** At most this many NUL findings are listed: a hostile body may hold thousands. */
  private static final int MAX_REPORTED = 20;

  private RequestBodies() {}

  static JsonNode parse(byte[] bytes) throws JsonProcessingException {
    String text;
    try {
      text = Utf8.decode(bytes);
    } catch (Utf8.MalformedException e) {
      throw new RequestException(
          Problem.of(
              "malformed-utf8",
              "The body is not valid UTF-8",
              400,
              e.getMessage() + "; send the body as well-formed UTF-8"));
    }
    JsonNode body = Json.parse(text);
    List<String> inexact = ExactNumbers.inexact(body);
    if (!inexact.isEmpty()) {
      throw new InvalidDocumentException(
          inexact.stream()
              .map(at ->
                  new Violation(
                      at,
                      "is not exactly an IEEE-754 double: agreement_hash (JCS) would "
                          + "cover a different value ("
                          + hashedAs(body.at(at))
                          + "); write the value the hash covers"))
              .toList());
    }
    List<NulCharacters.Found> nuls = NulCharacters.in(body);
    if (!nuls.isEmpty()) {
      throw new InvalidDocumentException(
          nuls.stream()
              .limit(MAX_REPORTED)
              .map(f ->
                  new Violation(
                      f.pointer(),
                      (f.inName() ? "the member name holds" : "holds")
                          + " a NUL character (U+0000) at index "
                          + f.index()
                          + "; text here may not contain NUL: remove it, or send binary data"
                          + " encoded (base64) or by URL with its hash"))
              .toList());
    }
    return body;
  }

  private static String hashedAs(JsonNode number) {
    try {
      return Jcs.canonicalString(number);
    } catch (IllegalArgumentException e) {
      return "none: it is beyond the range of a double";
    }
  }
}
