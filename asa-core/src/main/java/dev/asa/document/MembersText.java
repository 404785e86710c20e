package dev.asa.document;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The members of an agreement document but its status, written once as compact JSON and kept: the
 * text the store keeps ({@link Agreement#toStoredText}) and most of every answer that shows the
 * agreement ({@link AnswerJson}).
 *
 * <p>Why: an agreement is written out whole at every request of its lifecycle (stored when it is
 * made and at each signature, shown in every answer), and walking its tree was 3.9% of the server's
 * CPU per lifecycle (the profile of 8a099140). The members but status are the same nodes from one
 * signature to the next (a change of state or facts replaces only the status, see {@link
 * Agreement#sameDocumentButStatus}), so they are written at most once per signature.
 *
 * <p>The text is what Jackson writes for the document without its status, member for member (each
 * name as a JSON string, a colon, the value as {@link Json#write} writes it), so it is the very
 * text {@code Json.write} gives of that object: a test holds the two equal.
 */
final class MembersText {
  private final String text; // "name":value,"name":value... (no braces), status left out
  private final int[] ends; // ends[i]: the offset just after member i in text

  private MembersText(String text, int[] ends) {
    this.text = text;
    this.ends = ends;
  }

  /** The members of {@code document} but {@code status}, in the document's order. */
  static MembersText of(ObjectNode document) {
    StringBuilder text = new StringBuilder(4096);
    List<Integer> ends = new ArrayList<>();
    for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> member :
        document.properties()) {
      if (member.getKey().equals("status")) {
        continue;
      }
      if (!ends.isEmpty()) {
        text.append(',');
      }
      text.append(Json.write(TextNode.valueOf(member.getKey())))
          .append(':')
          .append(Json.write(member.getValue()));
      ends.add(text.length());
    }
    return new MembersText(text.toString(), ends.stream().mapToInt(Integer::intValue).toArray());
  }

  /** All the members as one text, without braces. */
  String text() {
    return text;
  }

  /** How many members there are (status not counted). */
  int count() {
    return ends.length;
  }

  /** The offset in {@link #text} just after the first {@code members} members (0 for none). */
  int endOfFirst(int members) {
    return members == 0 ? 0 : ends[members - 1];
  }

  /**
   * The members written once for a run of agreements that share them: filled the first time any of
   * them asks (racy on purpose: two threads write the same text, and a String is safely shared
   * however it was published).
   */
  static final class Shared {
    private final ObjectNode document;
    private MembersText written;

    /** For agreements whose document has these members but status (the very same nodes). */
    Shared(ObjectNode document) {
      this.document = document;
    }

    MembersText get() {
      MembersText m = written;
      if (m == null) {
        m = of(document);
        written = m;
      }
      return m;
    }
  }
}
