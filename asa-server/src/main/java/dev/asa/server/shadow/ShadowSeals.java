package dev.asa.server.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.Caller;
import dev.asa.agreement.Role;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.server.store.Write;
import dev.asa.server.store.shadow.SealRow;
import dev.asa.server.store.shadow.SealStore;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.shadow.Commitment;
import dev.asa.shadow.CriterionResult;
import dev.asa.shadow.DeliveredWork;
import dev.asa.shadow.Gate;
import dev.asa.shadow.HardeningCycle;
import dev.asa.shadow.HardeningPolicy;
import dev.asa.shadow.Judge;
import dev.asa.shadow.SealRequest;
import dev.asa.shadow.SealStatement;
import dev.asa.shadow.SealVerification;
import dev.asa.shadow.SealedCriterion;
import dev.asa.shadow.SealedEnvelope;
import dev.asa.shadow.ShadowReport;
import dev.asa.shadow.ShadowValidation;
import dev.asa.shadow.ShadowValidator;
import dev.asa.shadow.Status;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Sealed Shadow Scoring in agreements (issue 7), the rules in one place: who may seal and when, who
 * may read the criteria before the reveal (the sealer and the operator; every read logged),
 * validation at verification with the gate, the hardening cycle, and the reveal.
 *
 * <p>The criteria and nonce live only in the {@code seals} table. The agreement document carries
 * the public part ({@code verification.shadow_seal}: statement, signature, signer, hardening
 * policy), inside the signed terms, so both parties' signatures cover the commitment; sealing is
 * refused once anyone has signed.
 */
public final class ShadowSeals {

  private final SealStore seals;
  private final Ed25519PrivateKey serverKey;
  private final Judge judge;
  static final SecureRandom RANDOM = new SecureRandom();

  public ShadowSeals(SealStore seals, Ed25519PrivateKey serverKey, Judge judge) {
    this.seals = seals;
    this.serverKey = serverKey;
    this.judge = judge;
  }

  // ---- sealing --------------------------------------------------------------------------------

  /** {@code POST /agreements/{id}/seal}: the client seals criteria before anyone signs. */
  public Change seal(Agreement a, SealRequest request, Caller caller, Actor actor, Instant now) {
    if (a.state() != State.PROPOSED && a.state() != State.NEGOTIATING) {
      throw new ConflictException(
          "criteria are sealed before the agreement is signed; agreement "
              + a.id()
              + " is "
              + a.state());
    }
    if (a.isSignedBy(Role.CLIENT) || a.isSignedBy(Role.PROVIDER)) {
      throw new ConflictException(
          "agreement "
              + a.id()
              + " already has a signature; seal criteria before anyone signs,"
              + " so that both signatures cover the commitment");
    }
    if (seals.ofAgreement(a.id()).isPresent() || a.member("verification").has("shadow_seal")) {
      throw new ConflictException(
          "agreement " + a.id() + " already has sealed criteria (one seal per agreement)");
    }
    Caller.Key key = (Caller.Key) caller;
    String sealer = sealerName(request, key);
    SealedEnvelope envelope =
        SealedEnvelope.seal(
            SealStatement.Subject.agreement(a.id()),
            request.criteria(),
            sealer,
            now,
            RANDOM,
            serverKey);
    HardeningPolicy policy = request.hardening();
    ObjectNode publicSeal = envelope.seal().toJson();
    publicSeal.set("hardening", policyJson(policy));
    ObjectNode document = a.toJson();
    document.with("verification").set("shadow_seal", publicSeal);
    Agreement sealed = AgreementDocuments.read(document);

    String sealId = newSealId();
    SealRow row =
        new SealRow(
            sealId,
            a.id(),
            key.keyId(),
            envelope.commitment().toString(),
            Json.write(envelope.seal().toJson()),
            Json.write(envelope.toJson()),
            Json.write(policyJson(policy)),
            null,
            now,
            null);
    ObjectNode payload = Json.object();
    payload.put("seal_id", sealId);
    payload.put("commitment", envelope.commitment().toString());
    payload.set("seal", envelope.seal().toJson());
    payload.put("agreement_hash", sealed.hash().toString());
    payload.put("state", sealed.state().name());
    ObjectNode response = publicSeal.deepCopy();
    response.put("agreement_id", a.id());
    response.put("seal_id", sealId);
    response.put("commitment", envelope.commitment().toString());
    response.put("agreement_hash", sealed.hash().toString());
    return new Change(
        sealed,
        List.of(new EventLog.Draft(EventType.SEALED, actor, payload)),
        List.of(new Write.PutSeal(row)),
        response,
        201);
  }

