package dev.asa.document;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonGeneratorImpl;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.facts.ServerFacts;
import dev.asa.json.Json;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * An agreement as an answer shows it ({@link Agreement#toAnswerJson}): an ordinary object node, its
 * members the document's own and the rendered facts, that writes itself from the agreement's {@link
 * MembersText} instead of walking the document again: the same text, member for member and in the
 * same order (a test holds the two equal), but for one spelling: written as UTF-8, a character
 * beyond the BMP (an emoji) arrives as its UTF-8 bytes, where Jackson's UTF-8 writer spells it in a
 * tree as a pair of escaped surrogates. Both are the same JSON string, read back alike.
 *
 * <p>It writes the kept text only while it still holds exactly the members it was made with, the
 * very same nodes in the same order (an identity check per member, each run); a caller that changed
 * it gets the tree written as any other node's. The members' own insides are never changed: an
 * agreement never changes a node it holds (see {@code Agreement.shallowCopy}). A pretty printer
 * also gets the tree, so that pretty output stays pretty, and so does any writer but Jackson's own
 * JSON writers: a copy into a tree ({@code valueToTree}) holds nodes rather than raw text.
 */
@SuppressWarnings("unchecked") // ObjectNode's own deepCopy override, inherited as it is
final class AnswerJson extends ObjectNode {
  private static final long serialVersionUID = 1L;

  private final transient MembersText.Shared members;
  private final transient ServerFacts facts;
  private transient String[] names; // the members as made, in order
  private transient JsonNode[] values;

  private AnswerJson(MembersText.Shared members, ServerFacts facts) {
    super(JsonNodeFactory.instance);
    this.members = members;
    this.facts = facts;
  }

  /**
   * The document's members, then the facts under {@code metadata} (none when there are none): the
   * agreement's own nodes, written from their kept texts.
   */
  static AnswerJson of(ObjectNode document, MembersText.Shared members, ServerFacts facts) {
    AnswerJson answer = new AnswerJson(members, facts);
    answer.setAll(document);
    if (!facts.isEmpty()) {
      answer.set(Agreement.FACTS_MEMBER, facts.forAnswer());
    }
    answer.names = new String[answer.size()];
    answer.values = new JsonNode[answer.size()];
    int i = 0;
    for (Map.Entry<String, JsonNode> member : answer.properties()) {
      answer.names[i] = member.getKey();
      answer.values[i++] = member.getValue();
    }
    return answer;
  }

  @Override
  public void serialize(JsonGenerator g, SerializerProvider provider) throws IOException {
    if (names == null
        || g.getPrettyPrinter() != null
        // Raw text only into Jackson's own JSON writers: a copy into a tree (valueToTree, a token
        // buffer) gets nodes, and any other format or wrapper the tree
        || !(g instanceof JsonGeneratorImpl)
        || !asMade()) {
      super.serialize(g, provider);
      return;
    }
    MembersText text = members.get();
    // The members but status and metadata, as counted in the kept text, and where status sits.
    int kept = 0;
    int statusAfter = -1; // how many kept members come before the status; -1: no status
    JsonNode status = null;
    boolean withFacts = false;
    for (int i = 0; i < names.length; i++) {
      switch (names[i]) {
        case "status" -> {
          statusAfter = kept;
          status = values[i];
        }
        case Agreement.FACTS_MEMBER -> withFacts = true;
        default -> kept++;
      }
    }
    if (kept != text.count()) {
      super.serialize(g, provider); // not the shape this agreement made: write the tree
      return;
    }
    String all = text.object(); // {"name":value,...}
    int end = all.length() - 1; // the closing brace
    int split = statusAfter < 0 ? end : text.endOfFirst(statusAfter);
    g.writeRawValue("{");
    boolean first = true;
    if (split > 1) {
      g.writeRaw(all, 1, split - 1);
      first = false;
    }
    if (status != null) {
      first = member(g, first, "\"status\":", Json.write(status));
    }
    if (split < end) {
      int from = split == 1 ? 1 : split + 1; // past the comma that ended the members before
      if (!first) {
        g.writeRaw(',');
      }
      g.writeRaw(all, from, end - from);
      first = false;
    }
    if (withFacts) {
      member(g, first, "\"" + Agreement.FACTS_MEMBER + "\":", facts.toStored());
    }
    g.writeRaw('}');
  }

  private static boolean member(JsonGenerator g, boolean first, String name, String value)
      throws IOException {
    if (!first) {
      g.writeRaw(',');
    }
    g.writeRaw(name);
    g.writeRaw(value);
    return false;
  }

  /** Whether this still holds the very members it was made with, in the same order. */
  @SuppressWarnings("ReferenceEquality") // the very same node is the question
  private boolean asMade() {
    if (size() != names.length) {
      return false;
    }
    Iterator<Map.Entry<String, JsonNode>> it = properties().iterator();
    for (int i = 0; i < names.length; i++) {
      Map.Entry<String, JsonNode> member = it.next();
      if (member.getValue() != values[i] || !member.getKey().equals(names[i])) {
        return false;
      }
    }
    return true;
  }
}
