package dev.asa.agreement;

import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.text.ControlCharacters;
import dev.asa.text.Identities;
import dev.asa.text.ModelNames;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules a JSON Schema cannot express, each in one place. Run after the schema and after the
 * terms were read; every broken rule becomes a {@link Violation} with a pointer.
 *
 * <p>Public for {@code dev.asa.document.AgreementDocuments}, which reads whole documents with it.
 */
public final class SemanticRules {

  /** Weights must sum to 1 within this tolerance. */
  static final BigDecimal WEIGHT_TOLERANCE = new BigDecimal("0.001");

  /** Conditions an evaluator may report besides boolean dimensions (section 6.4). */
  static final Set<String> KNOWN_CHECKS =
      Set.of(
          "no_critical_security_vulnerabilities",
          "all_tests_pass",
          "tests_pass",
          "format_valid",
          "schema_valid",
          "within_size_limit",
          "required_sections_present");

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  private final Violations v;

  /**
   * Whether the terms are an agreement's, which section 3.3 requires to be multi-dimensional; false
   * for standalone criteria (section 5.1), carried in a minimal agreement only to be validated,
   * where one dimension (say, format compliance) is a legitimate check.
   */
  private final boolean agreement;

  SemanticRules(Violations v) {
    this(v, true);
  }

  public SemanticRules(Violations v, boolean agreement) {
    this.v = v;
    this.agreement = agreement;
  }

  public void check(AgreementTerms t) {
    checkNoControlCharacters(t);
    checkTimes(t);
    checkParties(t.parties());
    checkDimensions(t.qualityCriteria());
    checkGates(t.qualityCriteria());
    t.escrow().paymentTerms().ifPresent(p -> checkRelease(p.release()));
    t.escrow().collateralTerms().ifPresent(c -> checkCollateral(t.escrow()));
    t.disputeTerms().ifPresent(this::checkDispute);
  }

  /**
   * Identities, ids and names carry no control characters (see {@link ControlCharacters}). The
   * schema's patterns already keep them out of ids; this holds whatever the schema says, on every
   * store, for the members that have no pattern.
   */
  private void checkNoControlCharacters(AgreementTerms t) {
    noControl("/agreement_id", t.agreementId());
    noControl("/service/parent_agreement_id", t.service().parentAgreementId());
    for (Party party : t.parties().all()) {
      String at = "/parties/" + party.role().wireName();
      noControl(at + "/identity/value", party.identity().value());
      noControl(at + "/identity/lineage", party.identity().lineage());
      noControl(at + "/display_name", party.displayName());
      noControl(at + "/organization", party.organization());
      noControl(at + "/type", party.evaluatorType());
    }
  }

  private void noControl(String pointer, String value) {
    String problem = value == null ? null : ControlCharacters.problemWith(value);
    if (problem != null) {
      v.add(pointer, problem);
    }
  }

  private void checkTimes(AgreementTerms t) {
    if (t.expiresAt() != null && !t.expiresAt().isAfter(t.createdAt())) {
      v.add("/expires_at", "must be later than created_at (" + t.createdAt() + ")");
    }
  }

  private void checkParties(Parties p) {
    for (Party party : p.all()) {
      String at = "/parties/" + party.role().wireName();
      if (party.identity().scheme().equals("did") && !party.identity().value().startsWith("did:")) {
        v.add(at + "/identity/value", "an identity of scheme 'did' must start with 'did:'");
      }
      if (party.identity().isDidKey()) {
        checkDidKey(party, at);
      }
    }
    if (p.client().identity().sameAgentAs(p.provider().identity())) {
      v.add("/parties/provider/identity", "client and provider must be different agents");
    }
    if (p.client().verificationKey().equals(p.provider().verificationKey())) {
      v.add("/parties/provider/verification_key", "client and provider must hold different keys");
    }
    // A pool evaluator's independence is checked when it is assigned (dev.asa.integrity.Screening).
    p.evaluator()
        .ifPresent(ev -> {
          checkIndependence(ev, p);
          checkCanAnswer(ev);
          checkJudgeModel(ev, p.provider());
        });
  }

