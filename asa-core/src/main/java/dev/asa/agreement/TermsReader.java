package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.SchemaPatterns;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a schema-valid agreement document into {@link AgreementTerms}. The schema has already
 * checked shapes and types; what can still go wrong here (a boolean target with {@code gte}, an
 * unknown currency...) is collected as violations with pointers rather than thrown one at a time.
 *
 * <p>Public for {@code dev.asa.document.AgreementDocuments}, which reads whole documents with it.
 */
public final class TermsReader {
  private final Violations violations;

  public TermsReader(Violations violations) {
    this.violations = violations;
  }

  /**
   * Returns the terms, with violations recorded along the way; null only when the parties cannot be
   * read (then no further rule can be checked). Parts that could not be read are left out, so that
   * the semantic rules can still report everything else at once.
   */
  public AgreementTerms read(JsonNode doc) {
    AsaVersion version = AsaVersion.parse(doc.path("asa_version").asText());
    Instant createdAt = instant(doc, "created_at", "/created_at");
    Instant expiresAt = doc.has("expires_at") ? instant(doc, "expires_at", "/expires_at") : null;
    Parties parties = parties(doc.path("parties"));
    Service service = service(doc.path("service"));
    QualityCriteria criteria = criteria(doc.path("quality_criteria"));
    VerificationTerms verification =
        verification(doc.path("verification"), doc.path("parties").has("evaluator"));
    Escrow escrow = escrow(doc.path("escrow"));
    DisputeTerms dispute = doc.has("dispute") ? dispute(doc.path("dispute")) : null;
    if (parties == null) {
      return null;
    }
    return new AgreementTerms(
        version,
        doc.path("agreement_id").asText(),
        createdAt,
        expiresAt,
        parties,
        service,
        criteria,
        verification,
        escrow,
        dispute,
        eligibility(doc.path("eligibility"), escrow));
  }

  private Eligibility eligibility(JsonNode node, Escrow escrow) {
    if (node.isMissingNode()) {
      return Eligibility.NONE;
    }
    Map<Role, Eligibility.Requirements> byRole = new EnumMap<>(Role.class);
    for (var field : node.properties()) {
      String at = "/eligibility/" + field.getKey();
      Role role;
      try {
        role = Role.fromWire(field.getKey());
      } catch (IllegalArgumentException e) {
        violations.add(at, e.getMessage());
        continue;
      }
      JsonNode r = field.getValue();
      List<Eligibility.SignalRequirement> signals = new ArrayList<>();
      JsonNode list = r.path("min_signals");
      for (int i = 0; i < list.size(); i++) {
        JsonNode s = list.get(i);
        signals.add(
            new Eligibility.SignalRequirement(
                s.path("signal").asText(),
                s.path("at_least").decimalValue(),
                s.path("min_sample").asLong(1)));
      }
      BigDecimal cap = null;
      if (r.has("value_cap_when_unproven")) {
        try {
          cap = new BigDecimal(r.path("value_cap_when_unproven").asText());
        } catch (NumberFormatException e) {
          violations.add(at + "/value_cap_when_unproven", "a decimal amount such as \"20.00\"");
        }
        if (escrow.paymentTerms().isEmpty()) {
          violations.add(
              at + "/value_cap_when_unproven", "a cap needs an amount to hold: escrow.payment");
        }
      }
      byRole.put(
          role,
          new Eligibility.Requirements(
              r.has("min_completed_agreements")
                  ? r.path("min_completed_agreements").asLong()
                  : null,
              r.has("min_age_days") ? r.path("min_age_days").asLong() : null,
              signals,
              cap,
              r.has("min_chain_length") ? r.path("min_chain_length").asLong() : null));
    }
    return new Eligibility(byRole);
  }

