package dev.asa.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;
import com.networknt.schema.regex.RegularExpressions;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The regular expressions a caller writes into a JSON Schema ({@code pattern}, the keys of {@code
 * patternProperties}), run in time linear in the text they match, with RE2/J.
 *
 * <p>The validator's default engine is {@link java.util.regex}, which backtracks: {@code
 * ^(.*a){8}$} against 60 characters holds a thread for minutes, and the structural verification
 * that applies a deliverable schema answers in the request's own thread, where no deadline reaches.
 * RE2 never backtracks, so no pattern can cost more than the length of the text times the size of
 * the pattern. What it cannot run (a backreference, a lookaround) is refused when the schema is
 * handed over ({@link #firstUnrunnable}), with the pointer of the pattern, rather than found at
 * verification.
 */
public final class SchemaPatterns {
  private SchemaPatterns() {}

  /** The regular expression engine every registry that reads a caller's schema is given. */
  public static final RegularExpressionFactory LINEAR = SchemaPatterns::compile;

  /** A pattern RE2 cannot run, by its pointer inside the schema. */
  public record Unrunnable(String pointer, String reason) {}

  /** Members whose values are data, not schemas: a {@code "pattern"} inside them is not one. */
  private static final Set<String> DATA = Set.of("const", "enum", "examples", "default");

  /**
   * The first pattern of the schema that RE2 cannot run, with its JSON Pointer relative to the
   * schema; empty when it has none.
   */
  public static Optional<Unrunnable> firstUnrunnable(JsonNode schema) {
    return firstUnrunnable(schema, "");
  }

  private static Optional<Unrunnable> firstUnrunnable(JsonNode node, String at) {
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        Optional<Unrunnable> found = firstUnrunnable(node.get(i), at + "/" + i);
        if (found.isPresent()) {
          return found;
        }
      }
      return Optional.empty();
    }
    if (!node.isObject()) {
      return Optional.empty();
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> member = it.next();
      String name = member.getKey();
      JsonNode value = member.getValue();
      String here = at + "/" + JsonTree.pointerToken(name);
      if (DATA.contains(name)) {
        continue;
      }
      if (name.equals("pattern") && value.isTextual()) {
        Optional<String> problem = problem(value.textValue());
        if (problem.isPresent()) {
          return Optional.of(new Unrunnable(here, problem.get()));
        }
      }
      if (name.equals("patternProperties") && value.isObject()) {
        for (Iterator<String> keys = value.fieldNames(); keys.hasNext(); ) {
          String key = keys.next();
          Optional<String> problem = problem(key);
          if (problem.isPresent()) {
            return Optional.of(
                new Unrunnable(here + "/" + JsonTree.pointerToken(key), problem.get()));
          }
        }
      }
      Optional<Unrunnable> found = firstUnrunnable(value, here);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> problem(String regex) {
    try {
      compile(regex);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * Compiles a schema's pattern for RE2, unanchored as ECMA-262 matches it ({@code find}), with the
   * long Unicode property names ({@code \p{Letter}}) spelled as RE2 knows them.
   *
   * @throws IllegalArgumentException naming why RE2 cannot run the pattern
   */
  static RegularExpression compile(String regex) {
    Pattern pattern;
    try {
      pattern = Pattern.compile(RegularExpressions.replaceLongformCharacterProperties(regex));
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "the pattern cannot be run in linear time (RE2 syntax: no backreferences, no"
              + " lookahead or lookbehind): "
              + e.getDescription());
    }
    return text -> pattern.matcher(text).find();
  }
}
