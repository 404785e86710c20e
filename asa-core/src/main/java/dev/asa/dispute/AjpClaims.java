package dev.asa.dispute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.document.Agreement;
import dev.asa.facts.DisputeFact;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A dispute as the Agent Justice Protocol files it (its whitepaper's section 6.3 claim, and section
 * 4.2.2 evidence records), built from the agreement, the dispute the server recorded and the
 * evidence {@code dispute.evidence_includes} asks for. Pure: the same inputs give the same claim.
 *
 * <ul>
 *   <li>Claimant and respondent: the party that challenged against its counterparty; a dispute the
 *       server filed (a low score, a quarantine) is the client's against the provider; an
 *       evaluator's silence is the client's against that evaluator.
 *   <li>Identities as AJP names them: {@code did} is {@code w3c_did}, {@code coc}, {@code erc8004}
 *       and {@code a2a} keep their names, anything else is a {@code uri} written {@code
 *       scheme:value}; {@code identity_proof} is the party's Ed25519 key, {@code ed25519:<key>}.
 *   <li>Harm: {@code contractual_breach}, quantified as the escrowed amount at stake, a decimal
 *       string; remediation: {@code compensation} by ruling.
 *   <li>{@code agreement_reference}: the agreement id, its {@code agreement_hash} (ASA's own form,
 *       {@code sha256:<hex>} over JCS), and the clauses the recorded verification found breached:
 *       {@code quality_criteria.composite_threshold}, {@code quality_criteria.dimensions.<name>},
 *       {@code quality_criteria.quality_gates.<condition>}, or {@code
 *       verification.evaluator_timeout_seconds} for a silent evaluator.
 *   <li>Evidence records, one per item asked for, each holding the item's JCS text as its {@code
 *       content}: a string, whose AJP content hash (SHA-256 of its UTF-8 bytes, bare hex) is the
 *       digest ASA computes over the same JCS, so the two protocols agree on it without AJP
 *       re-printing our numbers as Python floats. Provenance tier 1 (cryptographic) for what both
 *       parties signed or the hash-chained log, 2 (attested) for the verification result the
 *       evaluator or this server signed.
 *   <li>{@code claim_hash}: AJP's hash of the claim without it ({@link AjpJson}).
 * </ul>
 *
 * AJP's {@code finding_id} and {@code finding_hash} reference a forensic finding of its own
 * forensics engine, which a filing starts rather than carries: they are empty strings, as AJP's
 * reference code leaves them when none exists.
 */
public final class AjpClaims {
  private AjpClaims() {}

  /** AJP writes times with microseconds and a Z. */
  static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  /** A claim and the evidence records it cites. */
  public record Filing(ObjectNode claim, List<ObjectNode> evidence) {}

  /**
   * @param evidence the items {@code evidence_includes} asks for, by name, each as ASA renders it
   * @param verification the latest verification result, if any (for the breached clauses)
   * @param custodian who collected the evidence ({@code asa:<server key>})
   */
  public static Filing file(
      Agreement a,
      DisputeFact dispute,
      Map<String, JsonNode> evidence,
      Optional<JsonNode> verification,
      String custodian,
      Instant now) {
    Sides sides = sides(a, dispute);
    Party claimant = sides.claimant();
    Party respondent = sides.respondent();
    String at = TIME.format(now);
    List<ObjectNode> records = new ArrayList<>();
    Map<String, JsonNode> ordered = new LinkedHashMap<>(evidence);
    for (var item : ordered.entrySet()) {
      records.add(record(dispute.caseId(), item.getKey(), item.getValue(), custodian, at));
    }
    ObjectNode claim = Json.object();
    claim.put("version", 1);
    claim.put("claim_id", claimId(dispute.caseId()));
    claim.put("timestamp", at);
    claim.set("claimant", reference(claimant));
    claim.set("respondent", reference(respondent));
    claim.put("finding_id", "");
    claim.put("finding_hash", "");
    claim.put("incident_id", dispute.caseId());
    claim.put("interaction_id", "");
    ObjectNode harm = claim.putObject("harm");
    harm.put("type", "contractual_breach");
    harm.put("description", describe(dispute));
    ObjectNode value = harm.putObject("quantified_value");
    a.terms()
        .escrow()
        .paymentTerms()
        .ifPresentOrElse(
            p -> {
              value.put("amount", p.amount().toWire());
              value.put("currency", p.amount().currency().code());
            },
            () -> {
              value.put("amount", "0");
              value.put("currency", "USD");
            });
    value.put("basis", "the amount held in escrow under the agreement");
    ObjectNode remediation = claim.putObject("requested_remediation");
    remediation.put("type", "compensation");
    remediation.put(
        "details", "a ruling on the share of the escrowed amount released to the provider");
    ArrayNode supporting = claim.putArray("supporting_evidence");
    records.forEach(r -> supporting.add(r.path("evidence_id").asText()));
    ObjectNode reference = claim.putObject("agreement_reference");
    reference.put("asa_id", a.id());
    reference.put("terms_hash", a.hash().toString());
    ArrayNode breached = reference.putArray("breached_clauses");
    breachedClauses(dispute, verification).forEach(breached::add);
    claim.put("claim_hash", AjpJson.hash(claim));
    return new Filing(claim, List.copyOf(records));
  }

