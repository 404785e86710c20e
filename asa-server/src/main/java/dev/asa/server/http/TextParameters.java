package dev.asa.server.http;

import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.text.ControlCharacters;
import io.javalin.http.Context;
import java.util.List;
import java.util.regex.Pattern;

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
  private static final Pattern SERVICE_TYPE = Pattern.compile("[a-z][a-z0-9_]{0,63}");

  private TextParameters() {}

  static String path(Context ctx, String name) {
    return checked("path", name, ctx.pathParam(name));
  }

  /** A query parameter, or null when absent. */
  static String query(Context ctx, String name) {
    String value = ctx.queryParam(name);
    return value == null ? null : checked("query", name, value);
  }

  /**
   * A path parameter that names a key: an Ed25519 public key in unpadded base64url, or its did:key;
   * returned in base64url, the registry's form. Anything else is 422 naming the parameter.
   */
  static String key(Context ctx, String name) {
    String value = path(ctx, name);
    try {
      Ed25519PublicKey key =
          value.startsWith("did:key:")
              ? DidKey.parse(value)
              : Ed25519PublicKey.fromBase64Url(value);
      return key.toBase64Url();
    } catch (IllegalArgumentException e) {
      throw new RequestException(
          new Problem(
              "invalid-parameter",
              "Malformed identifier in the URL",
              422,
              "the path parameter '"
                  + name
                  + "' must be an Ed25519 public key in unpadded base64url (43 characters) or a"
                  + " did:key, not '"
                  + value
                  + "'",
              List.of(),
              Json.object().put("path_parameter", name)));
    }
  }

  /**
   * A query parameter that names a service type (lower-case snake_case, as agreements and
   * registrations write it), or null when absent; anything else is 422 naming the parameter.
   */
  static String serviceType(Context ctx, String name) {
    String value = query(ctx, name);
    if (value != null && !SERVICE_TYPE.matcher(value).matches()) {
      throw new RequestException(
          new Problem(
              "invalid-parameter",
              "Invalid query parameter",
              422,
              "the query parameter '"
                  + name
                  + "' must be a service type in lower-case snake_case, such as research or"
                  + " code_generation",
              List.of(),
              Json.object().put("query_parameter", name)));
    }
    return value;
  }

  /**
   * A required query parameter of at most {@code max} characters; absent, empty or longer is 422
   * naming the parameter.
   */
  static String required(Context ctx, String name, int max) {
    String value = query(ctx, name);
    if (value == null || value.isBlank() || value.length() > max) {
      throw new RequestException(
          new Problem(
              "invalid-parameter",
              "Invalid query parameter",
              422,
              "the query parameter '" + name + "' is required, of 1 to " + max + " characters",
              List.of(),
              Json.object().put("query_parameter", name)));
    }
    return value;
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