  /**
   * A named evaluator answers with results signed by its {@code verification_key}; without one it
   * could never submit, and the agreement would wait for it until the dead-man's switch. Only the
   * server's own evaluator ({@code "type": "builtin"}) takes none: it signs with the server's key,
   * so a key beside it would name someone else to act in its name.
   */
  private void checkCanAnswer(Party ev) {
    String at = "/parties/evaluator/verification_key";
    if (ev.key().isEmpty() && !ev.isBuiltin()) {
      v.add(
          at,
          "required: the evaluator signs its results with this key and, without one, could never"
              + " submit them; give its key, leave parties.evaluator out to have one assigned from"
              + " the pool, or name the server's own evaluator with \"type\": \""
              + Party.BUILTIN
              + "\"");
    } else if (ev.key().isPresent() && ev.isBuiltin()) {
      v.add(
          at,
          "the server's own evaluator (type "
              + Party.BUILTIN
              + ") signs with the server's key; leave verification_key out, or name another type");
    }
  }

  /**
   * The judge the terms fix never runs the provider's model: models rate their own output higher
   * (whitepaper 5.6). Refused here, when the parties can still change it, rather than at
   * verification, after the work is done. Names compare as {@link ModelNames#same} compares them
   * everywhere else.
   */
  private void checkJudgeModel(Party ev, Party provider) {
    String judge = ev.evaluatorSettings().model();
    String own = provider.model();
    if (judge != null && own != null && ModelNames.same(judge, own)) {
      v.add(
          EvaluatorSettings.DOCUMENT_POINTER + "/model",
          "'"
              + judge
              + "' is the provider's own model (/parties/provider/model '"
              + own
              + "'); models rate their own output higher, so this judge would not be"
              + " independent: name another model");
    }
  }

  /**
   * What the dispute terms name must happen: an automatic-filing condition the server fires (with
   * the threshold it needs), and evidence items it can put in the package, each once.
   */
  private void checkDispute(DisputeTerms d) {
    String at = "/dispute";
    if (d.autoFileOn() != null) {
      if (!DisputeTerms.AUTO_FILE_CONDITIONS.contains(d.autoFileOn())) {
        v.add(
            at + "/auto_file_on",
            "unknown condition '"
                + d.autoFileOn()
                + "': it would never fire; this server files automatically on "
                + String.join(", ", DisputeTerms.AUTO_FILE_CONDITIONS)
                + ", or leave auto_file_on out");
      } else if (d.threshold() == null) {
        v.add(
            at + "/threshold",
            "required with auto_file_on '"
                + d.autoFileOn()
                + "': the composite score under which the dispute is filed (0-100)");
      }
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < d.evidenceIncludes().size(); i++) {
      String item = d.evidenceIncludes().get(i);
      String pointer = at + "/evidence_includes/" + i;
      if (DisputeTerms.Evidence.fromWire(item).isEmpty()) {
        v.add(
            pointer,
            "'"
                + item
                + "' is not something a dispute package can hold; name any of "
                + DisputeTerms.Evidence.names());
      } else if (!seen.add(item)) {
        v.add(pointer, "'" + item + "' is named twice");
      }
    }
  }

  /**
   * A named evaluator shares no identity, organization, lineage or key with either signer.
   * Independence compares names as a person reads them (Identities.comparable): "ACME Labs\u200B"
   * is the organization "acme labs", whatever case, spacing, zero-width or full-width form is used.
   */
  private void checkIndependence(Party ev, Parties p) {
    for (Party signer : List.of(p.client(), p.provider())) {
      if (ev.identity().sameAgentAs(signer.identity())) {
        v.add(
            "/parties/evaluator/identity",
            "the evaluator must be independent: it has the same identity as the "
                + signer.role().wireName());
      }
      if (Identities.same(ev.organization(), signer.organization())) {
        v.add(
            "/parties/evaluator/organization",
            "the evaluator must be independent: it belongs to the same organization as the "
                + signer.role().wireName()
                + " ('"
                + ev.organization()
                + "')");
      }
      if (Identities.same(ev.identity().lineage(), signer.identity().lineage())) {
        v.add(
            "/parties/evaluator/identity/lineage",
            "the evaluator must be independent: it shares its CoC lineage with the "
                + signer.role().wireName());
      }
      if (ev.key().isPresent() && ev.verificationKey().equals(signer.verificationKey())) {
        v.add(
            "/parties/evaluator/verification_key",
            "the evaluator must be independent: it uses the "
                + signer.role().wireName()
                + "'s verification_key");
      }
    }
  }

  private void checkDidKey(Party party, String at) {
    Ed25519PublicKey fromDid;
    try {
      fromDid = DidKey.parse(party.identity().value());
    } catch (IllegalArgumentException e) {
      v.add(at + "/identity/value", e.getMessage());
      return;
    }
    if (party.key().isEmpty()) {
      return;
    }
    if (!fromDid.equals(party.verificationKey())) {
      v.add(
          at + "/verification_key",
          "does not match the did:key identity; it must be the key encoded in "
              + party.identity().value());
    }
  }

