package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.State;
import dev.asa.template.TemplateApplier;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;

/**
 * Turns what a client posts into a new PROPOSED agreement: applies the template if one is named,
 * fills the members the server owns (agreement_id when absent, created_at, status), and validates
 * the result like any document. A new agreement is unsigned: signatures are added one by one with
 * {@code POST /agreements/{id}/sign}.
 */
public final class AgreementDrafts {
  private AgreementDrafts() {}

  public static Agreement propose(JsonNode input, Instant now, Supplier<String> newId) {
    if (!(input instanceof ObjectNode object)) {
      throw new InvalidDocumentException("", "an agreement must be a JSON object");
    }
    ObjectNode doc = TemplateApplier.apply(object);
    if (doc.has("signatures")) {
      throw new InvalidDocumentException(
          "/signatures",
          "a new agreement is unsigned; each party signs with POST /agreements/{id}/sign");
    }
    JsonNode status = doc.get("status");
    if (status != null && !status.asText().equals(State.PROPOSED.wireName())) {
      throw new InvalidDocumentException(
          "/status", "a new agreement starts as \"proposed\"; leave status out");
    }
    if (!doc.has("agreement_id")) {
      doc.put("agreement_id", newId.get());
    }
    if (!doc.has("created_at")) {
      doc.put("created_at", now.truncatedTo(ChronoUnit.SECONDS).toString());
    }
    doc.put("status", State.PROPOSED.wireName());
    Agreement agreement = AgreementDocuments.read(doc);
    if (object.has("template")) {
      String template = object.get("template").asText();
      agreement = agreement.withFacts(f -> f.withTemplate(template));
    }
    return agreement;
  }
}
