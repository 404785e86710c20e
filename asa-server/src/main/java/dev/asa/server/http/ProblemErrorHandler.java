package dev.asa.server.http;

import dev.asa.json.Json;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers by itself, before a request reaches the routes (an unparseable URI, a
 * request line or headers over the limit), in the same problem+json shape as every other error,
 * instead of Jetty's HTML page.
 */
final class ProblemErrorHandler extends ErrorHandler {

  /**
   * Jetty writes error bodies only for GET, POST and HEAD by default; every method gets one here.
   */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problems.CONTENT_TYPE);
    // Jetty drops the connection after answering a request it could not take in; saying so keeps a
    // client from sending its next request down a connection that is about to close.
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    String requestId = RequestIds.accept(request.getHeaders().get(RequestIds.HEADER));
    response.getHeaders().put(RequestIds.HEADER, requestId);
    response.write(
        true,
        ByteBuffer.wrap(body(code, message, request.getHttpURI().getPath(), requestId)),
        callback);
  }

  // Deprecated in Jetty 12.1 but still the hook for errors found while parsing the request line and
  // headers (414, 431, bad URIs); HttpFuzzTest checks these answers are problem+json.
  @SuppressWarnings("removal")
  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, Problems.CONTENT_TYPE);
    fields.put(HttpHeader.CONNECTION, "close");
    // The request could not be parsed, so any id it carried is unreadable: a new one.
    String requestId = RequestIds.generate();
    fields.put(RequestIds.HEADER, requestId);
    return ByteBuffer.wrap(body(status, reason, null, requestId));
  }

  private static byte[] body(int status, String reason, String path, String requestId) {
    String detail =
        switch (status) {
          case 414 -> "the request target is longer than this server accepts";
          case 431 -> "the request line and headers are larger than this server accepts";
          case 413 -> "the request body is larger than this server accepts";
          default -> "the request could not be read" + (reason == null ? "" : ": " + reason);
        };
    Problem p =
        Problem.of(
            status == 400 ? "bad-request" : "http-" + status, "Unreadable request", status, detail);
    return Json.writeBytes(p.toJson(path == null ? "" : path, requestId));
  }
}
