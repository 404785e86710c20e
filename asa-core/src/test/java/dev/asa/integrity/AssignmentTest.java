package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.EvaluatorSelection;
import dev.asa.agreement.EvaluatorSelection.Marketplace.Criteria;
import dev.asa.agreement.Identity;
import dev.asa.agreement.RotationTerms;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.document.AgreementDocuments;
import dev.asa.document.AgreementDrafts;
import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AssignmentTest {

  private static final AssignmentContext CONTEXT =
      new AssignmentContext(Pools.client(), Pools.provider(), "research", new RotationTerms(3));
  private static final String PROVIDER_ID = CONTEXT.providerId();
  private static final QualificationPolicy POLICY = QualificationPolicy.DEFAULTS;

  private static List<PoolMember> honest(int n) {
    List<PoolMember> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Pools.member("judge-" + i));
    }
    return out;
  }

  // ---------------------------------------------------------------- screening

  @Test
  void screeningExcludesEveryoneWhoBreaksARuleWithEveryReason() {
    List<PoolMember> pool = new ArrayList<>(honest(2));
    PoolMember translator =
        new PoolMember(
            new EvaluatorProfile(
                Pools.key("translator"),
                new Identity("api_key", "translator", null),
                "translator",
                null,
                List.of("translation"),
                null,
                null,
                List.of()),
            Pools.qualifiedRecord(),
            Standing.ACTIVE);
    // Of the provider's organization by its own word, and the provider's by the provider's word:
    // neither is checked, so neither excludes it (issue 53). Its own declaration does.
    PoolMember colleague =
        new PoolMember(
            Pools.profile("colleague", "BOB industries", null),
            Pools.qualifiedRecord(),
            Standing.ACTIVE);
    PoolMember friend =
        new PoolMember(
            Pools.conflicted("friend", Pools.provider()), Pools.qualifiedRecord(), Standing.ACTIVE);
    PoolMember novice = new PoolMember(Pools.profile("novice"), TrackRecord.NEW, Standing.ACTIVE);
    PoolMember suspended =
        new PoolMember(
            Pools.profile("banned"), Pools.qualifiedRecord(), Standing.suspended("fraud"));
    PoolMember regular =
        new PoolMember(
            Pools.profile("regular"),
            Pools.qualifiedRecord()
                .withEvaluationOf(PROVIDER_ID)
                .withEvaluationOf(PROVIDER_ID)
                .withEvaluationOf(PROVIDER_ID),
            Standing.ACTIVE);
    pool.addAll(List.of(translator, colleague, friend, novice, suspended, regular));

    Screening s = Screening.of(pool, CONTEXT, POLICY);
    assertThat(s.eligible())
        .extracting(m -> m.profile().displayName())
        .containsExactlyInAnyOrder("judge-0", "judge-1", "colleague");
    Map<String, List<String>> why = new HashMap<>();
    s.excluded().forEach(e -> why.put(e.member().profile().displayName(), e.reasons()));
    assertThat(why.get("translator")).containsExactly("does not evaluate research");
    assertThat(why.get("friend"))
        .containsExactly(
            "not independent: declared a conflict of interest with a party of this agreement");
    assertThat(why.get("novice"))
        .hasSize(3)
        .allSatisfy(r -> assertThat(r).startsWith("not qualified: "));
    assertThat(why.get("banned"))
        .containsExactly("not qualified: suspended by the operator: fraud");
    assertThat(why.get("regular"))
        .containsExactly(
            "rotation: assessed the provider's last 3 deliveries in a row; at most 3 allowed");
    assertThat(s.summary()).startsWith("3 of 8 pool evaluators eligible; excluded: ");
    Map<String, List<ExclusionRule>> rules = new HashMap<>();
    s.excluded().forEach(e -> rules.put(e.member().profile().displayName(), e.rules()));
    assertThat(rules)
        .containsOnly(
            Map.entry("translator", List.of(ExclusionRule.OTHER_SERVICE_TYPE)),
            Map.entry("friend", List.of(ExclusionRule.DECLARED_CONFLICT)),
            Map.entry("novice", List.of(ExclusionRule.NOT_QUALIFIED)),
            Map.entry("banned", List.of(ExclusionRule.NOT_QUALIFIED)),
            Map.entry("regular", List.of(ExclusionRule.ROTATION)));
    assertThat(s.exclusionsJson())
        .as("the record names each excluded key with its rules, and nothing of the reasons")
        .anySatisfy(e ->
            assertThat(e.toString())
                .isEqualTo(
                    "{\"evaluator\":\""
                        + Pools.key("friend").toBase64Url()
                        + "\",\"rules\":[\"declared_conflict\"]}"));
    assertThat(s.eligible())
        .extracting(PoolMember::key)
        .isEqualTo(Draw.canonical(s.eligibleKeys()));
  }

  @Test
  void aStreakBelowTheBoundKeepsTheEvaluatorEligible() {
    PoolMember twice =
        new PoolMember(
            Pools.profile("twice"),
            Pools.qualifiedRecord().withEvaluationOf(PROVIDER_ID).withEvaluationOf(PROVIDER_ID),
            Standing.ACTIVE);
    assertThat(Screening.of(List.of(twice), CONTEXT, POLICY).eligible()).hasSize(1);
    AssignmentContext strict =
        new AssignmentContext(Pools.client(), Pools.provider(), "research", new RotationTerms(2));
    assertThat(Screening.of(List.of(twice), strict, POLICY).eligible()).isEmpty();
  }

  @Test
  void aMemberListedTwiceIsRefused() {
    assertThatThrownBy(
            () -> Screening.of(List.of(Pools.member("a"), Pools.member("a")), CONTEXT, POLICY))
        .hasMessageContaining("listed twice");
  }

  @Test
  void theContextOfAnAgreementUsesTheServerRotationUnlessTheTermsSetOne() {
    var doc =
        AgreementDrafts.propose(
                Fixtures.general(), Instant.parse("2026-11-22T10:00:00Z"), () -> "asa-x")
            .toJson();
    doc.remove("status");
    AgreementTerms terms = AgreementDocuments.read(doc).terms();
    assertThat(AssignmentContext.of(terms, new RotationTerms(5)).rotation().maxConsecutive())
        .isEqualTo(5);
    ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("verification"))
        .putObject("rotation")
        .put("max_consecutive", 2);
    terms = AgreementDocuments.read(doc).terms();
    AssignmentContext c = AssignmentContext.of(terms, new RotationTerms(5));
    assertThat(c.rotation().maxConsecutive()).isEqualTo(2);
    assertThat(c.serviceType()).isEqualTo("general");
    assertThat(c.providerId()).isEqualTo(Fixtures.key("bob").publicKey().toBase64Url());
  }

  // ---------------------------------------------------------------- random

  @Test
  void randomFromPoolDrawsVerifiablyAmongTheEligible() {
    Screening s = Screening.of(honest(5), CONTEXT, POLICY);
    Assignment a =
        Assignment.assign(EvaluatorSelection.randomFromPool(), s, Pools.seed("a1"), 1, Set.of());
    Assignment.Assigned assigned = (Assignment.Assigned) a;
    assertThat(assigned.evaluators()).hasSize(1);
    assertThat(assigned.draws()).hasSize(1);
    var json = assigned.toJson();
    assertThat(json.path("mode").asText()).isEqualTo("random_from_pool");
    Draw recorded = Draw.fromJson(json.path("draws").get(0));
    assertThat(recorded.chosen()).isEqualTo(assigned.keys());
    assertThat(recorded.candidatesDigest()).isEqualTo(Draw.digestOf(s.eligibleKeys()));
    assertThat(Draw.problemWith(json.path("draws").get(0), s.eligibleKeys())).isEmpty();
  }

  // ---------------------------------------------------------------- probation (issue 53)

  /** Three evaluators off probation, five on it (qualified by canaries alone). */
  private static List<PoolMember> mixed() {
    List<PoolMember> pool = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      pool.add(Pools.seasoned("seasoned-" + i));
    }
    pool.addAll(honest(5));
    return pool;
  }

  @Test
  void anEvaluatorOnProbationNeverJudgesAloneWhileSomeoneOffItCan() {
    Screening s = Screening.of(mixed(), CONTEXT, POLICY);
    assertThat(s.probationKeys()).hasSize(5);
    assertThat(s.seasonedKeys()).hasSize(3);
    for (int i = 0; i < 200; i++) {
      var a =
          (Assignment.Assigned)
              Assignment.assign(
                  EvaluatorSelection.randomFromPool(), s, Pools.seed("p" + i), 1, Set.of());
      assertThat(a.evaluators().getFirst().profile().displayName()).startsWith("seasoned-");
      assertThat(a.notes()).isEmpty();
      assertThat(Draw.problemWith(a.toJson().path("draws").get(0), s.seasonedKeys())).isEmpty();
    }
  }

  @Test
  void onAPanelEvaluatorsOnProbationHoldAMinorityOfTheSeatsListedLast() {
    Screening s = Screening.of(mixed(), CONTEXT, POLICY);
    Set<String> probationSeated = new java.util.HashSet<>();
    for (int i = 0; i < 100; i++) {
      var a =
          (Assignment.Assigned)
              Assignment.assign(
                  EvaluatorSelection.randomFromPool(), s, Pools.seed("panel" + i), 3, Set.of());
      List<String> names = a.evaluators().stream().map(m -> m.profile().displayName()).toList();
      assertThat(names.subList(0, 2)).allMatch(n -> n.startsWith("seasoned-"));
      assertThat(names.get(2)).startsWith("judge-");
      probationSeated.add(names.get(2));
      assertThat(a.draws()).hasSize(2);
    }
    assertThat(probationSeated).as("every newcomer gets its turn").hasSize(5);
  }

  @Test
  void withNobodyOffProbationTheDrawIsThePlainOneWithANote() {
    Screening s = Screening.of(honest(5), CONTEXT, POLICY);
    var a =
        (Assignment.Assigned)
            Assignment.assign(
                EvaluatorSelection.randomFromPool(), s, Pools.seed("a1"), 1, Set.of());
    assertThat(a.keys())
        .isEqualTo(Draw.perform("evaluator", Pools.seed("a1"), s.eligibleKeys(), 1).chosen());
    assertThat(a.notes())
        .singleElement()
        .asString()
        .contains("0 eligible evaluators are off probation");
    var none = new QualificationPolicy(50, new BigDecimal("0.9"), BigDecimal.TEN, 0);
    var plain =
        (Assignment.Assigned)
            Assignment.assign(
                EvaluatorSelection.randomFromPool(),
                Screening.of(honest(5), CONTEXT, none),
                Pools.seed("a1"),
                1,
                Set.of());
    assertThat(plain.keys()).isEqualTo(a.keys());
    assertThat(plain.notes()).isEmpty();
  }

  @Test
  void inTheMarketplaceANewcomerAtPriceZeroDoesNotComeFirst() {
    PoolMember newcomer = market("free-newcomer", 100, 40, 40, "1", "0.00");
    PoolMember seasoned =
        new PoolMember(
            market("seasoned", 100, 40, 39, "3", "0.90").profile(),
            Pools.record(100, 40, 39, "3")
                .withCalibration(
                    new Calibration(
                        Map.of(),
                        Map.of(
                            "accuracy", new Deviation(12, new BigDecimal("36"), BigDecimal.ZERO)))),
            Standing.ACTIVE);
    Screening s = Screening.of(List.of(newcomer, seasoned), CONTEXT, POLICY);
    var a =
        (Assignment.Assigned)
            Assignment.assign(
                new EvaluatorSelection.Marketplace(Criteria.NONE), s, Pools.seed("m"), 1, Set.of());
    assertThat(a.evaluators().getFirst().profile().displayName()).isEqualTo("seasoned");
  }

  @Test
  void severalEvaluatorsAreDistinct() {
    Screening s = Screening.of(honest(5), CONTEXT, POLICY);
    var a =
        (Assignment.Assigned)
            Assignment.assign(
                EvaluatorSelection.randomFromPool(), s, Pools.seed("a2"), 3, Set.of());
    assertThat(a.keys()).hasSize(3).doesNotHaveDuplicates();
  }

  @Test
  void overManyAgreementsOnlyEligibleEvaluatorsAreAssignedAndSpreadOverAll() {
    // Property: whatever the seed, the assignee is eligible; over many seeds, all are used.
    List<PoolMember> pool = new ArrayList<>(honest(5));
    pool.add(
        new PoolMember(
            Pools.conflicted("friend", Pools.provider()),
            Pools.qualifiedRecord(),
            Standing.ACTIVE));
    pool.add(new PoolMember(Pools.profile("novice"), TrackRecord.NEW, Standing.ACTIVE));
    Screening s = Screening.of(pool, CONTEXT, POLICY);
    Map<Ed25519PublicKey, Integer> counts = new HashMap<>();
    for (int i = 0; i < 500; i++) {
      var a =
          (Assignment.Assigned)
              Assignment.assign(
                  EvaluatorSelection.randomFromPool(),
                  s,
                  Pools.seed("agreement-" + i),
                  1,
                  Set.of());
      counts.merge(a.keys().getFirst(), 1, Integer::sum);
    }
    assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(s.eligibleKeys());
    assertThat(counts.values()).allSatisfy(c -> assertThat(c).isBetween(60, 140));
  }

  @Test
  void withTooFewEligibleNobodyIsAssignedAndTheReasonSaysWhy() {
    List<PoolMember> pool =
        List.of(
            Pools.member("judge-0"),
            new PoolMember(Pools.profile("novice"), TrackRecord.NEW, Standing.ACTIVE));
    Screening s = Screening.of(pool, CONTEXT, POLICY);
    Assignment a =
        Assignment.assign(EvaluatorSelection.randomFromPool(), s, Pools.seed("x"), 2, Set.of());
    assertThat(a).isInstanceOf(Assignment.Unavailable.class);
    assertThat(((Assignment.Unavailable) a).reason())
        .startsWith("needs 2 eligible evaluators; 1 of 2 pool evaluators eligible")
        .contains("novice (key ")
        .contains("has 0 evaluations; needs 50");
    Screening none = Screening.of(List.of(), CONTEXT, POLICY);
    assertThat(
            Assignment.assign(
                EvaluatorSelection.randomFromPool(), none, Pools.seed("x"), 1, Set.of()))
        .isEqualTo(
            new Assignment.Unavailable(
                "needs 1 eligible evaluator; 0 of 0 pool evaluators eligible"));
  }

  @Test
  void aNamedEvaluatorIsNotAssignedAndProposalsBelongToMutualMode() {
    Screening s = Screening.of(honest(3), CONTEXT, POLICY);
    assertThatThrownBy(
            () -> Assignment.assign(EvaluatorSelection.named(), s, Pools.seed("x"), 1, Set.of()))
        .hasMessageContaining("names its evaluator");
    assertThatThrownBy(() ->
            Assignment.assign(
                EvaluatorSelection.randomFromPool(),
                s,
                Pools.seed("x"),
                1,
                Set.of(Pools.key("judge-0"))))
        .hasMessageContaining("only in mutual mode");
    assertThatThrownBy(() ->
            Assignment.assign(EvaluatorSelection.randomFromPool(), s, Pools.seed("x"), 0, Set.of()))
        .hasMessageContaining("at least one");
  }

  // ---------------------------------------------------------------- mutual

  @Test
  void mutualAssignsTheEvaluatorBothPartiesProposed() {
    Screening s = Screening.of(honest(5), CONTEXT, POLICY);
    var mutual = new EvaluatorSelection.Mutual(3);
    for (int i = 0; i < 20; i++) {
      var a =
          (Assignment.Assigned)
              Assignment.assign(mutual, s, Pools.seed("m" + i), 1, Set.of(Pools.key("judge-3")));
      assertThat(a.keys()).containsExactly(Pools.key("judge-3"));
      assertThat(a.notes()).isEmpty();
      assertThat(a.draws().getFirst().purpose()).isEqualTo("mutual");
    }
  }

  @Test
  void aProposedEvaluatorThatCannotServeFallsBackToTheDrawWithANote() {
    PoolMember regular =
        new PoolMember(
            Pools.profile("regular"),
            Pools.qualifiedRecord()
                .withEvaluationOf(PROVIDER_ID)
                .withEvaluationOf(PROVIDER_ID)
                .withEvaluationOf(PROVIDER_ID),
            Standing.ACTIVE);
    List<PoolMember> pool = new ArrayList<>(honest(3));
    pool.add(regular);
    Screening s = Screening.of(pool, CONTEXT, POLICY);
    var a =
        (Assignment.Assigned)
            Assignment.assign(
                new EvaluatorSelection.Mutual(3),
                s,
                Pools.seed("m"),
                1,
                Set.of(Pools.key("regular"), Pools.key("stranger")));
    assertThat(a.keys()).doesNotContain(Pools.key("regular"));
    assertThat(s.eligibleKeys()).containsAll(a.keys());
    assertThat(a.notes())
        .anySatisfy(n -> assertThat(n).contains("cannot be assigned: rotation"))
        .anySatisfy(n -> assertThat(n).contains("it is not in the pool"))
        .anySatisfy(n -> assertThat(n).contains("drawn at random"));
    assertThat(a.draws()).extracting(Draw::purpose).containsExactly("evaluator");
  }

  @Test
  void mutualWithFewerCommonChoicesThanNeededDrawsTheRest() {
    Screening s = Screening.of(honest(5), CONTEXT, POLICY);
    var a =
        (Assignment.Assigned)
            Assignment.assign(
                new EvaluatorSelection.Mutual(3),
                s,
                Pools.seed("m"),
                3,
                Set.of(Pools.key("judge-1")));
    assertThat(a.keys()).hasSize(3).doesNotHaveDuplicates().startsWith(Pools.key("judge-1"));
    assertThat(a.draws()).extracting(Draw::purpose).containsExactly("mutual", "evaluator");
    assertThat(a.draws().get(1).candidates()).doesNotContain(Pools.key("judge-1")).hasSize(4);
  }

  // ---------------------------------------------------------------- marketplace

  private static PoolMember market(
      String name,
      int evaluations,
      int canaries,
      int passes,
      String deviation,
      String price,
      String... domains) {
    EvaluatorProfile p =
        new EvaluatorProfile(
            Pools.key(name),
            new Identity("api_key", name, null),
            name,
            null,
            List.of("research"),
            null,
            price == null ? null : new BigDecimal(price),
            List.of(domains));
    return new PoolMember(
        p, Pools.record(evaluations, canaries, passes, deviation), Standing.ACTIVE);
  }

  @Test
  void theMarketplacePicksTheBestTrackRecordThenTheLowestPrice() {
    List<PoolMember> pool =
        List.of(
            market("cheap-sloppy", 100, 20, 18, "8", "0.05", "medicine"), // 90%
            market("good-pricey", 100, 40, 39, "3", "0.90", "medicine"), // 97%, 3 points
            market("good-cheap", 100, 40, 39, "3.4", "0.40", "medicine"), // 97%, 4 points
            market("good-cheaper", 100, 40, 39, "2.5", "0.40", "medicine"), // 97%, 3 points
            market("no-domain", 500, 40, 40, "1", "0.10"));
    Screening s = Screening.of(pool, CONTEXT, POLICY);
    var selection =
        new EvaluatorSelection.Marketplace(new Criteria(50, "medicine", new BigDecimal("1.00")));
    var a = (Assignment.Assigned) Assignment.assign(selection, s, Pools.seed("x"), 2, Set.of());
    assertThat(a.evaluators())
        .extracting(m -> m.profile().displayName())
        .as("same band of record: the cheaper first; 4 points off is a worse band than 3")
        .containsExactly("good-cheaper", "good-pricey");
    assertThat(a.draws()).isEmpty();
    assertThat(a.toJson().path("ranking")).hasSize(4);
    assertThat(a.toJson().path("ranking").get(0).path("canary_pass_percent").asInt()).isEqualTo(97);
    // Without the domain criterion, the evaluator with the best record of all wins.
    var open = new EvaluatorSelection.Marketplace(Criteria.NONE);
    var b = (Assignment.Assigned) Assignment.assign(open, s, Pools.seed("x"), 1, Set.of());
    assertThat(b.evaluators().getFirst().profile().displayName()).isEqualTo("no-domain");
  }

  @Test
  void equalRecordsArePricedAndTiesBrokenByKey() {
    List<PoolMember> pool =
        List.of(
            market("a", 100, 20, 20, "2", "0.50"),
            market("b", 100, 20, 20, "2", "0.20"),
            market("c", 100, 20, 20, "2", null),
            market("d", 100, 20, 20, "2", "0.20"));
    List<PoolMember> ranked = Marketplace.rank(Criteria.NONE, pool).ranked();
    assertThat(ranked.subList(0, 2))
        .extracting(m -> m.profile().displayName())
        .containsExactlyElementsOf(
            Draw.canonical(List.of(Pools.key("b"), Pools.key("d"))).stream()
                .map(k -> k.equals(Pools.key("b")) ? "b" : "d")
                .toList());
    assertThat(ranked.get(2).profile().displayName()).isEqualTo("a");
    assertThat(ranked.get(3).profile().displayName()).as("no price ranks last").isEqualTo("c");
  }

  @Test
  void whenNobodyMeetsTheCriteriaTheMarketplaceSaysWhoMissedWhat() {
    List<PoolMember> pool =
        List.of(
            market("pricey", 100, 20, 20, "2", "5.00"),
            market("silent", 100, 20, 20, "2", null),
            market("fresh", 60, 20, 20, "2", "0.10"));
    Screening s = Screening.of(pool, CONTEXT, POLICY);
    var selection = new EvaluatorSelection.Marketplace(new Criteria(80, null, BigDecimal.ONE));
    Assignment a = Assignment.assign(selection, s, Pools.seed("x"), 1, Set.of());
    assertThat(a).isInstanceOf(Assignment.Unavailable.class);
    assertThat(((Assignment.Unavailable) a).reason())
        .startsWith("needs 1 evaluator meeting the marketplace criteria; 0 do")
        .contains("charges 5.00 USD; the marketplace criteria cap it at 1")
        .contains("states no price")
        .contains("has 60 evaluations; the marketplace criteria ask for 80");
  }

  // ---------------------------------------------------------------- backups

  @Test
  void aBackupIsNeverAnEvaluatorAlreadyTried() {
    Screening s = Screening.of(honest(4), CONTEXT, POLICY);
    List<Ed25519PublicKey> tried = new ArrayList<>();
    var first =
        (Assignment.Assigned)
            Assignment.assign(EvaluatorSelection.randomFromPool(), s, Pools.seed("b"), 1, Set.of());
    tried.addAll(first.keys());
    for (int n = 1; n <= 3; n++) {
      var backup =
          (Assignment.Assigned)
              Assignment.backup(EvaluatorSelection.randomFromPool(), s, Pools.seed("b"), tried, n);
      assertThat(tried).doesNotContainAnyElementsOf(backup.keys());
      assertThat(backup.draws().getFirst().purpose()).isEqualTo("backup-" + n);
      tried.addAll(backup.keys());
    }
    Assignment none =
        Assignment.backup(EvaluatorSelection.randomFromPool(), s, Pools.seed("b"), tried, 4);
    assertThat(((Assignment.Unavailable) none).reason())
        .startsWith("no backup evaluator is left")
        .contains("already assigned to this delivery");
    assertThatThrownBy(() ->
            Assignment.backup(EvaluatorSelection.randomFromPool(), s, Pools.seed("b"), tried, 0))
        .hasMessageContaining("from 1");
  }

  @Test
  void aMarketplaceBackupIsTheNextBest() {
    List<PoolMember> pool =
        List.of(
            market("best", 100, 20, 20, "1", "0.10"),
            market("second", 100, 20, 19, "1", "0.10"),
            market("third", 100, 20, 18, "1", "0.10"));
    Screening s = Screening.of(pool, CONTEXT, POLICY);
    var selection = new EvaluatorSelection.Marketplace(Criteria.NONE);
    var backup =
        (Assignment.Assigned)
            Assignment.backup(selection, s, Pools.seed("b"), List.of(Pools.key("best")), 1);
    assertThat(backup.evaluators().getFirst().profile().displayName()).isEqualTo("second");
  }

  @Test
  void anAssignmentIsImmutable() {
    var ranking = Json.mapper().createArrayNode().add(1);
    var a =
        new Assignment.Assigned(
            new EvaluatorSelection.Marketplace(Criteria.NONE),
            List.of(Pools.member("x")),
            List.of(),
            List.of(),
            ranking);
    ranking.add(2);
    a.ranking().add(3);
    assertThat(a.ranking()).hasSize(1);
    assertThatThrownBy(() ->
            new Assignment.Assigned(
                EvaluatorSelection.randomFromPool(), List.of(), List.of(), List.of(), null))
        .hasMessageContaining("at least one");
  }
}
