package dev.asa.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Violation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Turns a partial document that names {@code "template": "<type>"} into a full one.
 *
 * <p>Every member the partial document lacks is taken from the template; objects are merged member
 * by member (so a document may give {@code service.description} and keep the template's {@code
 * service.constraints}), arrays and scalars given by the document win whole. Then {@code
 * template_overrides} adjusts the parameters a template is meant to expose:
 *
 * <pre>
 * "template_overrides": {
 *   "dimensions": { "accuracy": { "slo_value": 80, "weight": 0.3 } },
 *   "composite_threshold": 70
 * }
 * </pre>
 *
 * The result still has to pass full validation, like any document.
 */
public final class TemplateApplier {
  private TemplateApplier() {}

  /** Returns the input unchanged (a copy) when it names no template. */
  public static ObjectNode apply(ObjectNode input) {
    ObjectNode doc = input.deepCopy();
    JsonNode name = doc.remove("template");
    JsonNode overrides = doc.remove("template_overrides");
    if (name == null) {
      if (overrides != null) {
        throw new InvalidDocumentException(
            "/template_overrides", "template_overrides needs a \"template\" to override");
      }
      return doc;
    }
    if (!name.isTextual()) {
      throw new InvalidDocumentException(
          "/template", "must be a template name: one of " + Templates.TYPES);
    }
    Template template =
        Templates.get(name.asText())
            .orElseThrow(() ->
                new InvalidDocumentException(
                    "/template",
                    "unknown template '" + name.asText() + "'; available: " + Templates.TYPES));
    ObjectNode merged = template.defaults();
    mergeInto(merged, doc);
    if (overrides != null) {
      applyOverrides(merged, overrides);
    }
    dropPaymentWithoutAmount(merged);
    return merged;
  }

  /**
   * Templates carry release tiers but no amount. A document that names no amount and no currency
   * moves no money: its payment terms are dropped (and escrow disabled) rather than left half set.
   */
  private static void dropPaymentWithoutAmount(ObjectNode doc) {
    if (doc.path("escrow").path("payment") instanceof ObjectNode payment
        && !payment.has("amount")
        && !payment.has("currency")) {
      ObjectNode escrow = (ObjectNode) doc.get("escrow");
      escrow.remove("payment");
      escrow.put("enabled", false);
    }
  }

  /** Copies every member of {@code source} into {@code target}; nested objects merge. */
  private static void mergeInto(ObjectNode target, ObjectNode source) {
    for (Iterator<Map.Entry<String, JsonNode>> it = source.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode existing = target.get(e.getKey());
      if (existing instanceof ObjectNode t && e.getValue() instanceof ObjectNode s) {
        mergeInto(t, s);
      } else {
        target.set(e.getKey(), e.getValue().deepCopy());
      }
    }
  }

  private static void applyOverrides(ObjectNode doc, JsonNode overrides) {
    List<Violation> problems = new ArrayList<>();
    if (!overrides.isObject()) {
      throw new InvalidDocumentException("/template_overrides", "must be an object");
    }
    for (Iterator<String> it = overrides.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!key.equals("dimensions") && !key.equals("composite_threshold")) {
        problems.add(
            new Violation(
                "/template_overrides/" + key,
                "unknown override; a template exposes 'dimensions' (slo_value, weight) and 'composite_threshold'"));
      }
    }
    JsonNode threshold = overrides.get("composite_threshold");
    if (threshold != null) {
      if (!threshold.isNumber()) {
        problems.add(
            new Violation(
                "/template_overrides/composite_threshold", "must be a number from 0 to 100"));
      } else {
        doc.withObjectProperty("quality_criteria").set("composite_threshold", threshold);
      }
    }
    JsonNode dims = overrides.get("dimensions");
    if (dims != null) {
      if (!dims.isObject()) {
        problems.add(
            new Violation(
                "/template_overrides/dimensions",
                "must map dimension names to {slo_value, weight}"));
      } else {
        ArrayNode list = (ArrayNode) doc.path("quality_criteria").path("dimensions");
        for (Iterator<Map.Entry<String, JsonNode>> it = dims.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          String at = "/template_overrides/dimensions/" + e.getKey();
          ObjectNode dim = find(list, e.getKey());
          if (dim == null) {
            problems.add(new Violation(at, "the template has no dimension '" + e.getKey() + "'"));
            continue;
          }
          for (Iterator<Map.Entry<String, JsonNode>> f = e.getValue().fields(); f.hasNext(); ) {
            Map.Entry<String, JsonNode> field = f.next();
            switch (field.getKey()) {
              case "slo_value" -> dim.withObjectProperty("slo").set("value", field.getValue());
              case "weight" -> dim.set("weight", field.getValue());
              default ->
                  problems.add(
                      new Violation(
                          at + "/" + field.getKey(),
                          "only slo_value and weight can be overridden"));
            }
          }
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidDocumentException(problems);
    }
  }

  private static ObjectNode find(ArrayNode dimensions, String name) {
    for (JsonNode d : dimensions) {
      if (d.path("name").asText().equals(name)) {
        return (ObjectNode) d;
      }
    }
    return null;
  }
}
