package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.CanaryTerms;
import dev.asa.agreement.EvaluatorSelection;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.agreement.RotationTerms;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * The sybil ring of issue 53, item 5, run by {@link PoolSimulation} after its own scenarios: one
 * owner with k keys registers them, qualifies them and answers dishonestly, passing bad deliveries
 * (true mean score under {@value #PASS}) of its partner provider, or of everyone, with a score of
 * 95. The pool beside it: 8 honest evaluators, 6 of them of "Impartial Ltd", all qualified from the
 * start; 20 clients; 10 providers, of which provider-0, the ring's partner, delivers bad work most
 * of the time (true quality 55). One agreement in five has a panel of three whose per-dimension
 * median is the verdict; a delivery is paid when the verdict's mean is at least {@value #PASS}.
 *
 * <p>Each variant runs in two worlds. <b>Before issue 53</b> (mechanics that no longer exist in
 * {@link CanarySchedule}, emulated here): every evaluator goes through the whole canary set in its
 * own secret order, which repeats ({@link #perEvaluatorCanary}, the removed {@code nextCanary});
 * canaries come only beside real work, so the ring knows a lone task is real; the record moves
 * after every answer, so throwaway keys harvest the set first: each answers qualification canaries
 * with guesses and reads from {@code canary_passes} which guess passed, until the table holds a
 * passing answer for every canary; the ring keys then qualify from the table and, in a pair, know
 * which task is the canary (the one in the table) and cheat on the other; a party's organization
 * claim excludes the pool members of that organization (the old rule, applied by the simulation:
 * {@link Independence} no longer has it). <b>After</b>: placement ({@link
 * CanarySchedule#placement}) and order ({@link CanarySchedule#freshCanary}, then {@link
 * CanarySchedule#repeatedCanary}) are the real ones, qualification canaries are fresh ones only;
 * the ring answers a pair honestly (one of the two is a canary, it cannot tell which) and cheats on
 * lone tasks, of which one in ten is a canary; harvesting is pointless (no canary comes twice
 * before the set is used up, and the record moves only in batches of {@link
 * RecordPublication#BATCH}), so the ring only remembers every canary it was given and knows a task
 * it has seen before for a canary; party claims exclude nobody (the parties are screened with their
 * organization and lineage claims removed, standing for the independence change being made
 * alongside). <b>After, exhausted</b> ({@code after+x}): the same, and once its keys are in, the
 * owner registers throwaway keys that take fresh qualification canaries, judged honestly, until
 * none is left: the set is used up, every later canary is a repeat the ring has seen, and no
 * newcomer can qualify by canaries any more.
 *
 * <p>Run for real: the draw ({@link Screening}, {@link Assignment}), qualification ({@link
 * QualificationPolicy}), canary grading ({@link CanaryCheck}), records ({@link TrackRecord}),
 * calibration against known scores and the panel's consensus ({@link Calibration}), due canaries
 * ({@link CanarySchedule#canaryDue}, trusted evaluators at 1 per 20). Modelled: the server's queue
 * (tasks are answered at once, nobody times out), the before-world mechanics above, the attacker's
 * view of its queue (beside = same created_at and deadline; content identifies a canary), and
 * qualification as the server does it (a key is given qualification canaries while it has fewer
 * than 50 evaluations, at most 50 in all, so a key that leaves the pool later does not come back).
 * Not modelled: the owner registering fresh keys when its keys are removed (each would need 50
 * qualification canaries; in the after world they come from the same fresh set), a ring that cheats
 * on only some of its lone tasks to stay above the canary bar, canaries made to look like the
 * partner's work, marketplace mode.
 */
final class SybilRingSimulation {

  enum World {
    BEFORE,
    AFTER,
    AFTER_EXHAUSTED; // after, and the owner's throwaway keys use the fresh set up

    boolean after() {
      return this != BEFORE;
    }

    String label() {
      return switch (this) {
        case BEFORE -> "before";
        case AFTER -> "after";
        case AFTER_EXHAUSTED -> "after+x";
      };
    }
  }

  enum Target {
    PARTNER, // passes the partner's bad deliveries
    EVERYONE // passes every bad delivery
  }

  record Variant(World world, int keys, Target target, boolean claim) {}

  /** What a variant came to. */
  record Result(
      Variant variant,
      int ringQualified,
      int ringJudged,
      int ringOnPartner,
      int partnerDeliveries,
      int badPaidByRing,
      int badPaid,
      int bad,
      int ringCanaries,
      int ringCanariesFailed,
      Integer firstRemovedAt, // agreement at which the first ring key left the pool
      Integer removedAt, // agreement at which the last ring key left the pool
      Integer removedAfterJudged, // deliveries the ring had judged by then
      int throwawayKeys,
      int throwawayAnswers,
      Integer setUsedUpAt,
      int unavailable) {}

  static final int PASS = 60;
  private static final int CHEAT = 95;
  private static final String TYPE = "research";
  private static final List<String> DIMENSIONS = List.of("accuracy", "writing");
  private static final RotationTerms ROTATION = new RotationTerms(3);
  private static final QualificationPolicy POLICY = QualificationPolicy.DEFAULTS;
  private static final Duration TIME_TO_ANSWER = Duration.ofHours(1);
  private static final String PARTNER = "provider-0";
  private static final String HONEST_ORG = "Impartial Ltd";
  private static final String CLAIMED_ORG = "  iMPARTIAL   ltd ";

  private record Delivery(int client, int provider, int count, Map<String, Integer> truth) {}

  private final Variant v;
  private final Random noise;
  private final byte[] secret;
  private final CanarySchedule schedule;
  private final Ed25519PrivateKey serverKey;
  private final CanarySet canaries;
  private final List<Delivery> deliveries;
  private final List<Party> clients = new ArrayList<>();
  private final List<Party> providers = new ArrayList<>();
  private final Map<String, PoolMember> pool = new LinkedHashMap<>();
  private final Set<String> ring = new HashSet<>();
  private final Map<String, CanarySchedule.Progress> progress = new HashMap<>();
  private final Map<String, Integer> canariesGiven = new HashMap<>(); // per evaluator, any kind
  private final Map<Ed25519PublicKey, String> names = new HashMap<>();

  /** After issue 53: every canary the pool has been given, and repeats since the set ran out. */
  private final Set<String> served = new HashSet<>();

  private long repeats;

  /** Canaries the ring knows (its table before, its memory after), with the answer it gives. */
  private final Map<String, Map<String, BigDecimal>> ringKnows = new HashMap<>();

  private int agreement;
  private int ringQualified;
  private int ringJudged;
  private int ringOnPartner;
  private int partnerDeliveries;
  private int badPaidByRing;
  private int badPaid;
  private int bad;
  private int ringCanaries;
  private int ringCanariesFailed;
  private Integer firstRemovedAt;
  private Integer removedAt;
  private Integer removedAfterJudged;
  private int throwawayKeys;
  private int throwawayAnswers;
  private Integer setUsedUpAt;
  private int unavailable;

  SybilRingSimulation(long seed, int agreements, int setSize, Variant variant) {
    this.v = variant;
    // The same canaries, parties and deliveries in every variant, whatever the set's size.
    Random world = new Random(seed);
    Random canaryScores = new Random(seed + 1);
    this.noise = new Random(seed * 31 + 7);
    this.secret = sha256("sybil canary secret " + seed);
    this.schedule = new CanarySchedule(secret);
    this.serverKey = Ed25519PrivateKey.fromSeed(sha256("sybil server " + seed));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < setSize; i++) {
      boolean good = i % 2 == 0;
      int accuracy = good ? 80 + canaryScores.nextInt(15) : 15 + canaryScores.nextInt(25);
      int writing = good ? 78 + canaryScores.nextInt(15) : 20 + canaryScores.nextInt(25);
      ObjectNode c = Canaries.canary((good ? "good-" : "bad-") + i, accuracy, writing);
      lines.append(dev.asa.json.Json.write(c)).append('\n');
    }
    this.canaries = CanarySet.parse(lines.toString());
    for (int i = 0; i < 20; i++) {
      clients.add(party(Role.CLIENT, "client-" + i, "Client Org " + i));
    }
    int[] quality = new int[10];
    for (int i = 0; i < 10; i++) {
      // The partner claims the honest evaluators' organization, written another way.
      String org = i == 0 && v.claim() ? CLAIMED_ORG : "Provider Org " + i;
      providers.add(party(Role.PROVIDER, "provider-" + i, org));
      quality[i] = i == 0 ? 55 : 60 + world.nextInt(30);
    }
    this.deliveries = new ArrayList<>();
    for (int i = 0; i < agreements; i++) {
      int client = world.nextInt(clients.size());
      int provider = world.nextInt(10) < 3 ? 0 : 1 + world.nextInt(9);
      int count = world.nextInt(5) == 0 ? 3 : 1;
      Map<String, Integer> truth = new LinkedHashMap<>();
      for (String d : DIMENSIONS) {
        truth.put(
            d,
            Math.max(
                0, Math.min(100, quality[provider] + (int) Math.round(8 * world.nextGaussian()))));
      }
      deliveries.add(new Delivery(client, provider, count, truth));
    }
    // Qualified from the start: 60 evaluations, 19 of 20 canaries, 3 points off on average.
    TrackRecord start =
        new TrackRecord(
            60,
            20,
            19,
            new Calibration(
                Map.of("accuracy", new Deviation(20, BigDecimal.valueOf(60), BigDecimal.ZERO)),
                Map.of()),
            Map.of());
    for (int i = 1; i <= 8; i++) {
      add("honest-" + i, i <= 6 ? HONEST_ORG : "Evaluator Org honest-" + i, start);
    }
    for (int i = 1; i <= v.keys(); i++) {
      add("ring-" + i, "Ring Org " + i, TrackRecord.NEW); // each key its own made-up firm
      ring.add("ring-" + i);
    }
  }

  private static Party party(Role role, String name, String org) {
    return new Party(
        role,
        new Identity("api_key", name, null),
        name,
        org,
        Ed25519PrivateKey.fromSeed(sha256("party " + name)).publicKey(),
        null);
  }

  /**
   * Before issue 53 a party's organization claim excluded the pool members of that organization;
   * this build has no such rule, so the before world applies it here (recorded under the nearest
   * rule the build has: the figures, not the record, are what the simulation reports).
   */
  private static Screening withTheClaimRuleOfOld(Screening s, Party client, Party provider) {
    List<PoolMember> stay = new ArrayList<>();
    List<Screening.Exclusion> out = new ArrayList<>(s.excluded());
    Set<Ed25519PublicKey> probation = new HashSet<>();
    for (PoolMember m : s.eligible()) {
      String org = m.profile().organization();
      if (dev.asa.text.Identities.same(org, client.organization())
          || dev.asa.text.Identities.same(org, provider.organization())) {
        out.add(
            new Screening.Exclusion(
                m,
                ExclusionRule.DECLARED_CONFLICT,
                List.of("of an organization a party claims (the rule before issue 53)")));
      } else {
        stay.add(m);
        if (s.probation().contains(m.key())) {
          probation.add(m.key());
        }
      }
    }
    return new Screening(stay, out, probation);
  }

  /** The party as the draw sees it after issue 53: its unverified claims removed. */
  private static Party unclaimed(Party p) {
    return new Party(
        p.role(),
        new Identity(p.identity().scheme(), p.identity().value(), null),
        p.displayName(),
        null,
        p.verificationKey(),
        null);
  }

  private void add(String name, String org, TrackRecord record) {
    EvaluatorProfile profile =
        new EvaluatorProfile(
            Ed25519PrivateKey.fromSeed(sha256("evaluator " + name)).publicKey(),
            new Identity("api_key", name, null),
            name,
            org,
            List.of(TYPE),
            null,
            new BigDecimal("0.30"),
            List.of());
    pool.put(name, new PoolMember(profile, record, Standing.ACTIVE));
    progress.put(name, CanarySchedule.Progress.START);
    canariesGiven.put(name, 0);
    names.put(profile.key(), name);
  }

  private String keyId(String name) {
    return pool.get(name).profile().keyId();
  }

  private boolean qualified(String name) {
    return POLICY.assess(pool.get(name).record(), Standing.ACTIVE).qualified();
  }

  private void update(String name, TrackRecord record) {
    PoolMember m = pool.get(name);
    pool.put(name, new PoolMember(m.profile(), record, m.standing()));
  }

  /**
   * Before issue 53: the evaluator's own secret order of the whole set, round after round (the
   * removed {@code CanarySchedule.nextCanary}, byte for byte).
   */
  static Canary perEvaluatorCanary(
      byte[] secret, CanarySet set, String evaluatorId, String serviceType, long canaryNumber) {
    return perEvaluatorOrder(
            secret, set, evaluatorId, serviceType, canaryNumber / sizeOf(set, serviceType))
        .get((int) (canaryNumber % sizeOf(set, serviceType)));
  }

  private static int sizeOf(CanarySet set, String serviceType) {
    return set.forServiceType(serviceType).size();
  }

  /** One round of an evaluator's own order. */
  static List<Canary> perEvaluatorOrder(
      byte[] secret, CanarySet set, String evaluatorId, String serviceType, long round) {
    List<Canary> all = set.forServiceType(serviceType);
    HashStream stream =
        new HashStream(
            "asa/canary-order/v1",
            secret,
            evaluatorId.getBytes(StandardCharsets.UTF_8),
            serviceType.getBytes(StandardCharsets.UTF_8),
            ByteBuffer.allocate(8).putLong(round).array());
    List<Canary> shuffled = new ArrayList<>(all);
    for (int i = shuffled.size() - 1; i > 0; i--) { // Fisher-Yates
      int j = stream.below(i + 1);
      Canary t = shuffled.get(i);
      shuffled.set(i, shuffled.get(j));
      shuffled.set(j, t);
    }
    return shuffled;
  }

  /** Rounds of the per-evaluator orders computed so far, by evaluator and round. */
  private final Map<List<Object>, List<Canary>> orders = new HashMap<>();

  /** The next canary for an evaluator; empty after issue 53 when only a fresh one will do. */
  private Optional<Canary> nextCanary(String name, boolean freshOnly) {
    if (v.world() == World.BEFORE) {
      int n = canariesGiven.merge(name, 1, Integer::sum) - 1;
      int size = sizeOf(canaries, TYPE);
      List<Canary> order =
          orders.computeIfAbsent(
              List.of(name, n / size),
              k -> perEvaluatorOrder(secret, canaries, keyId(name), TYPE, n / size));
      return Optional.of(order.get(n % size));
    }
    Optional<Canary> fresh = schedule.freshCanary(canaries, TYPE, served);
    if (fresh.isEmpty() && freshOnly) {
      return Optional.empty();
    }
    Canary c =
        fresh.orElseGet(
            () -> schedule.repeatedCanary(canaries, TYPE, served.size() + repeats).orElseThrow());
    if (!served.add(c.id())) {
      repeats++;
    }
    if (setUsedUpAt == null && served.size() == canaries.forServiceType(TYPE).size()) {
      setUsedUpAt = agreement;
    }
    return Optional.of(c);
  }

  private static Map<String, Integer> known(Canary c) {
    Map<String, Integer> k = new LinkedHashMap<>();
    c.knownScores().forEach((d, s) -> k.put(d, s.intValue()));
    return k;
  }

  private static boolean badWork(Map<String, Integer> truth) {
    return truth.values().stream().mapToInt(Integer::intValue).average().orElseThrow() < PASS;
  }

  private Map<String, BigDecimal> honest(Map<String, Integer> truth) {
    Map<String, BigDecimal> s = new LinkedHashMap<>();
    truth.forEach((d, t) ->
        s.put(
            d,
            BigDecimal.valueOf(
                Math.max(0, Math.min(100, Math.round(t + 3.5 * noise.nextGaussian()))))));
    return s;
  }

  private static Map<String, BigDecimal> cheat() {
    Map<String, BigDecimal> s = new LinkedHashMap<>();
    DIMENSIONS.forEach(d -> s.put(d, BigDecimal.valueOf(CHEAT)));
    return s;
  }

  /**
   * What a ring key answers for a task it believes may be real: it cheats when the work is bad and
   * its target, and otherwise judges honestly.
   */
  private Map<String, BigDecimal> ringAnswer(Map<String, Integer> truth, boolean partnersWork) {
    boolean target = v.target() == Target.EVERYONE || partnersWork;
    return target && badWork(truth) ? cheat() : honest(truth);
  }

  /** Grades a canary answer into the evaluator's record; true when it passed. */
  private boolean grade(String name, Canary c, Map<String, BigDecimal> answer) {
    CanaryCheck check = CanaryCheck.of(c, answer);
    update(name, pool.get(name).record().withCanary(check));
    return check.passed();
  }

  /** Before issue 53: throwaway keys learn a passing answer to every canary of the set. */
  private void harvest() {
    // Canaries are clearly good or clearly bad: guesses nearest those first, then the whole grid
    // (every score is within the tolerance, 10, of some point of the grid).
    List<int[]> guesses = new ArrayList<>();
    for (int a = 10; a <= 90; a += 20) {
      for (int w = 10; w <= 90; w += 20) {
        guesses.add(new int[] {a, w});
      }
    }
    guesses.sort(
        Comparator.comparingInt((int[] g) ->
            Math.min(
                Math.abs(g[0] - 87) + Math.abs(g[1] - 85),
                Math.abs(g[0] - 27) + Math.abs(g[1] - 32))));
    Map<String, Integer> tried = new HashMap<>();
    int size = canaries.forServiceType(TYPE).size();
    while (ringKnows.size() < size) {
      String name = "throwaway-" + ++throwawayKeys;
      add(name, "Throwaway Org " + throwawayKeys, TrackRecord.NEW);
      for (int i = 0; i < POLICY.minEvaluations(); i++) {
        Canary c = nextCanary(name, true).orElseThrow();
        Map<String, BigDecimal> answer = ringKnows.get(c.id());
        boolean guessing = answer == null;
        if (guessing) {
          int[] g = guesses.get(tried.merge(c.id(), 1, Integer::sum) - 1);
          answer =
              Map.of("accuracy", BigDecimal.valueOf(g[0]), "writing", BigDecimal.valueOf(g[1]));
        }
        int before = pool.get(name).record().canaryPasses();
        grade(name, c, answer);
        throwawayAnswers++;
        // The record moves after each answer: canary_passes went up, or it did not.
        if (guessing && pool.get(name).record().canaryPasses() > before) {
          ringKnows.put(c.id(), answer);
        }
      }
      pool.remove(name); // thrown away, never drawn
    }
  }

  /**
   * After issue 53, once its keys are in: throwaway keys take qualification canaries, each one
   * judged honestly (out of the pool every task is a canary) and remembered, until no fresh canary
   * is left. From then on every canary is a repeat the ring has seen.
   */
  private void exhaust() {
    while (schedule.freshCanary(canaries, TYPE, served).isPresent()) {
      String name = "throwaway-" + ++throwawayKeys;
      add(name, "Throwaway Org " + throwawayKeys, TrackRecord.NEW);
      for (int i = 0; i < POLICY.minEvaluations(); i++) {
        Optional<Canary> c = nextCanary(name, true);
        if (c.isEmpty()) {
          break;
        }
        Map<String, BigDecimal> answer = honest(known(c.get()));
        grade(name, c.get(), answer);
        throwawayAnswers++;
        ringKnows.putIfAbsent(c.get().id(), answer);
      }
      pool.remove(name); // thrown away, never drawn
    }
  }

  /** A ring key takes qualification canaries one at a time, as the server gives them. */
  private void qualify(String name) {
    for (int i = 0; i < POLICY.minEvaluations(); i++) {
      if (pool.get(name).record().evaluations() >= POLICY.minEvaluations()) {
        break;
      }
      Optional<Canary> c = nextCanary(name, true);
      if (c.isEmpty()) {
        break; // after issue 53: the set is used up, no qualification canary is left
      }
      // Out of the pool every task is a canary: from the table if it has one, else judged.
      Map<String, BigDecimal> answer = ringKnows.get(c.get().id());
      grade(name, c.get(), answer != null ? answer : honest(known(c.get())));
      if (v.world().after()) {
        ringKnows.putIfAbsent(c.get().id(), honest(known(c.get())));
      }
    }
    if (qualified(name)) {
      ringQualified++;
    }
  }

  /**
   * One evaluator's canary in the pool, beside its real task or alone; true when it makes the real
   * task one of a pair that the evaluator cannot tell apart.
   */
  private boolean canaryBeside(String name) {
    Canary c = nextCanary(name, false).orElseThrow();
    boolean beside =
        v.world() == World.BEFORE
            || schedule.placement(keyId(name), progress.get(name).canaries(), TIME_TO_ANSWER)
                instanceof CanarySchedule.Placement.Beside;
    progress.put(name, progress.get(name).afterCanary());
    if (!ring.contains(name)) {
      grade(name, c, honest(known(c)));
      return beside;
    }
    Map<String, BigDecimal> remembered = ringKnows.get(c.id());
    Map<String, BigDecimal> answer;
    if (remembered != null) {
      answer = remembered; // a canary it knows: from its table, or seen before
    } else if (beside) {
      answer = honest(known(c)); // one of a pair: it cannot tell which, so both honestly
    } else {
      answer = ringAnswer(known(c), false); // alone and unknown: it may be real work
    }
    if (v.world().after()) {
      ringKnows.putIfAbsent(c.id(), honest(known(c))); // seen once: a canary if it comes again
    }
    ringCanaries++;
    if (!grade(name, c, answer)) {
      ringCanariesFailed++;
    }
    // A pair whose canary it knows holds real work it can cheat on.
    return beside && remembered == null;
  }

  SybilRingSimulation run() {
    if (v.world() == World.BEFORE) {
      harvest();
    }
    for (String r : ring.stream().sorted().toList()) {
      qualify(r);
    }
    if (v.world() == World.AFTER_EXHAUSTED) {
      exhaust();
    }
    for (int i = 0; i < deliveries.size(); i++) {
      agreement = i;
      Delivery d = deliveries.get(i);
      Party client = clients.get(d.client());
      Party provider = providers.get(d.provider());
      boolean partner = provider.identity().value().equals(PARTNER);
      AssignmentContext context =
          v.world() == World.BEFORE
              ? new AssignmentContext(client, provider, TYPE, ROTATION)
              : new AssignmentContext(unclaimed(client), unclaimed(provider), TYPE, ROTATION);
      Screening screening = Screening.of(pool.values(), context, POLICY);
      if (v.world() == World.BEFORE) {
        screening = withTheClaimRuleOfOld(screening, client, provider);
      }
      Seed seed = new Seed(serverKey.sign(sha256("agreement " + i)).bytes());
      Assignment a =
          Assignment.assign(
              EvaluatorSelection.randomFromPool(), screening, seed, d.count(), Set.of());
      partnerDeliveries += partner ? 1 : 0;
      bad += badWork(d.truth()) ? 1 : 0;
      if (!(a instanceof Assignment.Assigned assigned)) {
        unavailable++;
        continue;
      }
      List<String> judges = assigned.keys().stream().map(names::get).toList();
      List<Calibration.Score> scores = new ArrayList<>();
      List<Map<String, BigDecimal>> answers = new ArrayList<>();
      boolean ringCheated = false;
      boolean ringJudgedThis = false;
      for (String judge : judges) {
        CanaryTerms.Frequency f =
            CanarySchedule.effectiveFrequency(
                CanaryTerms.Frequency.DEFAULT, pool.get(judge).record());
        boolean inPair = false;
        while (schedule.canaryDue(keyId(judge), f, progress.get(judge))) {
          inPair |= canaryBeside(judge);
        }
        progress.put(judge, progress.get(judge).afterRealTask());
        Map<String, BigDecimal> answer;
        if (ring.contains(judge)) {
          answer = inPair ? honest(d.truth()) : ringAnswer(d.truth(), partner);
          ringCheated |= answer.values().stream().allMatch(s -> s.intValue() == CHEAT);
          ringJudgedThis = true;
        } else {
          answer = honest(d.truth());
        }
        answers.add(answer);
        update(judge, pool.get(judge).record().withEvaluationOf(context.providerId()));
        String deliverable = "delivery-" + i;
        answer.forEach((dim, s) -> scores.add(new Calibration.Score(judge, deliverable, dim, s)));
      }
      for (String other : pool.keySet()) {
        if (!judges.contains(other)) {
          update(
              other, pool.get(other).record().withProviderAssessedByAnother(context.providerId()));
        }
      }
      Calibration.compute(scores, Map.of())
          .forEach((name, c) -> update(name, pool.get(name).record().withCalibration(c)));
      double verdict =
          DIMENSIONS.stream()
              .mapToDouble(dim ->
                  Calibration.median(answers.stream().map(s -> s.get(dim)).toList()).doubleValue())
              .average()
              .orElseThrow();
      ringJudged += ringJudgedThis ? 1 : 0;
      ringOnPartner += ringJudgedThis && partner ? 1 : 0;
      if (badWork(d.truth())) {
        if (verdict >= PASS) {
          badPaid++;
          badPaidByRing += ringCheated ? 1 : 0;
        }
      }
      noteRemovals();
    }
    return this;
  }

  private void noteRemovals() {
    long out = ring.stream().filter(r -> !qualified(r)).count();
    if (ringQualified == 0) {
      return;
    }
    if (out > v.keys() - ringQualified && firstRemovedAt == null) {
      firstRemovedAt = agreement;
    }
    if (out == v.keys() && removedAt == null) {
      removedAt = agreement;
      removedAfterJudged = ringJudged;
    }
  }

  Result result() {
    return new Result(
        v,
        ringQualified,
        ringJudged,
        ringOnPartner,
        partnerDeliveries,
        badPaidByRing,
        badPaid,
        bad,
        ringCanaries,
        ringCanariesFailed,
        firstRemovedAt,
        removedAt,
        removedAfterJudged,
        throwawayKeys,
        throwawayAnswers,
        setUsedUpAt,
        unavailable);
  }

  private static byte[] sha256(String text) {
    return Digest.sha256(text.getBytes(StandardCharsets.UTF_8)).bytes();
  }

  static List<Result> runAll(long seed, int agreements, int setSize) {
    List<Result> out = new ArrayList<>();
    for (int keys : new int[] {3, 5}) {
      for (Target target : Target.values()) {
        for (boolean claim : new boolean[] {false, true}) {
          for (World world : World.values()) {
            Variant variant = new Variant(world, keys, target, claim);
            out.add(new SybilRingSimulation(seed, agreements, setSize, variant).run().result());
          }
        }
      }
    }
    return out;
  }

  static void print(long seed, int agreements, int setSize) {
    System.out.printf(
        Locale.ROOT,
        "%n== sybil ring (issue 53): one owner, k keys, a canary set of %d ==%n"
            + "passes bad work (true mean < %d) of its partner provider-0 or of everyone; 'claim':"
            + " provider-0 claims the honest evaluators' organization (6 of 8 are of %s)%n",
        setSize,
        PASS,
        HONEST_ORG);
    System.out.printf(
        Locale.ROOT,
        "%-7s %-2s %-8s %-5s %9s %6s %13s %16s %9s %-28s %7s %11s %-11s%n",
        "world",
        "k",
        "cheats",
        "claim",
        "qualified",
        "judged",
        "of partner's",
        "bad paid by ring",
        "canaries",
        "ring removed",
        "no draw",
        "harvest",
        "set used up");
    for (Result r : runAll(seed, agreements, setSize)) {
      Variant v = r.variant();
      String removed =
          r.ringQualified() == 0
              ? "never qualified"
              : r.removedAt() != null
                  ? "at #" + r.removedAt() + ", after " + r.removedAfterJudged() + " judged"
                  : "never"
                      + (r.firstRemovedAt() != null
                          ? " (a key left at #" + r.firstRemovedAt() + ")"
                          : "");
      System.out.printf(
          Locale.ROOT,
          "%-7s %-2d %-8s %-5s %9s %6d %13s %16s %9s %-28s %7d %11s %-11s%n",
          v.world().label(),
          v.keys(),
          v.target().name().toLowerCase(Locale.ROOT),
          v.claim() ? "yes" : "no",
          r.ringQualified() + "/" + v.keys(),
          r.ringJudged(),
          r.ringOnPartner() + "/" + r.partnerDeliveries(),
          r.badPaidByRing() + " (" + r.badPaid() + "/" + r.bad() + ")",
          r.ringCanariesFailed() + "/" + r.ringCanaries(),
          removed,
          r.unavailable(),
          r.throwawayKeys() == 0 ? "-" : r.throwawayKeys() + "k/" + r.throwawayAnswers() + "a",
          r.setUsedUpAt() == null ? "-" : "at #" + r.setUsedUpAt());
    }
    System.out.printf(
        Locale.ROOT,
        "qualified: ring keys that qualified at registration; judged: deliveries a ring key"
            + " judged (of partner's: of provider-0's); bad paid by ring (all bad paid/all bad):"
            + " bad deliveries paid because a ring key cheated on them; canaries: failed/given to"
            + " ring keys in the pool; ring removed: when its last key left the pool; no draw:"
            + " agreements with too few eligible evaluators; harvest: throwaway keys/answers that"
            + " learned the set (before: guesses read off the record; after+x: fresh canaries"
            + " judged honestly until the set is used up)%n");
  }
}
