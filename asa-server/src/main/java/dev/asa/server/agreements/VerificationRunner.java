package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Party;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.StructuralReport;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.ChallengeWindow;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import dev.asa.scoring.IncompleteScoresException;
import dev.asa.scoring.Scorecard;
import dev.asa.scoring.Scorer;
import dev.asa.scoring.VerificationResult;
import dev.asa.server.store.AgreementStore;
import dev.asa.server.store.DeliverableRow;
import dev.asa.server.store.VerificationRow;
import dev.asa.server.store.Write;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code POST /agreements/{id}/verify}: scores the deliverable against the agreement's criteria.
 *
 * <p>The server's structural evaluator measures what it can honestly measure (format, schema, size,
 * sections, timeliness). Dimensions that need judgement (accuracy, relevance...) come from the
 * assigned evaluator in {@code evaluator_result}; a dimension nobody scored makes the call fail
 * with a list of what is missing, never a guessed number. The result follows section 5.2; the
 * deliverable's content is erased in the same transaction, only its digest stays.
 */
public final class VerificationRunner {

  private final AgreementStore store;
  private final StructuralEvaluator structural;
  private final DeliverableFetcher fetcher;

  private final Ed25519PrivateKey serverKey;

  public VerificationRunner(AgreementStore store, StructuralEvaluator structural, DeliverableFetcher fetcher,
      Ed25519PrivateKey serverKey) {
    this.store = store;
    this.structural = structural;
    this.fetcher = fetcher;
    this.serverKey = serverKey;
    this.release = new ReleasePolicy(serverKey, store);
  }

  private final ReleasePolicy release;

  /** The cliff-optimisation mitigations (threshold noise, dynamic tiers) of the agreements it verifies. */
  ReleasePolicy releasePolicy() {
    return release;
  }

