package dev.asa.document;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
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
 * <p>The text is the very text {@code Json.write} gives of the document without its status (a test
 * holds the two equal), with where each member ends, so that an answer can put the status back
 * where the document has it.
 */
final class MembersText {
  private final String object; // {"name":value,...}: the document without its status
  private final int[] ends; // ends[i]: the offset in object just after member i

  private MembersText(String object, int[] ends) {
    this.object = object;
    this.ends = ends;
  }

  /**
   * The members of {@code document} but {@code status}, in the document's order: one generator
   * writes the object as {@code Json.write} would (each member's node serializes itself, as in
   * ObjectNode.serialize), flushed after each member to mark where it ends.
   */
  static MembersText of(ObjectNode document) {
    StringWriter out = new StringWriter(4096);
    int[] ends = new int[document.size()];
    int count = 0;
    SerializerProvider provider = Json.mapper().getSerializerProviderInstance();
    try (JsonGenerator g = Json.mapper().createGenerator(out)) {
      g.writeStartObject();
      for (Map.Entry<String, JsonNode> member : document.properties()) {
        if (!member.getKey().equals("status")) {
          g.writeFieldName(member.getKey());
          ((JsonSerializable) member.getValue()).serialize(g, provider);
          g.flush();
          ends[count++] = out.getBuffer().length();
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to a string failed", e);
    }
    return new MembersText(out.toString(), Arrays.copyOf(ends, count));
  }

  /** The document without its status, as the store keeps it: {@code {"name":value,...}}. */
  String object() {
    return object;
  }

  /** How many members there are (status not counted). */
  int count() {
    return ends.length;
  }

  /**
   * The offset in {@link #object} just after the first {@code members} members (just after the
   * opening brace for none).
   */
  int endOfFirst(int members) {
    return members == 0 ? 1 : ends[members - 1];
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