  private void checkDimensions(QualityCriteria c) {
    if (agreement && c.dimensions().size() == 1) {
      v.add(
          "/quality_criteria/dimensions",
          "one dimension ('"
              + c.dimensions().get(0).name()
              + "'): ASA requires multi-dimensional quality criteria with balanced metrics"
              + " (section 3.3), since a single target invites gaming; add at least one more"
              + " dimension");
    }
    BigDecimal sum = BigDecimal.ZERO;
    Set<String> names = new HashSet<>();
    for (int i = 0; i < c.dimensions().size(); i++) {
      Dimension d = c.dimensions().get(i);
      String at = "/quality_criteria/dimensions/" + i;
      sum = sum.add(d.weight());
      if (!names.add(d.name())) {
        v.add(at + "/name", "dimension '" + d.name() + "' appears twice");
      }
      checkSloFitsMetric(d.metric(), d.slo(), at + "/slo");
      if (d.shadowSlo() != null && d.shadowMetric() == null) {
        v.add(at + "/shadow_slo", "a shadow_slo needs a shadow_metric naming what it measures");
      }
    }
    if (sum.subtract(BigDecimal.ONE).abs().compareTo(WEIGHT_TOLERANCE) > 0) {
      v.add(
          "/quality_criteria/dimensions",
          "weights sum to "
              + sum.stripTrailingZeros().toPlainString()
              + "; they must sum to 1 (+-0.001)");
    }
  }

  private void checkSloFitsMetric(MetricType metric, Slo slo, String at) {
    boolean flag = slo.target() instanceof Slo.Target.Flag;
    if (metric == MetricType.BOOLEAN) {
      if (!flag) {
        v.add(at + "/value", "a boolean dimension takes a true/false target with eq or neq");
      }
      return;
    }
    if (flag) {
      v.add(at + "/value", "a " + metric.wireName() + " dimension takes a number, not true/false");
      return;
    }
    BigDecimal low;
    BigDecimal high;
    if (slo.target() instanceof Slo.Target.Range r) {
      low = r.low();
      high = r.high();
    } else {
      low = high = ((Slo.Target.Number) slo.target()).value();
    }
    boolean bounded = metric == MetricType.PERCENTAGE || metric == MetricType.SCORE;
    if (low.signum() < 0 || (bounded && high.compareTo(HUNDRED) > 0)) {
      v.add(
          at + "/value",
          "a " + metric.wireName() + " target must lie in " + (bounded ? "0..100" : "0 or more"));
    }
  }

  private void checkGates(QualityCriteria c) {
    for (int i = 0; i < c.gates().size(); i++) {
      QualityGate gate = c.gates().get(i);
      String at = "/quality_criteria/quality_gates/" + i + "/condition";
      switch (gate.condition()) {
        case QualityGate.Condition.AllSlosMet a -> {}
        case QualityGate.Condition.Threshold th -> {
          if (!th.isComposite() && c.dimension(th.subject()).isEmpty()) {
            v.add(
                at,
                "threshold gate on '"
                    + th.subject()
                    + "', which is neither a dimension nor 'composite'");
          }
        }
        case QualityGate.Condition.Check ch -> {
          boolean booleanDimension =
              c.dimension(ch.name()).map(d -> d.metric() == MetricType.BOOLEAN).orElse(false);
          if (!booleanDimension && !KNOWN_CHECKS.contains(ch.name())) {
            v.add(
                at,
                "unknown gate condition '"
                    + ch.name()
                    + "'; use all_slos_met, <dimension>_gte_<n>,"
                    + " composite_gte_<n>, a boolean dimension, or one of "
                    + String.join(", ", KNOWN_CHECKS.stream().sorted().toList()));
          }
        }
      }
    }
  }

  /**
   * A collateral is held beside the escrow, in its currency: without an escrow holding a payment
   * there is no ledger to stake on and no client's account in that currency to slash to.
   */
  private void checkCollateral(Escrow escrow) {
    String at = "/escrow/collateral";
    if (!escrow.enabled()) {
      v.add(
          at,
          "escrow is disabled, and a collateral is held beside the escrow: enable it or remove"
              + " escrow.collateral");
      return;
    }
    // (That its currency is the payment's is checked as it is read: TermsReader.collateral.)
    if (escrow.paymentTerms().isEmpty()) {
      v.add(
          at,
          "a collateral is held beside the escrow's payment: give escrow.payment (amount and"
              + " currency), or remove escrow.collateral");
    }
  }

