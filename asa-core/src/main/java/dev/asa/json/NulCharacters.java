package dev.asa.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the NUL character (U+0000) in a JSON tree's strings and member names.
 *
 * <p>JSON may carry it (escaped, as a backslash then {@code u0000}), but PostgreSQL cannot store it
 * in a text column (it refuses to bind the value), while SQLite would keep it: were it let through,
 * the same request would be stored by one store and fail on the other. No text an agreement, a
 * deliverable or a command holds has a use for it, so the server refuses it at the door, the same
 * on every store.
 */
public final class NulCharacters {
  private NulCharacters() {}

  /**
   * Where a NUL was found.
   *
   * @param pointer the string's JSON pointer, or for a member name the pointer to its member
   * @param index the NUL's index (in UTF-16 units) in the string or name
   * @param inName whether the NUL is in a member name rather than a string value
   */
  public record Found(String pointer, int index, boolean inName) {}

  /** Every string and member name in {@code root} that holds a NUL, in document order. */
  public static List<Found> in(JsonNode root) {
    List<Found> found = new ArrayList<>();
    JsonTree.walk(
        root,
        (at, name, n) -> {
          int inName = name == null ? -1 : name.indexOf('\u0000');
          if (inName >= 0) {
            found.add(new Found(at, inName, true));
          }
          int inText = n.isTextual() ? n.textValue().indexOf('\u0000') : -1;
          if (inText >= 0) {
            found.add(new Found(at, inText, false));
          }
        });
    return found;
  }
}