  /**
   * Scores the latest deliverable and moves the agreement to VERIFIED (enforcing the result, with
   * or without a challenge window, is the caller's next step).
   */
  AgreementService.Change verify(Agreement a, SubmittedResult submitted, Actor actor, Instant now, Supplier<String> newId) {
    State next = Lifecycle.next(a.state(), Action.VERIFY, Lifecycle.Facts.NONE);
    DeliverableRow row = store.latestDeliverable(a.id())
        .orElseThrow(() -> new IllegalStateException("agreement " + a.id() + " is DELIVERED but has no deliverable"));
    if (row.content() == null && row.contentUrl() == null) {
      // Content is erased only by a committed verification: a concurrent request verified first.
      throw new ConflictException("agreement " + a.id() + " was verified by a concurrent request; read it again");
    }
    String content = row.content() != null ? row.content() : fetcher.fetch(row.contentUrl(), Digest.parse(row.contentHash()));
    long started = System.nanoTime();
    Deliverable deliverable = new Deliverable(content, row.format(), Digest.parse(row.contentHash()), row.deliveredAt());
    StructuralReport report = structural.evaluate(deliverable, a.terms().qualityCriteria(), a.terms().service().constraints(), deadline(a));

    Map<String, DimensionInput> inputs = new HashMap<>(report.dimensions());
    for (DimensionInput given : submitted.dimensions()) {
      DimensionInput measured = inputs.get(given.name());
      if (measured == null) {
        throw new InvalidDocumentException("/evaluator_result/dimensions", "the agreement has no dimension '" + given.name() + "'");
      }
      if (measured.score() != null) {
        throw new InvalidDocumentException("/evaluator_result/dimensions",
            "'" + given.name() + "' is measured by the server's structural evaluator; do not submit it");
      }
      inputs.put(given.name(), given);
    }
    Map<String, CheckResult> checks = new HashMap<>(report.checks());
    submitted.checks().forEach(checks::putIfAbsent);

    ReleasePolicy.Applied applied = release.apply(a);
    Scorecard card;
    try {
      card = Scorer.score(a.terms().qualityCriteria(), applied.payment(), inputs, checks);
    } catch (IncompleteScoresException e) {
      throw new InvalidDocumentException("/evaluator_result/dimensions", e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/evaluator_result", e.getMessage());
    }
    Party evaluator = a.terms().parties().evaluator();
    String evaluatorType = submitted.isEmpty() ? "builtin_structural"
        : evaluator.evaluatorType() == null ? "external" : evaluator.evaluatorType();
    long durationMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
    VerificationResult result = VerificationResult.of(
        newId.get(), a.id(), now, new VerificationResult.Evaluator(evaluator.identity(), evaluatorType, submitted.model()),
        card, Digest.parse(row.contentHash()), durationMs, BigDecimal.ZERO);
    ObjectNode resultJson = (ObjectNode) result.toJson();

    ObjectNode summary = Json.object();
    summary.put("verification_id", result.verificationId());
    summary.put("verified_at", now.toString());
    summary.put("result", card.determination().result());
    summary.set("composite", resultJson.path("composite").path("score"));
    summary.set("payment_release_percent", resultJson.path("determination").path("payment_release_percent"));
    summary.put("evaluation_hash", resultJson.path("evidence_trail").path("evaluation_hash").asText());
    ChallengeWindow window = ChallengeWindow.after(now, a.terms().verification());
    summary.put("challenge_window_closes_at", window.closesAt().toString());
    if (applied.audit() != null) {
      summary.set("release_tiers", applied.audit());
    }

    Agreement verified = a.withState(next).withMetadata("verification", summary);
    ObjectNode payload = summary.deepCopy();
    payload.put("deliverable_hash", row.contentHash());
    if (submitted.isEmpty()) {
      // The server's built-in evaluator vouches for its own result: anyone can check this signature
      // over the evaluation_hash with the key at /.well-known/asa/server-key.
      String hash = summary.path("evaluation_hash").asText();
      payload.put("server_signature", serverKey.sign(hash.getBytes(StandardCharsets.UTF_8)).toBase64Url());
    }
    payload.put("state", next.name());
    List<EventLog.Draft> events = new ArrayList<>();
    events.add(new EventLog.Draft("verified", actor, payload));
    List<Write> writes = List.of(
        new Write.PutVerification(new VerificationRow(result.verificationId(), a.id(), row.contentHash(), Json.write(resultJson), now)),
        new Write.EraseDeliverableContent(a.id()));

    ObjectNode response = Json.object();
    response.put("agreement_id", a.id());
    response.put("state", verified.state().name());
    response.set("verification", resultJson);
    return new AgreementService.Change(verified, events, writes, response);
  }

  /** Delivery is due {@code max_duration_seconds} after activation, or by {@code expires_at}. */
  private static Instant deadline(Agreement a) {
    Long max = a.terms().service().constraints().maxDurationSeconds();
    JsonNode activated = a.metadata("activated_at");
    if (max != null && activated.isTextual()) {
      return Instant.parse(activated.asText()).plusSeconds(max);
    }
    return a.terms().expiresAt();
  }

  /** The assigned evaluator's scores, when it submits them. */
  record SubmittedResult(List<DimensionInput> dimensions, Map<String, CheckResult> checks, String model) {
    boolean isEmpty() {
      return dimensions.isEmpty() && checks.isEmpty();
    }

    static SubmittedResult parse(JsonNode body) {
      if (body == null || body.isNull() || body.isMissingNode()) {
        return new SubmittedResult(List.of(), Map.of(), null);
      }
      ObjectNode b = Bodies.object(body, "a verify request");
      Bodies.allowOnly(b, "", "evaluator_result");
      JsonNode r = b.get("evaluator_result");
      if (r == null || r.isNull()) {
        return new SubmittedResult(List.of(), Map.of(), null);
      }
      ObjectNode result = Bodies.object(r, "evaluator_result");
      Bodies.allowOnly(result, "/evaluator_result", "dimensions", "checks", "model", "confidence");
      BigDecimal confidence = null;
      if (result.has("confidence")) {
        JsonNode c = result.get("confidence");
        if (!c.isNumber() || c.decimalValue().signum() < 0 || c.decimalValue().compareTo(BigDecimal.ONE) > 0) {
          throw new InvalidDocumentException("/evaluator_result/confidence", "must be a number from 0 to 1");
        }
        confidence = c.decimalValue();
      }
      List<DimensionInput> dims = new ArrayList<>();
      JsonNode list = result.path("dimensions");
      if (!list.isMissingNode() && !list.isArray()) {
        throw new InvalidDocumentException("/evaluator_result/dimensions", "must be an array of {name, score, evidence}");
      }
      for (int i = 0; i < list.size(); i++) {
        String at = "/evaluator_result/dimensions/" + i;
        ObjectNode d = Bodies.object(list.get(i), "a dimension score");
        Bodies.allowOnly(d, at, "name", "score", "evidence", "shadow_value", "shadow_evidence");
        String name = Bodies.requiredText(d, "name", at, "the dimension's name");
        JsonNode score = d.get("score");
        if (score == null || !(score.isNumber() || score.isBoolean())) {
          throw new InvalidDocumentException(at + "/score", "required: a number (or true/false for a boolean dimension)");
        }
        BigDecimal value = score.isBoolean() ? BigDecimal.valueOf(score.booleanValue() ? 100 : 0) : score.decimalValue();
        String evidence = Bodies.requiredText(d, "evidence", at, "what the score rests on");
        JsonNode shadow = d.get("shadow_value");
        if (shadow != null && !shadow.isNumber()) {
          throw new InvalidDocumentException(at + "/shadow_value", "must be a number");
        }
        dims.add(new DimensionInput(name, value, evidence, shadow == null ? null : shadow.decimalValue(),
            Bodies.optionalText(d, "shadow_evidence", at), confidence, "evaluator"));
      }
      Map<String, CheckResult> checks = new HashMap<>();
      JsonNode c = result.path("checks");
      if (!c.isMissingNode()) {
        ObjectNode co = Bodies.object(c, "checks");
        for (Map.Entry<String, JsonNode> e : co.properties()) {
          if (!e.getValue().isBoolean()) {
            throw new InvalidDocumentException("/evaluator_result/checks/" + e.getKey(), "must be true or false");
          }
          checks.put(e.getKey(), new CheckResult(e.getValue().booleanValue(), "reported by the evaluator"));
        }
      }
      return new SubmittedResult(dims, checks, Bodies.optionalText(result, "model", "/evaluator_result"));
    }
  }
}
