package dev.asa.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Visiting every node of a JSON tree with its JSON pointer (RFC 6901), in document order. */
public final class JsonTree {
  private JsonTree() {}

  /**
   * What {@link #walk} calls for each node: the pointer that reaches it, the member name it has in
   * its object (null for the root and array elements), and the node.
   */
  @FunctionalInterface
  public interface Visitor {
    void visit(String pointer, String name, JsonNode node);
  }

  private record Step(String pointer, String name, JsonNode node) {}

  /**
   * Calls {@code visitor} for {@code root} (pointer "") and every node below it, depth first,
   * members and elements in document order. Iterative, so a deep tree cannot overflow the stack
   * (the parser bounds the depth anyway).
   */
  public static void walk(JsonNode root, Visitor visitor) {
    ArrayDeque<Step> todo = new ArrayDeque<>();
    todo.push(new Step("", null, root));
    List<Step> children = new ArrayList<>();
    while (!todo.isEmpty()) {
      Step step = todo.pop();
      String at = step.pointer();
      JsonNode n = step.node();
      visitor.visit(at, step.name(), n);
      children.clear();
      if (n.isObject()) {
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> m = it.next();
          children.add(new Step(at + "/" + pointerToken(m.getKey()), m.getKey(), m.getValue()));
        }
      } else if (n.isArray()) {
        for (int i = 0; i < n.size(); i++) {
          children.add(new Step(at + "/" + i, null, n.get(i)));
        }
      }
      for (int i = children.size() - 1; i >= 0; i--) {
        todo.push(children.get(i));
      }
    }
  }

  /** A member name as one JSON pointer token (RFC 6901): '~' becomes "~0" and '/' becomes "~1". */
  public static String pointerToken(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
