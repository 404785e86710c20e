package dev.asa.template;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A reusable, parameterised agreement (section 4.4): a partial document whose members fill in
 * whatever a new agreement leaves out.
 */
public record Template(
    String type, String version, String title, String description, ObjectNode defaults) {
  public Template {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(version, "version");
    defaults = defaults.deepCopy();
  }

  @Override
  public ObjectNode defaults() {
    return defaults.deepCopy();
  }

  public ObjectNode toJson() {
    ObjectNode o = dev.asa.json.Json.object();
    o.put("type", type);
    o.put("version", version);
    o.put("title", title);
    o.put("description", description);
    o.set("defaults", defaults.deepCopy());
    return o;
  }
}
