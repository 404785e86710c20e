package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Function;

/**
 * Reads a server answer the CLI holds as JSON (a job that may turn into a result, a result computed
 * here) through the SDK's typed view, so that a member's name on the wire is read in the SDK only.
 */
final class Views {
  private Views() {}

  /**
   * @param what the route, or where the answer came from, for the message
   * @throws CliException when the answer lacks what the view needs: the server's doing, not the
   *     user's, so it is a refusal rather than a usage error
   */
  static <T> T read(String what, JsonNode answer, Function<JsonNode, T> view) throws CliException {
    try {
      return view.apply(answer);
    } catch (IllegalArgumentException e) {
      throw unreadable(what, e);
    }
  }

  /** What a view's refusal of the answer to {@code what} is reported as. */
  static CliException unreadable(String what, IllegalArgumentException why) {
    return new CliException(
        what + " answered, but its answer cannot be read: " + why.getMessage(), Exit.REFUSED);
  }
}
