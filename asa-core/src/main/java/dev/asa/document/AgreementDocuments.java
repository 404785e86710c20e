package dev.asa.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.AgreementSchemas;
import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.AsaVersion;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.SemanticRules;
import dev.asa.agreement.TermsReader;
import dev.asa.agreement.UnsupportedVersionException;
import dev.asa.agreement.Violation;
import dev.asa.agreement.Violations;
import dev.asa.facts.ServerFacts;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads agreement documents. {@link #read} is for anything from outside: it checks the declared
 * version, validates against that version's JSON Schema, reads the typed terms and applies the
 * semantic rules, reporting every problem at once. {@link #readStored} is for documents this server
 * validated before and stored itself.
 */
public final class AgreementDocuments {
  private AgreementDocuments() {}

  public static Agreement read(JsonNode input) {
    return read(input, true);
  }

  /**
   * Standalone criteria (section 5.1) in the minimal agreement {@link StandaloneCriteria} wraps
   * them in: the same schema and rules, except those only an agreement has to meet.
   */
  static Agreement readCriteriaCarrier(JsonNode carrier) {
    return read(carrier, false);
  }

  private static Agreement read(JsonNode input, boolean agreement) {
    if (!(input instanceof ObjectNode object)) {
      throw new InvalidDocumentException("", "an agreement must be a JSON object");
    }
    if (object.has(Agreement.FACTS_MEMBER)) {
      // What the server knows (escrow, negotiation, verification, settlement...) is never taken
      // from a caller.
      throw new InvalidDocumentException(
          "/" + Agreement.FACTS_MEMBER,
          "server-owned: the server records its own facts"
              + " about an agreement (negotiation, escrow, delivery, verification, dispute, settlement) and shows them under"
              + " metadata in responses; a document sent to it must leave metadata out");
    }
    AsaVersion version = version(object);
    List<Violation> schemaViolations = AgreementSchemas.validate(object, version.major());
    Violations violations = new Violations();
    AgreementTerms terms = readTerms(object, violations, !schemaViolations.isEmpty(), agreement);
    if (!schemaViolations.isEmpty()) {
      throw new InvalidDocumentException(alongside(schemaViolations, violations.list()));
    }
    violations.throwIfAny();
    return new Agreement(object.deepCopy(), terms, ServerFacts.NONE);
  }

  /**
   * The terms and the rules a schema cannot express. They run even when the schema found problems,
   * so that the sender learns every problem in one answer; the reader expects a document the schema
   * accepted, so on one it refused it may stop short, and then the schema's findings are the
   * answer.
   */
  private static AgreementTerms readTerms(
      ObjectNode object, Violations violations, boolean schemaRefused, boolean agreement) {
    try {
      AgreementTerms terms = new TermsReader(violations).read(object);
      if (terms != null) {
        new SemanticRules(violations, agreement).check(terms);
      }
      return terms;
    } catch (RuntimeException e) {
      if (!schemaRefused) {
        throw e; // a document the schema accepted must read: a bug, not the sender's problem
      }
      return null;
    }
  }

  /**
   * The schema's violations, then each other one not at or inside a member the schema already
   * refused: a member of the wrong type is not also reported as out of range.
   */
  private static List<Violation> alongside(List<Violation> schema, List<Violation> rules) {
    List<Violation> all = new ArrayList<>(schema);
    for (Violation v : rules) {
      if (schema.stream().noneMatch(s -> within(v.pointer(), s.pointer()))) {
        all.add(v);
      }
    }
    return all;
  }

  /** The same place, or inside it; everything is inside the whole document (""). */
  private static boolean within(String pointer, String container) {
    return (pointer + "/").startsWith(container + "/");
  }

  /**
   * Reads a document this server validated when it was created, in the state its row records, with
   * the facts it stored beside it.
   */
  public static Agreement readStored(String json, State state, ServerFacts facts) {
    return readStored(json, state).withFacts(facts);
  }

  /**
   * Reads a document this server validated when it was created (its terms; no facts), in the state
   * its row records. The stored text keeps no status of its own ({@link Agreement#toStoredText}:
   * the row's state is the one place it lives); a text stored before that has one, and the row's
   * state is the one that counts.
   */
  public static Agreement readStored(String json, State state) {
    ObjectNode object = (ObjectNode) Json.parseTrusted(json);
    object.put("status", state.wireName());
    Violations violations = new Violations();
    AgreementTerms terms = new TermsReader(violations).read(object);
    if (terms == null || !violations.isEmpty()) {
      throw new IllegalStateException("stored agreement no longer reads: " + violations.list());
    }
    return new Agreement(object, terms, ServerFacts.NONE);
  }

  /** The declared version, refusing a missing one or a major version without a schema here. */
  public static AsaVersion version(ObjectNode document) {
    JsonNode v = document.get("asa_version");
    if (v == null || !v.isTextual()) {
      throw new InvalidDocumentException(
          "/asa_version", "required: the ASA version of the document, e.g. \"1.0.0\"");
    }
    AsaVersion version;
    try {
      version = AsaVersion.parse(v.asText());
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/asa_version", e.getMessage());
    }
    if (!AgreementSchemas.knowsMajor(version.major())) {
      throw new UnsupportedVersionException(
          "asa_version "
              + version
              + " has major version "
              + version.major()
              + ", which this server does not support; it accepts 1.x.y documents");
    }
    return version;
  }
}