  /** Who claims against whom in a case. */
  public record Sides(Party claimant, Party respondent) {}

  /**
   * The party that challenged against its counterparty; a case the server filed (a low score, a
   * quarantine) is the client's against the provider; an evaluator's silence the client's against
   * that evaluator.
   */
  public static Sides sides(Agreement a, DisputeFact dispute) {
    Party client = a.terms().parties().client();
    Party provider = a.terms().parties().provider();
    if ("provider".equals(dispute.filedBy())) {
      return new Sides(provider, client);
    }
    Optional<Party> evaluator =
        a.terms().parties().evaluator().filter(e -> e.verificationKey() != null);
    if (dispute.reasonCode().equals("evaluator_timeout") && evaluator.isPresent()) {
      return new Sides(client, evaluator.get());
    }
    return new Sides(client, provider);
  }

  /**
   * The share of the escrow released to the provider by an AJP decision on a case: the provider
   * keeps what it was not found at fault for ({@code 100 - its fault}), as claimant or as
   * respondent; empty when the provider is not a side of the case (an evaluator's silence).
   */
  public static Optional<BigDecimal> providerShare(
      Sides sides, int claimantFaultPct, int respondentFaultPct) {
    if (sides.claimant().role() == Role.PROVIDER) {
      return Optional.of(BigDecimal.valueOf(100L - claimantFaultPct));
    }
    if (sides.respondent().role() == Role.PROVIDER) {
      return Optional.of(BigDecimal.valueOf(100L - respondentFaultPct));
    }
    return Optional.empty();
  }

  /** The claim id of a case: stable, so a decision that comes back can be matched to it. */
  public static String claimId(String caseId) {
    return UUID.nameUUIDFromBytes(("ajp-claim:" + caseId).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  private static String describe(DisputeFact d) {
    String who = d.filedBy() == null ? "server" : d.filedBy();
    return d.reasonCode() + " (filed by the " + who + ")";
  }

  static ObjectNode reference(Party p) {
    Identity id = p.identity();
    ObjectNode r = Json.object();
    String system =
        switch (id.scheme()) {
          case "did" -> "w3c_did";
          case "coc", "erc8004", "a2a" -> id.scheme();
          default -> "uri";
        };
    r.put("agent_id", system.equals("uri") ? id.scheme() + ":" + id.value() : id.value());
    r.put("identity_system", system);
    r.put(
        "identity_proof",
        p.verificationKey() == null ? "" : "ed25519:" + p.verificationKey().toBase64Url());
    return r;
  }

  private static ObjectNode record(
      String caseId, String item, JsonNode content, String custodian, String at) {
    String text = Jcs.canonicalString(content);
    ObjectNode r = Json.object();
    r.put("evidence_id", caseId + ":" + item);
    r.put(
        "evidence_type",
        switch (item) {
          case "event_log" -> "chain_entry";
          case "verification_result" -> "external_attestation";
          default -> "transaction_receipt";
        });
    r.put("provenance_tier", item.equals("verification_result") ? 2 : 1);
    ObjectNode source = r.putObject("source");
    source.put("agent_id", custodian);
    source.put("system", "asa");
    source.put("timestamp", at);
    source.put("anchor_proof", "");
    r.put("content_hash", AjpJson.contentHash(text));
    r.put("content", text);
    r.putArray("chain_of_custody")
        .addObject()
        .put("custodian", custodian)
        .put("received", at)
        .put("action", "collected")
        .put("integrity_hash", AjpJson.contentHash(text));
    return r;
  }

  /** The clauses the recorded verification found breached, in the result's order. */
  static List<String> breachedClauses(DisputeFact dispute, Optional<JsonNode> verification) {
    List<String> out = new ArrayList<>();
    if (dispute.reasonCode().equals("evaluator_timeout")) {
      out.add("verification.evaluator_timeout_seconds");
    }
    verification.ifPresent(v -> {
      if (!v.path("composite").path("passed").asBoolean(true)) {
        out.add("quality_criteria.composite_threshold");
      }
      for (JsonNode d : v.path("dimensions")) {
        if (d.path("slo_met").isBoolean() && !d.path("slo_met").booleanValue()) {
          out.add("quality_criteria.dimensions." + d.path("name").asText());
        }
      }
      for (JsonNode g : v.path("quality_gates")) {
        if (!g.path("passed").asBoolean(true)) {
          out.add("quality_criteria.quality_gates." + g.path("condition").asText());
        }
      }
    });
    return out;
  }
}
