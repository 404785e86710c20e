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
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A seeded simulation of the evaluator pool (a benchmark that prints numbers, not a test): honest,
 * lenient, harsh, absent and one colluding evaluator judge 1,000 agreements with random_from_pool
 * selection, rotation (at most 3 in a row), canaries at 1 per 5 deliveries (1 per 20 once trusted)
 * and, for one agreement in five, three evaluators whose median is the consensus.
 *
 * <p>It runs twice: once with the colluder's link to its partner provider declared (the colluder
 * names the partner's key among its conflicts of interest), so that independence keeps it off the
 * partner's work, and once with the link hidden, so that only the random draw and rotation limit
 * it. Then it runs the sybil ring of issue 53 ({@link SybilRingSimulation}) over as many
 * agreements.
 *
 * <p>Run by hand, not by the test suite (arguments optional: seed, then number of agreements, then
 * the size of the sybil ring's canary set, 1,000 by default):
 *
 * <pre>
 * ./mvnw -B -o -q -pl asa-core test-compile dependency:build-classpath \
 *     -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
 * java -cp asa-core/target/classes:asa-core/target/test-classes:$(cat asa-core/target/test-classpath.txt) \
 *     dev.asa.integrity.PoolSimulation 20260314 1000
 * </pre>
 *
 * (With the exec plugin downloaded, {@code ./mvnw -pl asa-core test-compile exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=dev.asa.integrity.PoolSimulation} does the same.)
 */
public final class PoolSimulation {

  private enum Kind {
    HONEST,
    LENIENT, // rates known-bad work as passing
    HARSH, // 15 points under the truth
    ABSENT, // answers 3 tasks in 10
    COLLUDER // honest, except for its partner's deliverables, which it scores 95
  }

  private static final String TYPE = "research";
  private static final List<String> DIMENSIONS = List.of("accuracy", "writing");
  private static final RotationTerms ROTATION = new RotationTerms(3);
  private static final QualificationPolicy POLICY = QualificationPolicy.DEFAULTS;

  /** Canaries the pool has been given (once each until the set is used up), and repeats since. */
  private final Set<String> served = new java.util.HashSet<>();

  private long repeats;

  private final Random random;
  private final boolean linkDeclared;
  private final Map<String, Kind> kinds = new LinkedHashMap<>();
  private final Map<String, PoolMember> pool = new LinkedHashMap<>();
  private final Map<String, CanarySchedule.Progress> progress = new HashMap<>();
  private final Map<String, Stats> stats = new LinkedHashMap<>();
  private final CanarySet canaries;
  private final CanarySchedule schedule;
  private final Ed25519PrivateKey serverKey;
  private final List<Party> clients = new ArrayList<>();
  private final List<Party> providers = new ArrayList<>();
  private final Map<String, Integer> providerQuality = new HashMap<>();

  private int unavailable;
  private int backups;
  private int drawsChecked;
  private int partnerDeliveries;
  private int colluderOnPartner;
  private int colluderRun;
  private int colluderLongestRun;
  private int longestStreak;
  private int realTasks;
  private int canaryTasks;
  private int qualificationCanaries;
  private int agreement; // the agreement being simulated

  private static final class Stats {
    int realTasks;
    int canaries;
    int passes;
    int qualificationCanaries; // taken while out of the pool
    Integer leftAtCanary; // canaries taken in the simulation when it first left the pool
    Integer leftAtAgreement;
    Integer leftAfterReal;
    String leftBecause;
    Integer returnedAtAgreement;
    boolean inPool = true;
  }

  private PoolSimulation(long seed, boolean linkDeclared) {
    this.random = new Random(seed);
    this.linkDeclared = linkDeclared;
    this.serverKey = Ed25519PrivateKey.fromSeed(sha256("simulated server " + seed));
    this.schedule = new CanarySchedule(sha256("canary secret " + seed));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      boolean good = i % 2 == 0;
      int accuracy = good ? 80 + random.nextInt(15) : 15 + random.nextInt(25);
      int writing = good ? 78 + random.nextInt(15) : 20 + random.nextInt(25);
      ObjectNode c = Canaries.canary((good ? "good-" : "bad-") + i, accuracy, writing);
      lines.append(dev.asa.json.Json.write(c)).append('\n');
    }
    this.canaries = CanarySet.parse(lines.toString());
    for (int i = 0; i < 20; i++) {
      clients.add(party(Role.CLIENT, "client-" + i, "Client Org " + i, null));
    }
    for (int i = 0; i < 10; i++) {
      providers.add(
          party(Role.PROVIDER, "provider-" + i, "Provider Org " + i, "coc:provider-" + i));
      providerQuality.put("provider-" + i, i == 0 ? 55 : 60 + random.nextInt(30));
    }
    for (int i = 1; i <= 7; i++) {
      add("honest-" + i, Kind.HONEST, null);
    }
    add("lenient", Kind.LENIENT, null);
    add("harsh", Kind.HARSH, null);
    add("absent", Kind.ABSENT, null);
    // The colluder's partner is provider-0; declared, the colluder names the partner's key among
    // its conflicts of interest (what the draw honours: a party's own claims exclude nobody).
    add("colluder", Kind.COLLUDER, linkDeclared ? providers.get(0).verificationKey() : null);
  }

  private static Party party(Role role, String name, String org, String lineage) {
    return new Party(
        role,
        new Identity("api_key", name, lineage),
        name,
        org,
        Ed25519PrivateKey.fromSeed(sha256("party " + name)).publicKey(),
        null);
  }

  private void add(String name, Kind kind, Ed25519PublicKey conflictWith) {
    EvaluatorProfile profile =
        new EvaluatorProfile(
            Ed25519PrivateKey.fromSeed(sha256("evaluator " + name)).publicKey(),
            new Identity("api_key", name, null),
            name,
            "Evaluator Org " + name,
            List.of(TYPE),
            null,
            new BigDecimal("0.30"),
            List.of(),
            conflictWith == null ? List.of() : List.of(conflictWith));
    // Everyone starts qualified but not yet trusted: 60 evaluations, 19 of 20 canaries passed
    // (95%, not above it: canaries at 1 per 5), 3 points off on average.
    TrackRecord start =
        new TrackRecord(
            60,
            20,
            19,
            new Calibration(
                Map.of("accuracy", new Deviation(20, BigDecimal.valueOf(60), BigDecimal.ZERO)),
                Map.of()),
            Map.of());
    kinds.put(name, kind);
    pool.put(name, new PoolMember(profile, start, Standing.ACTIVE));
    progress.put(name, CanarySchedule.Progress.START);
    stats.put(name, new Stats());
  }

  /**
   * What an evaluator of this kind answers for a deliverable of this true quality; null: silent.
   */
  private Map<String, BigDecimal> judge(
      String evaluator, Map<String, Integer> truth, boolean partnersWork) {
    Kind kind = kinds.get(evaluator);
    if (kind == Kind.ABSENT && random.nextInt(10) >= 3) {
      return null;
    }
    Map<String, BigDecimal> scores = new LinkedHashMap<>();
    for (var e : truth.entrySet()) {
      double t = e.getValue();
      double s =
          switch (kind) {
            case HONEST, ABSENT -> t + 3.5 * random.nextGaussian();
            case LENIENT -> t < 60 ? t + 35 : t + 3;
            case HARSH -> t - 15;
            case COLLUDER -> partnersWork ? 95 : t + 3.5 * random.nextGaussian();
          };
      scores.put(e.getKey(), BigDecimal.valueOf(Math.max(0, Math.min(100, Math.round(s)))));
    }
    return scores;
  }

  private void giveCanary(String name) {
    Stats st = stats.get(name);
    Canary canary =
        schedule
            .freshCanary(canaries, TYPE, served)
            .or(() -> schedule.repeatedCanary(canaries, TYPE, served.size() + repeats))
            .orElseThrow();
    if (!served.add(canary.id())) {
      repeats++;
    }
    Map<String, Integer> known = new LinkedHashMap<>();
    canary.knownScores().forEach((d, v) -> known.put(d, v.intValue()));
    Map<String, BigDecimal> answer = judge(name, known, false);
    CanaryCheck check =
        answer == null ? CanaryCheck.unanswered(canary) : CanaryCheck.of(canary, answer);
    progress.put(name, progress.get(name).afterCanary());
    st.canaries++;
    st.passes += check.passed() ? 1 : 0;
    if (st.inPool) {
      canaryTasks++;
    } else {
      st.qualificationCanaries++;
      qualificationCanaries++;
    }
    update(name, pool.get(name).record().withCanary(check));
  }

  /** Replaces an evaluator's record, noting when it leaves the pool or comes back, and why. */
  private void update(String name, TrackRecord record) {
    PoolMember m = pool.get(name);
    pool.put(name, new PoolMember(m.profile(), record, m.standing()));
    Stats st = stats.get(name);
    Qualification q = POLICY.assess(record, Standing.ACTIVE);
    if (st.inPool && !q.qualified()) {
      st.inPool = false;
      if (st.leftAtCanary == null) {
        st.leftAtCanary = st.canaries;
        st.leftAtAgreement = agreement;
        st.leftAfterReal = st.realTasks;
        String reason = q.reasons().getFirst();
        st.leftBecause = reason.startsWith("passed") ? "canary pass rate" : "calibration";
      }
    } else if (!st.inPool && q.qualified()) {
      st.inPool = true;
      st.returnedAtAgreement = agreement;
    }
  }

  private String keyId(String name) {
    return pool.get(name).profile().keyId();
  }

  private String nameOf(dev.asa.crypto.Ed25519PublicKey key) {
    return pool.values().stream()
        .filter(m -> m.key().equals(key))
        .findFirst()
        .orElseThrow()
        .profile()
        .displayName();
  }

  private void run(int agreements) {
    for (int i = 0; i < agreements; i++) {
      agreement = i;
      Party client = clients.get(random.nextInt(clients.size()));
      Party provider =
          random.nextInt(10) < 3 ? providers.get(0) : providers.get(1 + random.nextInt(9));
      boolean partner = provider.equals(providers.get(0));
      int count = random.nextInt(5) == 0 ? 3 : 1;
      AssignmentContext context = new AssignmentContext(client, provider, TYPE, ROTATION);
      Screening screening = Screening.of(pool.values(), context, POLICY);
      Seed seed = new Seed(serverKey.sign(sha256("agreement " + i)).bytes()); // stands for the hash
      Assignment a =
          Assignment.assign(EvaluatorSelection.randomFromPool(), screening, seed, count, Set.of());
      if (a instanceof Assignment.Unavailable) {
        unavailable++;
        continue;
      }
      Assignment.Assigned assigned = (Assignment.Assigned) a;
      for (var d : assigned.toJson().path("draws")) {
        Draw.fromJson(d); // throws if it does not recompute
        drawsChecked++;
      }
      List<String> judges = new ArrayList<>(assigned.keys().stream().map(this::nameOf).toList());
      int q = providerQuality.get(provider.identity().value());
      Map<String, Integer> truth = new LinkedHashMap<>();
      for (String d : DIMENSIONS) {
        truth.put(d, Math.max(0, Math.min(100, q + (int) Math.round(8 * random.nextGaussian()))));
      }
      List<Calibration.Score> scores = new ArrayList<>();
      List<String> assessed = new ArrayList<>();
      List<dev.asa.crypto.Ed25519PublicKey> tried = new ArrayList<>(assigned.keys());
      int backupNumber = 0;
      for (int j = 0; j < judges.size(); j++) {
        String judge = judges.get(j);
        CanaryTerms.Frequency f =
            CanarySchedule.effectiveFrequency(
                CanaryTerms.Frequency.DEFAULT, pool.get(judge).record());
        while (schedule.canaryDue(keyId(judge), f, progress.get(judge))) {
          giveCanary(judge);
        }
        progress.put(judge, progress.get(judge).afterRealTask());
        Map<String, BigDecimal> answer = judge(judge, truth, partner);
        if (answer == null) { // timed out: hold for a backup evaluator
          backups++;
          Assignment b =
              Assignment.backup(
                  EvaluatorSelection.randomFromPool(), screening, seed, tried, ++backupNumber);
          if (b instanceof Assignment.Assigned ba) {
            String backup = nameOf(ba.keys().getFirst());
            tried.add(ba.keys().getFirst());
            judges.set(j, backup);
            j--; // the backup now takes this slot, canaries included
          }
          continue;
        }
        realTasks++;
        assessed.add(judge);
        stats.get(judge).realTasks++;
        update(judge, pool.get(judge).record().withEvaluationOf(context.providerId()));
        for (var e : answer.entrySet()) {
          scores.add(new Calibration.Score(judge, "delivery-" + i, e.getKey(), e.getValue()));
        }
      }
      for (String other : pool.keySet()) {
        if (!assessed.contains(other)) {
          update(
              other, pool.get(other).record().withProviderAssessedByAnother(context.providerId()));
        }
        longestStreak =
            Math.max(longestStreak, pool.get(other).record().consecutiveFor(context.providerId()));
      }
      Calibration.compute(scores, Map.of())
          .forEach((name, c) -> update(name, pool.get(name).record().withCalibration(c)));
      if (partner) {
        partnerDeliveries++;
        if (assessed.contains("colluder")) {
          colluderOnPartner++;
          colluderRun++;
          colluderLongestRun = Math.max(colluderLongestRun, colluderRun);
        } else {
          colluderRun = 0;
        }
      }
      // Evaluators out of the pool keep taking qualification canaries, so that they can return.
      if (i % 5 == 4) {
        for (String name : pool.keySet()) {
          if (!stats.get(name).inPool) {
            giveCanary(name);
          }
        }
      }
    }
  }

  private void print(int agreements) {
    System.out.printf(
        Locale.ROOT,
        "%n== colluder's link to provider-0 %s ==%n",
        linkDeclared
            ? "DECLARED (the colluder names the partner's key among its conflicts)"
            : "HIDDEN");
    System.out.printf(
        Locale.ROOT,
        "%d agreements, %d real evaluations, %d canaries among them (%.1f%% overhead) and %d"
            + " qualification canaries out of the pool, %d timeouts held for a backup, %d with"
            + " nobody eligible, %d draws recomputed from their records%n",
        agreements,
        realTasks,
        canaryTasks,
        100.0 * canaryTasks / Math.max(1, realTasks),
        qualificationCanaries,
        backups,
        unavailable,
        drawsChecked);
    System.out.printf(
        Locale.ROOT,
        "colluder judged %d of provider-0's %d deliveries (%.1f%%), at most %d in a row;"
            + " longest streak of any evaluator with any provider: %d (rotation allows 3)%n",
        colluderOnPartner,
        partnerDeliveries,
        100.0 * colluderOnPartner / Math.max(1, partnerDeliveries),
        colluderLongestRun,
        longestStreak);
    System.out.printf(
        Locale.ROOT,
        "%-10s %-9s %5s %8s %6s %9s %-44s %-9s %6s %6s%n",
        "evaluator",
        "kind",
        "real",
        "canaries",
        "passed",
        "of which",
        "left the pool after",
        "returned",
        "dev",
        "bias");
    for (var e : stats.entrySet()) {
      Stats s = e.getValue();
      Deviation d = pool.get(e.getKey()).record().calibration().overall();
      System.out.printf(
          Locale.ROOT,
          "%-10s %-9s %5d %8d %6d %9s %-44s %-9s %6s %6s%n",
          e.getKey(),
          kinds.get(e.getKey()).name().toLowerCase(Locale.ROOT),
          s.realTasks,
          s.canaries,
          s.passes,
          s.qualificationCanaries == 0 ? "" : s.qualificationCanaries + " qual.",
          s.leftAtCanary == null
              ? "stayed"
              : s.leftAtCanary
                  + " canaries, "
                  + s.leftAfterReal
                  + " real, at #"
                  + s.leftAtAgreement
                  + " ("
                  + s.leftBecause
                  + ")",
          s.returnedAtAgreement == null ? "-" : "at #" + s.returnedAtAgreement,
          d.meanAbsolute().map(BigDecimal::toPlainString).orElse("-"),
          d.bias().map(b -> b.setScale(1, RoundingMode.HALF_EVEN).toPlainString()).orElse("-"));
    }
  }

  private static byte[] sha256(String text) {
    return Digest.sha256(text.getBytes(StandardCharsets.UTF_8)).bytes();
  }

  public static void main(String[] args) {
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 20260314L;
    int agreements = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    System.out.printf(Locale.ROOT, "pool simulation, seed %d%n", seed);
    for (boolean declared : new boolean[] {true, false}) {
      PoolSimulation sim = new PoolSimulation(seed, declared);
      sim.run(agreements);
      sim.print(agreements);
    }
    int ringSet = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    SybilRingSimulation.print(seed, agreements, ringSet);
    dev.asa.reputation.LaunderingSimulation.print(seed, 120);
  }
}