  private Instant instant(JsonNode parent, String field, String pointer) {
    String text = parent.path(field).asText();
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      violations.add(
          pointer, "'" + text + "' is not an RFC 3339 date-time such as 2026-03-26T14:30:00Z");
      return Instant.EPOCH;
    }
  }

  private Parties parties(JsonNode node) {
    Party client = party(Role.CLIENT, node.path("client"), "/parties/client");
    Party provider = party(Role.PROVIDER, node.path("provider"), "/parties/provider");
    // No parties.evaluator: the pool assigns one at activation (EvaluatorSelection.defaultFor).
    Party evaluator =
        node.has("evaluator")
            ? party(Role.EVALUATOR, node.path("evaluator"), "/parties/evaluator")
            : null;
    return client == null || provider == null ? null : new Parties(client, provider, evaluator);
  }

  private Party party(Role role, JsonNode node, String pointer) {
    JsonNode id = node.path("identity");
    Identity identity =
        new Identity(
            id.path("scheme").asText(), id.path("value").asText(), textOrNull(id, "lineage"));
    Ed25519PublicKey key = null;
    if (node.has("verification_key")) {
      try {
        key = Ed25519PublicKey.fromBase64Url(node.path("verification_key").path("value").asText());
      } catch (IllegalArgumentException e) {
        violations.add(pointer + "/verification_key/value", e.getMessage());
      }
    }
    boolean builtin = role == Role.EVALUATOR && Party.BUILTIN.equals(textOrNull(node, "type"));
    if (key == null && !node.has("verification_key") && identity.isDidKey() && !builtin) {
      // A did:key identity is the key itself: it needs no verification_key beside it (one that
      // differs is refused by SemanticRules).
      try {
        key = DidKey.parse(identity.value());
      } catch (IllegalArgumentException e) {
        violations.add(pointer + "/identity/value", e.getMessage());
      }
    }
    if (key == null && role != Role.EVALUATOR) {
      return null; // the schema requires the key unless a did:key: an unreadable one, reported
    }
    return new Party(
        role,
        identity,
        textOrNull(node, "display_name"),
        textOrNull(node, "organization"),
        key,
        textOrNull(node, "type"),
        role == Role.PROVIDER ? textOrNull(node, "model") : null,
        role == Role.EVALUATOR ? evaluatorSettings(node.path("config")) : null);
  }

  /** {@code parties.evaluator.config}; its shape is the schema's, members it does not name kept. */
  private static EvaluatorSettings evaluatorSettings(JsonNode c) {
    if (!c.isObject()) {
      return EvaluatorSettings.NONE;
    }
    return new EvaluatorSettings(
        textOrNull(c, "model"),
        textOrNull(c, "rubric_id"),
        c.has("spot_check_claims") ? c.path("spot_check_claims").intValue() : null,
        c.has("max_cost_usd") ? c.path("max_cost_usd").decimalValue() : null,
        c.has("evidence_collection") ? c.path("evidence_collection").booleanValue() : null);
  }

  private Service service(JsonNode node) {
    JsonNode c = node.path("constraints");
    Service.Constraints constraints =
        new Service.Constraints(
            c.has("max_tokens") ? c.path("max_tokens").asLong() : null,
            c.has("max_duration_seconds") ? c.path("max_duration_seconds").asLong() : null,
            c.has("max_cost_usd") ? c.path("max_cost_usd").decimalValue() : null);
    return new Service(
        node.path("type").asText(),
        node.path("description").asText(),
        textOrNull(node, "deliverable_format"),
        constraints,
        textOrNull(node, "parent_agreement_id"));
  }

  private QualityCriteria criteria(JsonNode node) {
    List<Dimension> dimensions = new ArrayList<>();
    JsonNode dims = node.path("dimensions");
    for (int i = 0; i < dims.size(); i++) {
      Dimension d = dimension(dims.get(i), "/quality_criteria/dimensions/" + i);
      if (d != null) {
        dimensions.add(d);
      }
    }
    List<QualityGate> gates = new ArrayList<>();
    for (JsonNode g : node.path("quality_gates")) {
      gates.add(
          QualityGate.of(
              g.path("condition").asText(), QualityGate.Kind.fromWire(g.path("type").asText())));
    }
    List<String> sections = new ArrayList<>();
    node.path("required_sections").forEach(s -> sections.add(s.asText()));
    boolean probabilistic = "probabilistic".equals(node.path("guarantee_type").asText());
    SeriesGuarantee guarantee = null;
    if (probabilistic) {
      guarantee =
          SeriesGuarantee.read(node.get("guarantee"), "/quality_criteria/guarantee", violations);
      if (guarantee instanceof SeriesGuarantee.Percentile p
          && dimensions.stream().noneMatch(d -> d.name().equals(p.dimension()))) {
        violations.add(
            "/quality_criteria/guarantee/dimension",
            "'" + p.dimension() + "' is not one of the dimensions");
      }
    } else if (node.has("guarantee")) {
      violations.add(
          "/quality_criteria/guarantee", "applies only with \"guarantee_type\": \"probabilistic\"");
    }
    JsonNode schema = node.get("deliverable_schema");
    if (schema != null) {
      // A pattern RE2 cannot run is refused now, by its pointer: the schema is applied in linear
      // time or not at all (SchemaPatterns).
      SchemaPatterns.firstUnrunnable(schema)
          .ifPresent(u ->
              violations.add("/quality_criteria/deliverable_schema" + u.pointer(), u.reason()));
    }
    return new QualityCriteria(
        dimensions,
        node.path("composite_threshold").decimalValue(),
        node.has("composite_method")
            ? CompositeMethod.fromWire(node.path("composite_method").asText())
            : CompositeMethod.WEIGHTED_AVERAGE,
        node.has("guarantee_type")
            ? QualityCriteria.GuaranteeType.fromWire(node.path("guarantee_type").asText())
            : QualityCriteria.GuaranteeType.DETERMINISTIC,
        gates,
        node.has("gate_logic")
            ? QualityGate.Logic.fromWire(node.path("gate_logic").asText())
            : QualityGate.Logic.ALL_MUST_PASS,
        node.has("deliverable_schema") ? node.path("deliverable_schema") : null,
        sections,
        guarantee,
        CodeTests.read(node.get("tests"), "/quality_criteria/tests", violations));
  }

  private Dimension dimension(JsonNode node, String pointer) {
    MetricType metric = MetricType.fromWire(node.path("metric").asText());
    Slo slo = slo(node.path("slo"), pointer + "/slo");
    Slo shadowSlo =
        node.has("shadow_slo") ? slo(node.path("shadow_slo"), pointer + "/shadow_slo") : null;
    if (slo == null || (node.has("shadow_slo") && shadowSlo == null)) {
      return null;
    }
    return new Dimension(
        node.path("name").asText(),
        node.path("weight").decimalValue(),
        metric,
        slo,
        textOrNull(node, "shadow_metric"),
        shadowSlo,
        textOrNull(node, "description"));
  }

  private Slo slo(JsonNode node, String pointer) {
    SloOperator op = SloOperator.fromWire(node.path("operator").asText());
    JsonNode value = node.path("value");
    Slo.Target target;
    if (value.isBoolean()) {
      target = new Slo.Target.Flag(value.booleanValue());
    } else if (value.isNumber()) {
      target = new Slo.Target.Number(value.decimalValue());
    } else if (value.isArray()
        && value.size() == 2
        && value.get(0).isNumber()
        && value.get(1).isNumber()) {
      try {
        target = new Slo.Target.Range(value.get(0).decimalValue(), value.get(1).decimalValue());
      } catch (IllegalArgumentException e) {
        violations.add(pointer + "/value", e.getMessage());
        return null;
      }
    } else {
      violations.add(
          pointer + "/value", "must be a number, a boolean or a [low, high] pair of numbers");
      return null;
    }
    try {
      return new Slo(op, target);
    } catch (IllegalArgumentException e) {
      violations.add(pointer, e.getMessage());
      return null;
    }
  }

  private VerificationTerms verification(JsonNode node, boolean evaluatorNamed) {
    VerificationTerms d = VerificationTerms.DEFAULTS;
    EvaluatorSelection selection = EvaluatorSelection.defaultFor(evaluatorNamed);
    if (node.isMissingNode()) {
      return new VerificationTerms(
          d.strategy(),
          d.challengeWindowSeconds(),
          d.evaluatorTimeoutSeconds(),
          d.resultVisibility(),
          d.depth(),
          selection,
          null,
          d.evaluators(),
          d.canaryTasks(),
          null);
    }
    if (node.has("evaluator_selection")) {
      selection = evaluatorSelection(node.path("evaluator_selection"), evaluatorNamed);
    }
    EvaluatorPanel panel = evaluatorPanel(node.path("evaluators"), selection);
    return new VerificationTerms(
        node.has("strategy")
            ? VerificationTerms.Strategy.fromWire(node.path("strategy").asText())
            : d.strategy(),
        node.path("challenge_window_seconds").asLong(d.challengeWindowSeconds()),
        node.path("evaluator_timeout_seconds").asLong(d.evaluatorTimeoutSeconds()),
        node.has("result_visibility")
            ? VerificationTerms.Visibility.fromWire(node.path("result_visibility").asText())
            : d.resultVisibility(),
        textOrNull(node, "depth"),
        selection,
        rotation(node.path("rotation")),
        panel,
        canaryTasks(node.path("canary_tasks")),
        depthByReputation(node.path("depth_by_reputation"), textOrNull(node, "depth")));
  }

  private static final String DEPTH_RULE = "/verification/depth_by_reputation";

  // The schema has checked the members' types and the depth names; what is left is the rule's
  // own sense.
  private DepthByReputation depthByReputation(JsonNode n, String depth) {
    if (n.isMissingNode()) {
      return null;
    }
    if (depth != null) {
      violations.add(DEPTH_RULE, "depth and depth_by_reputation both choose the depth; keep one");
      return null;
    }
    try {
      return new DepthByReputation(
          n.path("signal").asText(),
          n.path("at_least").decimalValue(),
          n.path("min_sample").asLong(),
          n.path("then").asText(),
          n.path("otherwise").asText());
    } catch (IllegalArgumentException e) {
      violations.add(DEPTH_RULE, e.getMessage());
      return null;
    }
  }

  private static final String SELECTION = "/verification/evaluator_selection";

  // A document that names its evaluator and asks for one from the pool says two things at once;
  // honouring either would surprise the party that relied on the other, so neither is guessed.
  private EvaluatorSelection evaluatorSelection(JsonNode n, boolean evaluatorNamed) {
    String mode = n.path("mode").asText();
    EvaluatorSelection selection =
        switch (mode) {
          case "random_from_pool" -> EvaluatorSelection.randomFromPool();
          case "mutual" -> mutual(n);
          case "marketplace" -> marketplace(n);
          default -> {
            violations.add(
                SELECTION + "/mode",
                "unknown mode '"
                    + mode
                    + "'; expected one of random_from_pool, mutual, marketplace");
            yield null;
          }
        };
    if (selection == null) {
      return EvaluatorSelection.defaultFor(evaluatorNamed);
    }
    if (n.has("max_rounds") && !(selection instanceof EvaluatorSelection.Mutual)) {
      violations.add(SELECTION + "/max_rounds", "applies only with \"mode\": \"mutual\"");
    }
    if (n.has("criteria") && !(selection instanceof EvaluatorSelection.Marketplace)) {
      violations.add(SELECTION + "/criteria", "applies only with \"mode\": \"marketplace\"");
    }
    if (evaluatorNamed) {
      violations.add(
          SELECTION,
          "mode "
              + mode
              + " chooses the evaluator from the pool, but parties.evaluator already names one;"
              + " remove parties.evaluator to use the pool, or evaluator_selection to keep it");
    }
    return selection;
  }

  private EvaluatorSelection mutual(JsonNode n) {
    try {
      return new EvaluatorSelection.Mutual(
          n.path("max_rounds").asInt(EvaluatorSelection.Mutual.DEFAULT_MAX_ROUNDS));
    } catch (IllegalArgumentException e) {
      violations.add(SELECTION + "/max_rounds", e.getMessage());
      return null;
    }
  }

  private EvaluatorSelection marketplace(JsonNode n) {
    JsonNode c = n.path("criteria");
    try {
      return new EvaluatorSelection.Marketplace(
          new EvaluatorSelection.Marketplace.Criteria(
              c.has("min_evaluations") ? c.path("min_evaluations").asInt() : null,
              textOrNull(c, "domain"),
              c.has("max_price_usd") ? c.path("max_price_usd").decimalValue() : null));
    } catch (IllegalArgumentException e) {
      violations.add(SELECTION + "/criteria", e.getMessage());
      return null;
    }
  }

  private RotationTerms rotation(JsonNode n) {
    if (n.isMissingNode()) {
      return null;
    }
    try {
      return new RotationTerms(n.path("max_consecutive").asInt());
    } catch (IllegalArgumentException e) {
      violations.add("/verification/rotation/max_consecutive", e.getMessage());
      return null;
    }
  }

  private EvaluatorPanel evaluatorPanel(JsonNode n, EvaluatorSelection selection) {
    if (n.isMissingNode()) {
      return EvaluatorPanel.SINGLE;
    }
    EvaluatorPanel.Method method;
    try {
      method =
          n.has("method")
              ? EvaluatorPanel.Method.fromWire(n.path("method").asText())
              : EvaluatorPanel.Method.MEDIAN;
    } catch (IllegalArgumentException e) {
      violations.add("/verification/evaluators/method", e.getMessage());
      return EvaluatorPanel.SINGLE;
    }
    int count = n.path("count").asInt(1);
    if (count > 1 && !selection.fromPool()) {
      violations.add(
          "/verification/evaluators/count",
          "several evaluators are drawn from the pool, but parties.evaluator names one; remove"
              + " parties.evaluator (the pool then assigns all "
              + count
              + ") or ask for a count of 1");
      return EvaluatorPanel.SINGLE;
    }
    try {
      return new EvaluatorPanel(count, method);
    } catch (IllegalArgumentException e) {
      violations.add("/verification/evaluators/count", e.getMessage());
      return EvaluatorPanel.SINGLE;
    }
  }

  private CanaryTerms canaryTasks(JsonNode n) {
    if (n.isMissingNode()) {
      return CanaryTerms.DISABLED;
    }
    String at = "/verification/canary_tasks";
    CanaryTerms.Frequency frequency = CanaryTerms.Frequency.DEFAULT;
    if (n.has("frequency")) {
      try {
        frequency = CanaryTerms.Frequency.parse(n.path("frequency").asText());
      } catch (IllegalArgumentException e) {
        violations.add(at + "/frequency", e.getMessage());
      }
    }
    CanaryTerms.FailureAction action = CanaryTerms.FailureAction.FLAG_AND_CONTINUE;
    if (n.has("failure_action")) {
      try {
        action = CanaryTerms.FailureAction.fromWire(n.path("failure_action").asText());
      } catch (IllegalArgumentException e) {
        violations.add(at + "/failure_action", e.getMessage());
      }
    }
    return new CanaryTerms(n.path("enabled").asBoolean(true), frequency, action);
  }

  private Escrow escrow(JsonNode node) {
    if (node.isMissingNode()) {
      return Escrow.NONE;
    }
    Escrow.Payment payment = null;
    JsonNode p = node.path("payment");
    if (p.has("amount") && p.has("currency")) {
      payment = payment(p);
    }
    JsonNode s = node.path("dead_mans_switch");
    DeadMansSwitch dms =
        new DeadMansSwitch(
            s.has("client_timeout_seconds") ? s.path("client_timeout_seconds").asLong() : null,
            s.has("provider_timeout_seconds") ? s.path("provider_timeout_seconds").asLong() : null,
            s.has("evaluator_timeout_seconds")
                ? s.path("evaluator_timeout_seconds").asLong()
                : null,
            s.has("timeout_action")
                ? DeadMansSwitch.TimeoutAction.fromWire(s.path("timeout_action").asText())
                : DeadMansSwitch.TimeoutAction.HOLD_FOR_BACKUP_EVALUATOR);
    JsonNode c = node.path("collateral");
    Escrow.Collateral collateral = c.isMissingNode() ? null : collateral(c, p);
    return new Escrow(
        node.path("enabled").asBoolean(true),
        node.path("binding").path("type").asText("ledger"),
        payment,
        dms,
        collateral);
  }

  private static final List<String> COLLATERAL_MEMBERS =
      List.of("amount", "currency", "slash_on", "slash_percent");

  /**
   * {@code escrow.collateral}, or null after recording why it cannot be read. Its currency is the
   * payment's: taken from it when left out, refused when another. Closed, unlike most of the
   * document: a misspelt {@code slash_percnt} would silently leave a full slash in force, so
   * unknown members are refused.
   */
  private Escrow.Collateral collateral(JsonNode c, JsonNode payment) {
    String at = "/escrow/collateral";
    if (!c.isObject()) {
      return null; // the schema says what it must be
    }
    int before = violations.size();
    c.fieldNames()
        .forEachRemaining(name -> {
          if (!COLLATERAL_MEMBERS.contains(name)) {
            violations.add(
                at + "/" + name.replace("~", "~0").replace("/", "~1"),
                "unknown member '"
                    + name
                    + "'; expected only "
                    + String.join(", ", COLLATERAL_MEMBERS));
          }
        });
    String code = c.has("currency") ? c.path("currency").asText() : textOrNull(payment, "currency");
    if (code == null) {
      violations.add(
          at,
          "a collateral is held beside the escrow's payment: give escrow.payment (amount and"
              + " currency), or remove escrow.collateral");
      return null;
    }
    Currency currency = Currency.of(code).orElse(null);
    if (currency == null) {
      if (c.has("currency")) { // the payment's own unknown currency is reported at its pointer
        violations.add(
            at + "/currency",
            "unknown currency '" + code + "'; this server knows " + Currency.knownCodes());
      }
      return null;
    }
    String paymentCode = textOrNull(payment, "currency");
    if (paymentCode != null && !paymentCode.equals(code)) {
      // Checked here rather than with the other cross-field rules, so that it is reported with
      // whatever else is wrong in the collateral (which is then not read).
      violations.add(
          at + "/currency",
          "must be the escrow's currency, "
              + paymentCode
              + ", not "
              + code
              + ": the stake is slashed to the client beside the payment");
    }
    Money amount = null;
    try {
      amount = new Money(new BigDecimal(c.path("amount").asText()), currency);
      if (amount.amount().signum() == 0) {
        violations.add(
            at + "/amount",
            "a collateral stakes an amount above zero; remove escrow.collateral to stake nothing");
      }
    } catch (IllegalArgumentException e) { // NumberFormatException included
      violations.add(at + "/amount", e.getMessage());
    }
    Set<Escrow.SlashEvent> slashOn =
        EnumSet.allOf(Escrow.SlashEvent.class); // all three when left out
    if (c.has("slash_on")) {
      slashOn = EnumSet.noneOf(Escrow.SlashEvent.class);
      int i = 0;
      for (JsonNode event : c.path("slash_on")) {
        try {
          slashOn.add(Escrow.SlashEvent.fromWire(event.asText()));
        } catch (IllegalArgumentException e) {
          violations.add(at + "/slash_on/" + i, e.getMessage());
        }
        i++;
      }
    }
    BigDecimal percent = decimal(c, "slash_percent", Escrow.Collateral.FULL);
    if (percent.signum() <= 0 || percent.compareTo(Escrow.Collateral.FULL) > 0) {
      violations.add(
          at + "/slash_percent",
          "must be above 0 and at most 100 (the share of the stake slashed to the client), not "
              + percent.toPlainString());
    }
    if (violations.size() > before) {
      return null;
    }
    return new Escrow.Collateral(amount, slashOn, percent);
  }

  private Escrow.Payment payment(JsonNode p) {
    String code = p.path("currency").asText();
    Currency currency = Currency.of(code).orElse(null);
    if (currency == null) {
      violations.add(
          "/escrow/payment/currency",
          "unknown currency '" + code + "'; this server knows " + Currency.knownCodes());
      return null;
    }
    Money amount;
    try {
      amount = new Money(new BigDecimal(p.path("amount").asText()), currency);
    } catch (IllegalArgumentException e) {
      violations.add("/escrow/payment/amount", e.getMessage());
      return null;
    }
    JsonNode g = p.path("graduated_release");
    GraduatedRelease release = GraduatedRelease.DISABLED;
    if (!g.isMissingNode()) {
      List<Tier> tiers = new ArrayList<>();
      for (JsonNode t : g.path("tiers")) {
        boolean gte = t.has("composite_score_gte");
        tiers.add(
            new Tier(
                gte ? Tier.Bound.GTE : Tier.Bound.LT,
                t.path(gte ? "composite_score_gte" : "composite_score_lt").decimalValue(),
                t.path("release_percent").decimalValue()));
      }
      ThresholdNoiseTerms noise = thresholdNoise(g.path("threshold_noise"));
      DynamicTiersTerms dynamic = dynamicTiers(g.path("dynamic_tiers"));
      release =
          new GraduatedRelease(
              g.path("enabled").asBoolean(true),
              g.has("mode")
                  ? GraduatedRelease.Mode.fromWire(g.path("mode").asText())
                  : GraduatedRelease.Mode.TIERS,
              tiers,
              noise,
              dynamic);
    }
    return new Escrow.Payment(amount, release);
  }

  // Like graduated_release itself, a mitigation that is written down is on unless it says
  // "enabled": false; one that is absent is off. One that cannot be read is recorded as a violation
  // and left off, so that the rest of the release terms are still checked.
  private ThresholdNoiseTerms thresholdNoise(JsonNode n) {
    if (n.isMissingNode()) {
      return ThresholdNoiseTerms.DISABLED;
    }
    try {
      return new ThresholdNoiseTerms(
          n.path("enabled").asBoolean(true),
          decimal(n, "max_points", ThresholdNoiseTerms.DEFAULT_MAX_POINTS));
    } catch (IllegalArgumentException e) {
      violations.add(
          "/escrow/payment/graduated_release/threshold_noise/max_points", e.getMessage());
      return ThresholdNoiseTerms.DISABLED;
    }
  }

  private DynamicTiersTerms dynamicTiers(JsonNode n) {
    if (n.isMissingNode()) {
      return DynamicTiersTerms.DISABLED;
    }
    try {
      return new DynamicTiersTerms(
          n.path("enabled").asBoolean(true),
          n.path("window").asInt(DynamicTiersTerms.DEFAULT_WINDOW),
          decimal(n, "band_points", DynamicTiersTerms.DEFAULT_BAND_POINTS),
          decimal(n, "min_share", DynamicTiersTerms.DEFAULT_MIN_SHARE),
          decimal(n, "shift_points", DynamicTiersTerms.DEFAULT_SHIFT_POINTS));
    } catch (IllegalArgumentException e) {
      violations.add("/escrow/payment/graduated_release/dynamic_tiers", e.getMessage());
      return DynamicTiersTerms.DISABLED;
    }
  }

  private static BigDecimal decimal(JsonNode parent, String field, BigDecimal absent) {
    return parent.has(field) ? parent.path(field).decimalValue() : absent;
  }

  private DisputeTerms dispute(JsonNode node) {
    List<String> evidence = new ArrayList<>();
    node.path("evidence_includes").forEach(e -> evidence.add(e.asText()));
    if (node.has("evidence_includes") && evidence.isEmpty()) {
      // An empty list would file a package with nothing in it: a dispute nobody could judge.
      violations.add(
          "/dispute/evidence_includes",
          "name at least one item of the dispute package ("
              + DisputeTerms.Evidence.names()
              + "), or leave evidence_includes out to file all of them");
    }
    return new DisputeTerms(
        node.path("protocol").asText(),
        textOrNull(node, "auto_file_on"),
        node.has("threshold") ? node.path("threshold").decimalValue() : null,
        evidence);
  }

  private static String textOrNull(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
