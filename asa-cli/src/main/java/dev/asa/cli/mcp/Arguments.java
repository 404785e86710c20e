package dev.asa.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One tool call's arguments, read with messages that name the argument at fault. The SDK has
 * already checked them against the tool's input schema; these checks hold without it (the handlers
 * are called directly in tests) and add what a schema cannot say well, such as a NUL character deep
 * inside a value.
 */
final class Arguments {

  /** What the server takes as an agreement or task id: no slash, so no {@code ../}. */
  static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{2,127}");

  private final ObjectNode values;

  private Arguments(ObjectNode values) {
    this.values = values;
  }

  /**
   * The arguments as the SDK hands them over (null for none).
   *
   * @throws ToolError if any text in them holds a NUL character, which no ASA server stores
   */
  static Arguments of(Map<String, Object> arguments) {
    ObjectNode values = arguments == null ? Json.object() : Json.mapper().valueToTree(arguments);
    refuseNul(values, "");
    return new Arguments(values);
  }

  private static void refuseNul(JsonNode node, String path) {
    if (node.isTextual() && node.textValue().indexOf('\0') >= 0) {
      throw nul("The argument " + path, node.textValue().indexOf('\0'));
    }
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        String name = member.getKey();
        if (name.indexOf('\0') >= 0) {
          throw nul("A member name in the argument " + path, name.indexOf('\0'));
        }
        refuseNul(member.getValue(), path.isEmpty() ? name : path + "." + name);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        refuseNul(node.get(i), path + "[" + i + "]");
      }
    }
  }

  private static ToolError nul(String where, int at) {
    return new ToolError(
        where
            + " holds a NUL character (U+0000) at position "
            + at
            + "; no ASA server stores one. Remove it and call again.");
  }

  /** A required id ({@code agreement_id}, {@code task_id}). */
  String id(String name) {
    String id = text(name);
    if (!ID.matcher(id).matches()) {
      throw new ToolError(
          "The argument "
              + name
              + " is not an id: ids are 3 to 128 letters, digits and . _ : - (no slash), starting"
              + " with a letter or digit, as create_agreement, list_agreements or"
              + " evaluator_tasks give them.");
    }
    return id;
  }

  /** A required, non-blank text. */
  String text(String name) {
    return optionalText(name)
        .filter(text -> !text.isBlank())
        .orElseThrow(
            () -> new ToolError("The argument " + name + " is required: give it as text."));
  }

  Optional<String> optionalText(String name) {
    JsonNode value = values.get(name);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw new ToolError("The argument " + name + " must be text (a JSON string).");
    }
    return Optional.of(value.textValue());
  }

  boolean flag(String name) {
    JsonNode value = values.get(name);
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw new ToolError("The argument " + name + " must be true or false.");
    }
    return value.booleanValue();
  }

  Optional<Long> wholeNumber(String name) {
    JsonNode value = values.get(name);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.canConvertToExactIntegral() || !value.canConvertToLong()) {
      throw new ToolError("The argument " + name + " must be a whole number.");
    }
    return Optional.of(value.longValue());
  }

  Optional<Double> number(String name) {
    JsonNode value = values.get(name);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isNumber()) {
      throw new ToolError("The argument " + name + " must be a number.");
    }
    return Optional.of(value.doubleValue());
  }

  Optional<ObjectNode> object(String name) {
    JsonNode value = values.get(name);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!(value instanceof ObjectNode object)) {
      throw new ToolError("The argument " + name + " must be a JSON object.");
    }
    return Optional.of(object);
  }

  /** A required array, as given. */
  JsonNode array(String name) {
    JsonNode value = values.get(name);
    if (value == null || !value.isArray() || value.isEmpty()) {
      throw new ToolError("The argument " + name + " is required: a non-empty array.");
    }
    return value;
  }
}