  /**
   * The statement's sealer: the caller itself. A request may name it (as its did:key or base64url
   * key) but not someone else: this server has no delegation of sealing.
   */
  static String sealerName(SealRequest request, Caller.Key key) {
    String did = DidKey.of(key.key());
    if (request.sealer().isPresent()
        && !request.sealer().get().equals(did)
        && !request.sealer().get().equals(key.keyId())) {
      throw AccessDeniedException.forbidden(
          "the request names sealer '"
              + request.sealer().get()
              + "', but it is signed by "
              + did
              + "; the sealer is the key that signs the request");
    }
    return did;
  }

  static ObjectNode policyJson(HardeningPolicy policy) {
    return Json.object().put("max_cycles", policy.maxCycles()).put("threshold", policy.threshold());
  }

  static HardeningPolicy policy(SealRow row) {
    JsonNode p = Json.parseTrusted(row.hardening());
    return new HardeningPolicy(p.path("max_cycles").asInt(), p.path("threshold").decimalValue());
  }

  // ---- validation -----------------------------------------------------------------------------

  /**
   * What validation at verification concluded.
   *
   * @param hardeningOpen the first delivery scored above the hardening threshold: no result is
   *     recorded, the provider may re-deliver once
   * @param report the spec-format report (null while hardening is open)
   */
  public record Validated(
      SealRow row, boolean hardeningOpen, Gate gate, ObjectNode report, List<Write> writes) {

    /** The shadow score of the report. */
    public BigDecimal score() {
      return report.path("report").path("shadow_score").decimalValue();
    }

    /** The shadow facts summarised in the verification's fact and event (after the reveal). */
    public ObjectNode summary() {
      ObjectNode s = Json.object();
      s.put("gate", gate.wire());
      JsonNode r = report.path("report");
      s.set("shadow_score", r.path("shadow_score"));
      s.set("level", r.path("level"));
      s.put("seal_broken", r.path("seal_broken").asBoolean(false));
      s.put("commitment", row.commitment());
      s.put("seal_id", row.id());
      return s;
    }
  }

  /** The seal of the agreement, if it has one, validated against the delivered content. */
  public Optional<Validated> validate(Agreement a, String content, String format, Instant now) {
    Optional<SealRow> found = seals.ofAgreement(a.id());
    if (found.isEmpty()) {
      return Optional.empty();
    }
    SealRow row = found.get();
    SealedEnvelope envelope;
    try {
      envelope = SealedEnvelope.parse(Json.parseTrusted(row.envelope()));
    } catch (RuntimeException e) {
      return Optional.of(unreadable(row, e.getMessage(), now));
    }
    ShadowValidation v =
        ShadowValidator.validate(envelope, DeliveredWork.of(content, format), judge);
    // The seal must also be the one recorded: signed by this server, committing to what the signed
    // terms say.
    Optional<Commitment> recorded = recordedCommitment(a);
    v =
        new ShadowValidation(
            v.sealedHash(),
            SealVerification.check(envelope, Optional.of(serverKey.publicKey()), recorded),
            v.results());
    JsonNode state = row.validation() == null ? Json.object() : Json.parseTrusted(row.validation());
    HardeningCycle cycle = HardeningCycle.start(v, policy(row));
    boolean redelivery =
        "open".equals(state.path("status").asText())
            || "redelivered".equals(state.path("status").asText());
    if (redelivery) {
      cycle =
          HardeningCycle.start(validationOf(state.path("initial"), envelope), policy(row))
              .redelivered(v);
    } else if (cycle.fixAllowed()) {
      ObjectNode open = Json.object().put("status", "open").put("opened_at", now.toString());
      open.set("initial", resultsJson(v));
      return Optional.of(
          new Validated(
              row,
              true,
              null,
              null,
              List.of(new Write.SetSealValidation(row.id(), Json.write(open)))));
    }
    ObjectNode report = cycle.report().toJson();
    ObjectNode done =
        Json.object()
            .put("status", "validated")
            .put("validated_at", now.toString())
            .put("gate", cycle.gate().wire());
    if (redelivery) {
      done.set("initial", state.path("initial"));
    }
    done.set("report", report);
    return Optional.of(
        new Validated(
            row,
            false,
            cycle.gate(),
            report,
            List.of(
                new Write.SetSealValidation(row.id(), Json.write(done)),
                new Write.RevealSeal(row.id(), now))));
  }

