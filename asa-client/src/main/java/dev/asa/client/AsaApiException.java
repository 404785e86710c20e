package dev.asa.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.asa.json.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * A call to the ASA server that did not succeed: either the server answered with an RFC 9457
 * problem (status 4xx/5xx, with its {@code type}, {@code detail} and field errors), or the server
 * could not be reached at all (status 0).
 *
 * <p>{@link #getMessage()} is written for a person: the detail first, then one line per field
 * error.
 */
public final class AsaApiException extends RuntimeException {

  /**
   * One entry of the problem's {@code errors}: a JSON pointer into the request body and what is
   * wrong there.
   *
   * @param pointer an RFC 6901 pointer into the request body, e.g. {@code /escrow/payment/amount};
   *     empty for the document as a whole
   * @param detail what is wrong there
   */
  public record FieldError(String pointer, String detail) {
    @Override
    public String toString() {
      return (pointer.isEmpty() ? "(document)" : pointer) + ": " + detail;
    }
  }

  private static final String PROBLEM_TYPE_BASE = "https://asa.dev/problems/";

  /** HTTP status, 0 when nothing came back. */
  private final int status;

  /** The problem's type URI; null when the answer was not a problem document. */
  private final String type;

  /** What went wrong, for a person. */
  private final String detail;

  /** The problem's field errors. */
  private final List<FieldError> errors;

  /** The body as received. */
  private final String body;

  private AsaApiException(
      int status,
      String type,
      String detail,
      List<FieldError> errors,
      String body,
      Throwable cause) {
    super(message(status, type, detail, errors), cause);
    this.status = status;
    this.type = type;
    this.detail = detail;
    this.errors = List.copyOf(errors);
    this.body = body;
  }

  /**
   * The server answered {@code status} with {@code body}; reads it as problem+json when it is one.
   */
  static AsaApiException fromResponse(String method, URI uri, int status, String body) {
    JsonNode problem = parseQuietly(body);
    String type = problem.path("type").asText(null);
    String detail = problem.path("detail").asText(null);
    if (detail == null) {
      // Not a problem document (a proxy, another program on that port): say what came back.
      detail =
          method
              + " "
              + uri
              + " answered HTTP "
              + status
              + (body.isBlank() ? "" : ": " + abbreviate(body));
    }
    List<FieldError> errors = new ArrayList<>();
    for (JsonNode e : problem.path("errors")) {
      errors.add(new FieldError(e.path("pointer").asText(""), e.path("detail").asText("")));
    }
    return new AsaApiException(status, type, detail, errors, body, null);
  }

  /** Nothing came back: the server is down, the address is wrong, or it took too long. */
  static AsaApiException unreachable(URI uri, String why, Throwable cause) {
    return new AsaApiException(
        0,
        null,
        "could not reach the ASA server at "
            + uri
            + " ("
            + why
            + ")"
            + "; is it running? Start one with ./asa serve, or point --server / ASA_SERVER at the right address",
        List.of(),
        "",
        cause);
  }

  /**
   * A 2xx answer this client cannot use: almost always something other than an ASA server on that
   * port.
   */
  static AsaApiException unreadable(String method, URI uri, int status, String body, String why) {
    return new AsaApiException(
        status,
        null,
        method
            + " "
            + uri
            + " answered HTTP "
            + status
            + " but "
            + why
            + "; is this an ASA server?",
        List.of(),
        body,
        null);
  }

  /**
   * A 2xx answer that lacks what its typed view needs (see {@link Agreements}): a server of another
   * version, or something other than an ASA server.
   */
  static AsaApiException unusable(String route, JsonNode answer, IllegalArgumentException why) {
    return new AsaApiException(
        200,
        null,
        route + " answered, but its answer cannot be read: " + why.getMessage(),
        List.of(),
        Json.write(answer),
        why);
  }

  /**
   * The HTTP status.
   *
   * @return 4xx or 5xx for a refusal; 200 for a success answer this client cannot read; 0 when the
   *     server could not be reached or did not answer in time
   */
  public int status() {
    return status;
  }

  /**
   * The problem's {@code type}, stable per kind of problem.
   *
   * @return a URI such as {@code https://asa.dev/problems/invalid-document}, or null when the
   *     answer was not a problem document
   */
  public String type() {
    return type;
  }

  /**
   * The kind of problem: what to switch on.
   *
   * @return the last segment of {@link #type()}, e.g. {@code invalid-document} or {@code
   *     transition-refused}; null when there is no type
   */
  public String kind() {
    if (type == null) {
      return null;
    }
    return type.startsWith(PROBLEM_TYPE_BASE) ? type.substring(PROBLEM_TYPE_BASE.length()) : type;
  }

  /**
   * What went wrong.
   *
   * @return the problem's {@code detail}, in words a person can act on
   */
  public String detail() {
    return detail;
  }

  /**
   * What is wrong in the request body, field by field.
   *
   * @return the problem's {@code errors}; empty when there are none
   */
  public List<FieldError> errors() {
    return errors;
  }

  /**
   * The response body.
   *
   * @return the body as received; empty when nothing was received
   */
  public String body() {
    return body;
  }

  /**
   * The body as JSON, for extension members such as {@code current_state}, {@code allowed_actions}
   * or {@code request_id}.
   *
   * @return the problem document, or a missing node when the body is not a JSON object
   */
  public JsonNode problem() {
    return parseQuietly(body);
  }

  /**
   * Whether the server could not be reached at all (not started, wrong address, no answer in time):
   * then {@link #getCause()} is the I/O failure, and retrying later may help.
   *
   * @return true when {@link #status()} is 0
   */
  public boolean isUnreachable() {
    return status == 0;
  }

  private static String message(int status, String type, String detail, List<FieldError> errors) {
    StringBuilder m = new StringBuilder();
    if (status != 0) {
      m.append("HTTP ").append(status);
      if (type != null) {
        m.append(" ")
            .append(
                type.startsWith(PROBLEM_TYPE_BASE)
                    ? type.substring(PROBLEM_TYPE_BASE.length())
                    : type);
      }
      m.append(": ");
    }
    m.append(detail);
    for (FieldError e : errors) {
      m.append(System.lineSeparator()).append("  ").append(e);
    }
    return m.toString();
  }

  private static JsonNode parseQuietly(String body) {
    if (body == null || body.isBlank()) {
      return MissingNode.getInstance();
    }
    try {
      JsonNode node = Json.parse(body);
      return node.isObject() ? node : MissingNode.getInstance();
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    }
  }

  static String abbreviate(String body) {
    String oneLine = body.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 197) + "...";
  }
}