  private void checkRelease(GraduatedRelease release) {
    String at = "/escrow/payment/graduated_release";
    if (!release.enabled()) {
      return;
    }
    if (release.mode() == GraduatedRelease.Mode.CONTINUOUS) {
      if (!release.tiers().isEmpty()) {
        v.add(at + "/tiers", "continuous mode pays score/100 of the amount; remove the tiers");
      }
      // Continuous release has no cliff to blunt: a mitigation here would be a term that does
      // nothing while the parties believe it protects them.
      if (release.thresholdNoise().enabled()) {
        v.add(
            at + "/threshold_noise",
            "continuous mode has no tier boundaries to move; remove threshold_noise or use mode tiers");
      }
      if (release.dynamicTiers().enabled()) {
        v.add(
            at + "/dynamic_tiers",
            "continuous mode has no tier boundaries to move; remove dynamic_tiers or use mode tiers");
      }
      return;
    }
    List<Tier> tiers = release.tiers();
    if (tiers.isEmpty()) {
      v.add(at + "/tiers", "tier mode needs at least one composite_score_gte tier");
      return;
    }
    List<Tier> gte = tiers.stream().filter(t -> t.bound() == Tier.Bound.GTE).toList();
    List<Tier> lt = tiers.stream().filter(t -> t.bound() == Tier.Bound.LT).toList();
    if (gte.isEmpty()) {
      v.add(at + "/tiers", "at least one tier must use composite_score_gte");
      return;
    }
    Set<BigDecimal> seen = new HashSet<>();
    for (Tier t : gte) {
      if (!seen.add(t.score().stripTrailingZeros())) {
        v.add(at + "/tiers", "two tiers start at composite score " + t.score().toPlainString());
      }
    }
    List<Tier> sorted = gte.stream().sorted((a, b) -> a.score().compareTo(b.score())).toList();
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).releasePercent().compareTo(sorted.get(i - 1).releasePercent()) < 0) {
        v.add(
            at + "/tiers",
            "a higher score must never release less: tier >= "
                + sorted.get(i).score().toPlainString()
                + " releases less than tier >= "
                + sorted.get(i - 1).score().toPlainString());
      }
    }
    checkMitigationReach(release, sorted, at);
    if (lt.size() > 1) {
      v.add(at + "/tiers", "at most one composite_score_lt tier (the floor) is allowed");
    } else if (lt.size() == 1) {
      Tier floor = lt.get(0);
      Tier lowest = sorted.get(0);
      if (floor.score().compareTo(lowest.score()) != 0) {
        v.add(
            at + "/tiers",
            "the composite_score_lt tier must end where the lowest composite_score_gte tier starts ("
                + lowest.score().toPlainString()
                + "), so that every score matches exactly one tier");
      } else if (floor.releasePercent().compareTo(lowest.releasePercent()) > 0) {
        v.add(at + "/tiers", "the floor tier must not release more than the tier above it");
      }
    }
  }

  /**
   * Dynamic tiers move a boundary up by at most shift_points and noise moves each boundary by at
   * most max_points either way; if two neighbouring boundaries were no further apart than that
   * reach, the lower could meet or overtake the higher and a higher score would release less.
   */
  private void checkMitigationReach(GraduatedRelease release, List<Tier> sortedGte, String at) {
    BigDecimal reach =
        release
            .dynamicTiers()
            .reach()
            .add(release.thresholdNoise().reach().multiply(BigDecimal.TWO));
    if (reach.signum() == 0) {
      return;
    }
    for (int i = 1; i < sortedGte.size(); i++) {
      BigDecimal low = sortedGte.get(i - 1).score();
      BigDecimal high = sortedGte.get(i).score();
      if (low.compareTo(high) != 0 && high.subtract(low).compareTo(reach) <= 0) {
        v.add(
            at + "/tiers",
            "tiers >= "
                + low.toPlainString()
                + " and >= "
                + high.toPlainString()
                + " are too close for the cliff-optimisation terms, which can move a boundary "
                + reach.stripTrailingZeros().toPlainString()
                + " points towards its neighbour (shift_points + 2 x max_points); space them more than that apart"
                + " or lower shift_points or max_points");
      }
    }
  }
}