  /** Stored criteria that no longer even read: the seal is broken, nothing can be scored. */
  static Validated unreadable(SealRow row, String problem, Instant now) {
    ObjectNode report = Json.object().put("shadow_score_spec_version", ShadowReport.SPEC_VERSION);
    ObjectNode r = report.putObject("report");
    r.put("sealed_hash", row.commitment());
    r.put("seal_broken", true);
    r.put("advisory", true);
    r.put(
        "advisory_reason",
        "the stored sealed criteria do not read (" + problem + "): the seal is broken");
    ObjectNode done =
        Json.object()
            .put("status", "validated")
            .put("validated_at", now.toString())
            .put("gate", Gate.BLOCKED.wire());
    done.set("report", report);
    return new Validated(
        row,
        false,
        Gate.BLOCKED,
        report,
        List.of(
            new Write.SetSealValidation(row.id(), Json.write(done)),
            new Write.RevealSeal(row.id(), now)));
  }

  /**
   * The commitment in the agreement's signed terms ({@code
   * verification.shadow_seal.statement.commitment}).
   */
  static Optional<Commitment> recordedCommitment(Agreement a) {
    JsonNode c = a.member("verification").path("shadow_seal").path("statement").path("commitment");
    if (!c.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Commitment.parse(c.asText()));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static ArrayNode resultsJson(ShadowValidation v) {
    ArrayNode list = Json.mapper().createArrayNode();
    for (CriterionResult r : v.results()) {
      list.addObject()
          .put("id", r.criterion().id())
          .put("status", r.status().name())
          .put("actual", r.actual());
    }
    return list;
  }

  /** A stored first validation, read back against the envelope's criteria. */
  ShadowValidation validationOf(JsonNode results, SealedEnvelope envelope) {
    Map<String, SealedCriterion> byId =
        envelope.criteria().criteria().stream()
            .collect(Collectors.toMap(SealedCriterion::id, Function.identity()));
    List<CriterionResult> list = new ArrayList<>();
    for (JsonNode r : results) {
      SealedCriterion c = byId.get(r.path("id").asText());
      if (c == null) {
        throw new IllegalStateException(
            "the stored validation names criterion '"
                + r.path("id").asText()
                + "', which the seal has not");
      }
      list.add(
          new CriterionResult(
              c, Status.valueOf(r.path("status").asText()), r.path("actual").asText()));
    }
    return new ShadowValidation(envelope.commitment(), SealVerification.check(envelope), list);
  }

  /** A new seal id: "seal-" and 16 random hex digits. */
  static String newSealId() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return "seal-" + HexFormat.of().formatHex(b);
  }

  /** Whether a shadow hardening cycle waits for the provider's re-delivery. */
  public static boolean hardeningOpen(Agreement a) {
    return a.state() == State.DELIVERED && a.facts().hardeningOpen();
  }
}
