package dev.asa.server.http;

import dev.asa.json.Json;
import dev.asa.text.ControlCharacters;
import io.javalin.http.Context;
import java.util.List;

/**
 * Identifiers taken from the URL (path segments such as {@code /agreements/{id}}, and the {@code
 * party} query parameter), refused when they hold a control character.
 *
 * <p>No identifier this server issues or accepts contains one (agreement ids are {@code
 * [A-Za-z0-9._:-]}, identities and names refuse them at creation), so such a value can never name
 * anything. The answer is 422 naming the parameter rather than 404: the request is malformed
 * whoever sends it, and saying so reveals nothing about what exists. Checking here keeps the value
 * away from the store, where PostgreSQL cannot even bind a NUL (it answered 500).
 */
final class TextParameters {
  private TextParameters() {}

  static String path(Context ctx, String name) {
    return checked("path", name, ctx.pathParam(name));
  }

  /** A query parameter, or null when absent. */
  static String query(Context ctx, String name) {
    String value = ctx.queryParam(name);
    return value == null ? null : checked("query", name, value);
  }

  private static String checked(String where, String name, String value) {
    String problem = ControlCharacters.problemWith(value);
    if (problem != null) {
      throw new RequestException(
          new Problem(
              "invalid-parameter",
              "Malformed identifier in the URL",
              422,
              "the " + where + " parameter '" + name + "' " + problem,
              List.of(),
              Json.object().put(where + "_parameter", name)));
    }
    return value;
  }
}
