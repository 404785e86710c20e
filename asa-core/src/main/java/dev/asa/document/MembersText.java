package dev.asa.document;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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

  /**
   * The members of {@code document} but {@code status}, in the document's order: one generator
   * writes the object as {@code Json.write} would, flushed after each member to mark where it ends.
   */
  static MembersText of(ObjectNode document) {
    StringWriter out = new StringWriter(4096);
    List<Integer> ends = new ArrayList<>();
    try (JsonGenerator g = Json.mapper().createGenerator(out)) {
      g.writeStartObject();
      for (Map.Entry<String, JsonNode> member : document.properties()) {
        if (!member.getKey().equals("status")) {
          g.writeFieldName(member.getKey());
          Json.mapper().writeTree(g, member.getValue());
          g.flush();
          ends.add(out.getBuffer().length() - 1); // without the object's opening brace
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to a string failed", e);
    }
    String object = out.toString();
    return new MembersText(
        object.substring(1, object.length() - 1),
        ends.stream().mapToInt(Integer::intValue).toArray());
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
