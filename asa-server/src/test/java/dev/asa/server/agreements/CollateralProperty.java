package dev.asa.server.agreements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.Caller;
import dev.asa.agreement.Currency;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.agreement.SignatureRefusedException;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.facts.CollateralFact;
import dev.asa.facts.CollateralStatus;
import dev.asa.facts.ServerFacts;
import dev.asa.facts.SettlementFact;
import dev.asa.facts.VerificationFact;
import dev.asa.json.Json;
import dev.asa.ledger.Accounts;
import dev.asa.ledger.Transfer;
import dev.asa.lifecycle.State;
import dev.asa.lifecycle.TransitionRefusedException;
import dev.asa.server.e2e.LifecycleEndToEndTest;
import dev.asa.server.http.CommandBodies;
import dev.asa.server.store.Store;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.escrow.LedgerEntry;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.server.verification.DeliverableFetcher;
import dev.asa.server.verification.VerificationRunner;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.TimerKind;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Collateral bonding under random orders, timings and races (issue 56 item 3), driven through
 * {@link AgreementService} with a movable clock and a timer loop that works like {@link
 * dev.asa.server.timers.Timers} (claim with a lease, fire, finish), on the store of the subclass.
 *
 * <p>Each agreement takes random terms: a collateral in the payment's currency (USD, JPY or BTC,
 * sometimes a zero payment that needs no funding), {@code slash_on} left out or a random subset,
 * {@code slash_percent} left out, 100 or a random share; optimistic or pessimistic verification,
 * short random dead-man's timeouts. Then a random walk: fund, stake and deliver in any order (often
 * refused), verdicts that PASS, FAIL below the threshold or FAIL on a gate alone, challenges,
 * rulings of any share, clock jumps to just before, at or after a pending deadline, a timer loop
 * that sometimes lags, and for some agreements two threads at once (fund, stake, deliver and the
 * funding or delivery deadline's timer; a stake twice; a verdict and the evaluator's deadline; a
 * close and the challenge window; two rulings).
 *
 * <p>Then, once every agreement has ended: (a) a staked collateral had exactly one outcome: one
 * {@code deposit} and one {@code stake} of the terms' amount, then {@code slash} + {@code return}
 * == the stake, the collateral account empty, one {@code collateral_staked} and exactly one of
 * {@code collateral_slashed} or {@code collateral_returned} in the log, never both; an unstaked one
 * moved nothing; (b) the outcome is the one the ending calls for, worked out here from the plan and
 * the facts independently of {@code Slashing}; (c) no delivery without the stake held first; (d)
 * every currency's ledger sums to zero and no party's account is below zero; (e) ended agreements
 * never change again (timers re-fired, stakes retried).
 *
 * <p>The seed is pinned and printed; {@code -Dasa.test.seed=<n>} (or {@code -Dasa.seed}) walks
 * others, {@code -Dasa.collateral.agreements=<n>} changes how many. A rerun repeats each
 * agreement's terms and walk, except where a race ends the other way.
 */
abstract class CollateralProperty {
  private static final long PINNED_SEED = 56_003L;
  private static final Ed25519PrivateKey ALICE_KEY = Fixtures.key("alice");
  private static final Ed25519PrivateKey BOB_KEY = Fixtures.key("bob");
  private static final Caller ALICE = Fixtures.caller("alice");
  private static final Caller BOB = Fixtures.caller("bob");
  private static final Caller JUDGE = Fixtures.caller("eval-1");
  private static final Caller MALLORY = Fixtures.caller("mallory");
  private static final Caller OPERATOR = new Caller.Key(Fixtures.key("operator").publicKey(), true);
  private static final String CLIENT_ACCOUNT = Accounts.party(ALICE_KEY.publicKey().toBase64Url());
  private static final String PROVIDER_ACCOUNT = Accounts.party(BOB_KEY.publicKey().toBase64Url());
  private static final String[] CURRENCIES = {"USD", "JPY", "BTC"};
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
  private static final BigDecimal THRESHOLD = BigDecimal.valueOf(70); // the general template's
  private static final Duration LEASE = Duration.ofSeconds(60);

  @TempDir Path dir;
  private Store store;
  private AgreementService service;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private final ExecutorService racers = Executors.newFixedThreadPool(2);
  private long seed;
  private Random random;

  /** The store under test, opened in {@code dir}. */
  abstract Store open(Path dir);

  /** How many agreements by default. */
  abstract int defaultAgreements();

  /** What the test decided for one agreement. */
  private static final class Plan {
    int index;
    String id;
    Money payment;
    Money stake;
    List<Escrow.SlashEvent> slashOn; // empty: left out, all three
    BigDecimal slashPercent; // null: left out, 100
    String strategy;
    boolean racy;
    final List<String> races = new ArrayList<>();

    boolean slashesOn(Escrow.SlashEvent e) {
      return slashOn.isEmpty() || slashOn.contains(e);
    }

    @Override
    public String toString() {
      return "#"
          + index
          + " "
          + id
          + " [pay "
          + payment
          + ", stake "
          + stake
          + ", slash_on "
          + (slashOn.isEmpty() ? "(all)" : slashOn)
          + ", "
          + (slashPercent == null ? "(100)" : slashPercent)
          + "%, "
          + strategy
          + (races.isEmpty() ? "" : ", races " + races)
          + "]";
    }
  }

  private final List<Plan> plans = new ArrayList<>();
  private final Map<String, Integer> refusals = new TreeMap<>();
  private final Map<String, Integer> outcomes = new TreeMap<>();
  private final Map<String, Integer> raceOutcomes = new TreeMap<>();
  private volatile Plan current;

  @BeforeEach
  void start() {
    store = open(dir);
    Ed25519PrivateKey serverKey = Fixtures.key("server");
    service =
        new AgreementService(
            store,
            clock,
            new VerificationRunner(
                store, new StructuralEvaluator(), new DeliverableFetcher(1 << 20), serverKey),
            serverKey.publicKey().toBase64Url());
  }

  @AfterEach
  void stop() throws InterruptedException {
    racers.shutdownNow();
    racers.awaitTermination(10, TimeUnit.SECONDS);
    store.close();
  }

  @Test
  void aStakeHasExactlyOneOutcomeWhateverTheOrderTimingAndRaces() {
    seed = Long.getLong("asa.test.seed", Long.getLong("asa.seed", PINNED_SEED));
    int count = Integer.getInteger("asa.collateral.agreements", defaultAgreements());
    System.out.println(
        getClass().getSimpleName()
            + " seed = "
            + seed
            + " (rerun with -Dasa.test.seed="
            + seed
            + ")");

    for (int n = 0; n < count; n++) {
      random = new Random(seed ^ (0x9E3779B97F4A7C15L * (n + 1)));
      Plan plan = newAgreement(n);
      int steps = 6 + random.nextInt(14);
      for (int i = 0; i < steps && !state(plan.id).isFinal(); i++) {
        step(plan);
      }
    }

    // Everything comes to an end: deadlines pass, and disputes (which wait for a ruling) are ruled.
    clock.advance(Duration.ofDays(400));
    drainTimers();
    for (Plan p : plans) {
      current = p;
      if (state(p.id) == State.DISPUTED) {
        rule(p, randomPercent());
      }
    }
    drainTimers();

    Map<String, String> before = new HashMap<>();
    for (Plan p : plans) {
      assertThat(state(p.id)).as("%s ended (seed %d)", p, seed).matches(State::isFinal);
      check(p);
      before.put(p.id, snapshot(p.id));
    }
    checkLedger();

    // (e) Ended agreements never change: every timer kind fired again, stakes and the rest retried.
    clock.advance(Duration.ofDays(30));
    for (Plan p : plans) {
      for (TimerKind kind : TimerKind.values()) {
        attempt(
            "final:fire", () -> service.timers().fire(TimerRow.of(p.id, kind.wireName(), now())));
      }
      assertThat(stake(p, BOB)).as("%s: staked after the end", p).isFalse();
      assertThat(fund(p)).as("%s: funded after the end", p).isFalse();
      assertThat(deliver(p)).as("%s: delivered after the end", p).isFalse();
      assertThat(rule(p, HUNDRED)).as("%s: ruled after the end", p).isFalse();
    }
    drainTimers();
    for (Plan p : plans) {
      assertThat(snapshot(p.id))
          .as("%s changed after the end (seed %d)", p, seed)
          .isEqualTo(before.get(p.id));
    }
    checkLedger();

    System.out.println(getClass().getSimpleName() + " outcomes " + outcomes);
    System.out.println(getClass().getSimpleName() + " races " + raceOutcomes);
    System.out.println(getClass().getSimpleName() + " refusals " + refusals);
    // The walks reached every outcome the property is about.
    assertThat(outcomes.keySet())
        .as("outcomes reached (seed %d)", seed)
        .contains(
            "returned",
            "slashed:verification_failure",
            "slashed:provider_timeout",
            "slashed:dispute_lost",
            "not staked");
  }

  // ---- the random walk -----------------------------------------------------------------------

  private Plan newAgreement(int n) {
    Plan p = new Plan();
    p.index = n;
    current = p;
    ObjectNode doc = Fixtures.general();
    String code = CURRENCIES[random.nextInt(CURRENCIES.length)];
    Currency currency = Currency.of(code).orElseThrow();
    p.payment =
        random.nextInt(15) == 0
            ? Money.zero(currency) // needs no funding: the stake alone waits
            : new Money(
                BigDecimal.valueOf(1 + random.nextInt(100_000), currency.decimals()), currency);
    p.stake =
        new Money(
            BigDecimal.valueOf(
                random.nextInt(6) == 0 ? 1 : 1 + random.nextInt(50_000), currency.decimals()),
            currency);
    ObjectNode escrow = (ObjectNode) doc.path("escrow");
    escrow.putObject("payment").put("amount", p.payment.toWire()).put("currency", code);
    ObjectNode c = escrow.putObject("collateral").put("amount", p.stake.toWire());
    if (random.nextBoolean()) {
      c.put("currency", code);
    }
    p.slashOn = new ArrayList<>();
    if (random.nextInt(3) > 0) {
      List<Escrow.SlashEvent> all = List.of(Escrow.SlashEvent.values());
      for (Escrow.SlashEvent e : all) {
        if (random.nextInt(3) > 0) {
          p.slashOn.add(e);
        }
      }
      if (p.slashOn.isEmpty()) {
        p.slashOn.add(all.get(random.nextInt(all.size())));
      }
      ArrayNode on = c.putArray("slash_on");
      p.slashOn.forEach(e -> on.add(e.wireName()));
    }
    p.slashPercent =
        switch (random.nextInt(3)) {
          case 0 -> null; // left out: 100
          case 1 -> HUNDRED;
          default -> BigDecimal.valueOf(1 + random.nextInt(10_000), 2);
        };
    if (p.slashPercent != null) {
      c.put("slash_percent", p.slashPercent);
    }
    p.strategy = random.nextInt(3) == 0 ? "pessimistic" : "optimistic";
    doc.putObject("verification")
        .put("strategy", p.strategy)
        .put("challenge_window_seconds", random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(7200));
    escrow
        .putObject("dead_mans_switch")
        .put("client_timeout_seconds", 60 + random.nextInt(7200))
        .put("provider_timeout_seconds", 60 + random.nextInt(7200))
        .put("evaluator_timeout_seconds", 60 + random.nextInt(7200))
        .put(
            "timeout_action",
            List.of("hold_for_backup_evaluator", "split_50_50", "return_to_client")
                .get(random.nextInt(3)));
    String[] id = new String[1];
    if (!attempt(
        "create",
        () ->
            id[0] =
                service.commands().create(doc, ALICE, null).body().path("agreement_id").asText())) {
      fail("the generated agreement was refused (seed %d): %s", seed, doc);
    }
    p.id = id[0];
    p.racy = random.nextInt(3) == 0;
    plans.add(p);
    sign(p, "client");
    sign(p, "provider");
    return p;
  }

  private void step(Plan p) {
    if (p.racy && random.nextInt(3) == 0) {
      race(p);
    } else if (random.nextInt(5) == 0) {
      jump(p);
    } else {
      nextStep(p);
    }
    if (random.nextInt(4) != 0) {
      fireDueTimers("node-main");
    }
  }

  /** A plausible next step, with the order of fund, stake and deliver left to chance. */
  private void nextStep(Plan p) {
    switch (state(p.id)) {
      case ACTIVE -> {
        switch (random.nextInt(4)) {
          case 0 -> fund(p);
          case 1 ->
              stake(
                  p,
                  random.nextInt(8) == 0
                      ? List.of(ALICE, JUDGE, MALLORY).get(random.nextInt(3))
                      : BOB);
          default -> deliver(p);
        }
      }
      case DELIVERED -> {
        if (random.nextInt(5) == 0) {
          jumpPast(p, TimerKind.EVALUATOR_TIMEOUT);
        } else {
          verify(p);
        }
      }
      case VERIFIED -> {
        switch (random.nextInt(3)) {
          case 0 ->
              attempt(
                  "challenge",
                  () ->
                      service
                          .disputes()
                          .challenge(
                              p.id,
                              CommandBodies.challenge(
                                  Json.object().put("reason_code", "quality_below_agreed_slo")),
                              random.nextBoolean() ? ALICE : BOB,
                              null));
          case 1 -> jumpPast(p, TimerKind.CHALLENGE_WINDOW);
          default -> attempt("close", () -> service.commands().close(p.id, ALICE, null));
        }
      }
      case DISPUTED -> rule(p, randomPercent());
      default -> {}
    }
  }

  /** Two calls at once, where the stake competes with funding, delivery, a deadline or itself. */
  private void race(Plan p) {
    State s = state(p.id);
    List<String> names = new ArrayList<>();
    List<Callable<Boolean>> pair = new ArrayList<>();
    switch (s) {
      case ACTIVE -> {
        if (random.nextBoolean()) {
          jumpPast(
              p,
              random.nextBoolean()
                  ? TimerKind.PROVIDER_DELIVERY_TIMEOUT
                  : TimerKind.CLIENT_FUNDING_TIMEOUT);
        }
        for (int i = 0; i < 2; i++) {
          switch (random.nextInt(5)) {
            case 0 -> {
              names.add("fund");
              pair.add(() -> fund(p));
            }
            case 1, 2 -> {
              names.add("stake");
              pair.add(() -> stake(p, BOB));
            }
            case 3 -> {
              names.add("deliver");
              pair.add(() -> deliver(p));
            }
            default -> {
              names.add("poll");
              pair.add(() -> fireDueTimers("node-" + names.size()) > 0);
            }
          }
        }
      }
      case DELIVERED -> {
        jumpPast(p, TimerKind.EVALUATOR_TIMEOUT);
        int[] scores = randomScores();
        names.addAll(List.of("verify", "poll"));
        pair.add(() -> verify(p, scores));
        pair.add(() -> fireDueTimers("node-a") > 0);
      }
      case VERIFIED -> {
        jumpPast(p, TimerKind.CHALLENGE_WINDOW);
        names.addAll(List.of("close", "poll"));
        pair.add(() -> attempt("race:close", () -> service.commands().close(p.id, BOB, null)));
        pair.add(() -> fireDueTimers("node-a") > 0);
      }
      case DISPUTED -> {
        BigDecimal first = randomPercent();
        BigDecimal second = randomPercent();
        names.addAll(List.of("rule", "rule"));
        pair.add(() -> rule(p, first));
        pair.add(() -> rule(p, second));
      }
      default -> {
        return;
      }
    }
    List<Boolean> results = together(pair);
    String kind = s + " " + String.join(" vs ", names);
    p.races.add(kind);
    synchronized (this) {
      raceOutcomes.merge(
          kind
              + " -> "
              + results.stream()
                  .map(ok -> ok ? "ok" : "no")
                  .reduce((x, y) -> x + "/" + y)
                  .orElse(""),
          1,
          Integer::sum);
    }
  }

  private List<Boolean> together(List<Callable<Boolean>> tasks) {
    CyclicBarrier start = new CyclicBarrier(tasks.size());
    List<Future<Boolean>> futures = new ArrayList<>();
    for (Callable<Boolean> t : tasks) {
      futures.add(
          racers.submit(() -> {
            start.await(10, TimeUnit.SECONDS);
            return t.call();
          }));
    }
    List<Boolean> out = new ArrayList<>();
    for (Future<Boolean> f : futures) {
      try {
        out.add(f.get(60, TimeUnit.SECONDS));
      } catch (ExecutionException e) {
        throw new AssertionError(
            "a racing call failed on " + current + " (seed " + seed + ")", e.getCause());
      } catch (Exception e) {
        throw new AssertionError("a racing call did not finish (seed " + seed + ")", e);
      }
    }
    return out;
  }

  private void sign(Plan p, String party) {
    Ed25519PrivateKey key = party.equals("client") ? ALICE_KEY : BOB_KEY;
    attempt(
        "sign",
        () -> {
          String hash = service.queries().get(p.id, ALICE).path("agreement_hash").asText();
          ObjectNode b = Json.object().put("party", party);
          b.putObject("signature")
              .put("scheme", "ed25519")
              .put("value", key.sign(hash.getBytes(StandardCharsets.UTF_8)).toBase64Url());
          service
              .commands()
              .sign(p.id, CommandBodies.sign(b), party.equals("client") ? ALICE : BOB, null);
        });
  }

  private boolean fund(Plan p) {
    return attempt(
        "fund", () -> service.commands().fund(p.id, CommandBodies.fund(null), ALICE, null));
  }

  private boolean stake(Plan p, Caller caller) {
    return attempt(
        "stake",
        () -> service.commands().stakeCollateral(p.id, CommandBodies.stake(null), caller, null));
  }

  private boolean deliver(Plan p) {
    return attempt(
        "deliver",
        () ->
            service
                .commands()
                .deliver(
                    p.id,
                    CommandBodies.deliver(
                        Json.object()
                            .put("content", "# Findings\n\nFederated learning keeps data local.\n")
                            .put("format", "markdown")),
                    BOB,
                    null));
  }

  private boolean verify(Plan p) {
    return verify(p, randomScores());
  }

  private boolean verify(Plan p, int[] s) {
    ObjectNode body = Json.object();
    body.set("evaluator_result", LifecycleEndToEndTest.judgedScores(s[0], s[1], s[2]));
    return attempt(
        "verify",
        () -> service.verifications().verify(p.id, CommandBodies.verify(body), JUDGE, null));
  }

  /** A PASS, a FAIL below the threshold, a FAIL on the accuracy gate alone, or anything. */
  private int[] randomScores() {
    return switch (random.nextInt(4)) {
      case 0 ->
          new int[] {90 + random.nextInt(11), 80 + random.nextInt(21), 90 + random.nextInt(11)};
      case 1 -> new int[] {60 + random.nextInt(15), random.nextInt(60), random.nextInt(60)};
      case 2 ->
          new int[] {40 + random.nextInt(20), 90 + random.nextInt(11), 90 + random.nextInt(11)};
      default -> new int[] {random.nextInt(101), random.nextInt(101), random.nextInt(101)};
    };
  }

  private BigDecimal randomPercent() {
    return switch (random.nextInt(4)) {
      case 0 -> BigDecimal.ZERO;
      case 1 -> HUNDRED;
      default -> BigDecimal.valueOf(random.nextInt(10_001), 2);
    };
  }

  private boolean rule(Plan p, BigDecimal percent) {
    return attempt(
        "rule",
        () ->
            service
                .disputes()
                .rule(
                    p.id,
                    CommandBodies.ruling(
                        Json.object().put("release_percent", percent).put("reason", "weighed")),
                    OPERATOR,
                    null));
  }

  private void jump(Plan p) {
    List<TimerRow> pending = store.timers().pending(p.id);
    if (!pending.isEmpty() && random.nextBoolean()) {
      moveTo(pending.get(random.nextInt(pending.size())).dueAt().plus(offset()));
    } else {
      clock.advance(Duration.ofSeconds(random.nextInt(3600)));
    }
  }

  private void jumpPast(Plan p, TimerKind kind) {
    store.timers().pending(p.id).stream()
        .filter(t -> t.kind().equals(kind.wireName()))
        .findFirst()
        .ifPresent(t -> moveTo(t.dueAt().plus(offset())));
  }

  private Duration offset() {
    return switch (random.nextInt(4)) {
      case 0 -> Duration.ofMillis(-1);
      case 1 -> Duration.ZERO;
      case 2 -> Duration.ofMillis(1);
      default -> Duration.ofSeconds(1 + random.nextInt(60));
    };
  }

  private void moveTo(Instant target) {
    Duration d = Duration.between(clock.instant(), target);
    if (!d.isNegative()) {
      clock.advance(d);
    }
  }

  private Instant now() {
    return clock.instant();
  }

  private int fireDueTimers(String node) {
    int fired = 0;
    List<TimerRow> due;
    do {
      due = store.timers().claimDue(now(), node, LEASE, 100);
      for (TimerRow t : due) {
        if (attempt("timer:" + t.kind(), () -> service.timers().fire(t))) {
          store.timers().finish(t, node, now());
          fired++;
        }
      }
    } while (due.size() == 100);
    return fired;
  }

  private void drainTimers() {
    for (int round = 0; round < 10; round++) {
      fireDueTimers("node-main");
      clock.advance(LEASE.plusSeconds(1));
      if (fireDueTimers("node-main") == 0) {
        return;
      }
    }
  }

  /** A refusal answers false and is counted; anything else fails the test. */
  private boolean attempt(String what, Runnable call) {
    try {
      call.run();
      return true;
    } catch (TransitionRefusedException
        | ConflictException
        | InvalidDocumentException
        | AccessDeniedException
        | NotFoundException
        | SignatureRefusedException e) {
      synchronized (this) {
        refusals.merge(what + " " + e.getClass().getSimpleName(), 1, Integer::sum);
      }
      return false;
    } catch (RuntimeException e) {
      throw new AssertionError(
          what
              + " failed with "
              + e.getClass().getName()
              + " on "
              + current
              + " (seed "
              + seed
              + ")",
          e);
    }
  }

  // ---- the checks ----------------------------------------------------------------------------

  private AgreementRow row(String id) {
    return store.agreements().find(id).orElseThrow();
  }

  private State state(String id) {
    return row(id).state();
  }

  private String snapshot(String id) {
    AgreementRow r = row(id);
    return r.state()
        + " v"
        + r.version()
        + " "
        + r.facts()
        + " "
        + store.ledger().entriesOfAgreement(id)
        + " events "
        + store.events().log(id).size();
  }

  private void check(Plan p) {
    AgreementRow r = row(p.id);
    Agreement a =
        AgreementDocuments.readStored(r.document(), r.state(), ServerFacts.fromStored(r.facts()));
    String ctx = p + " in " + r.state() + " (seed " + seed + ")";
    List<LedgerEntry> ledger = store.ledger().entriesOfAgreement(p.id);
    Map<Transfer.Kind, List<LedgerEntry>> byKind = new EnumMap<>(Transfer.Kind.class);
    for (LedgerEntry e : ledger) {
      byKind.computeIfAbsent(e.kind(), k -> new ArrayList<>()).add(e);
    }
    byKind.forEach(
        (kind, legs) -> assertThat(legs).as("%s: one %s transfer, two legs", ctx, kind).hasSize(2));
    List<String> events = new ArrayList<>();
    for (EventRecord e : store.events().log(p.id)) {
      events.add(e.type());
    }
    long staked = events.stream().filter("collateral_staked"::equals).count();
    long slashed = events.stream().filter("collateral_slashed"::equals).count();
    long returned = events.stream().filter("collateral_returned"::equals).count();
    String collateralAccount = Accounts.collateral(p.id);

    CollateralFact fact = a.facts().collateral().orElse(null);
    if (fact == null) {
      // (a) Never staked: nothing of the collateral moved, nothing was recorded.
      assertThat(byKind.keySet())
          .as("%s: unstaked, yet the collateral moved", ctx)
          .doesNotContain(
              Transfer.Kind.DEPOSIT,
              Transfer.Kind.STAKE,
              Transfer.Kind.SLASH,
              Transfer.Kind.RETURN);
      assertThat(staked + slashed + returned).as("%s: collateral events", ctx).isZero();
      assertThat(a.facts().deliverable()).as("%s: delivered without a stake", ctx).isEmpty();
      count("not staked");
      return;
    }
    // (a) Staked once, of the terms' amount, and settled exactly once.
    assertThat(staked).as("%s: collateral_staked events", ctx).isEqualTo(1);
    assertThat(slashed + returned).as("%s: one outcome event, never both", ctx).isEqualTo(1);
    assertThat(amount(byKind, Transfer.Kind.DEPOSIT))
        .as(ctx)
        .isEqualByComparingTo(p.stake.amount());
    assertThat(amount(byKind, Transfer.Kind.STAKE)).as(ctx).isEqualByComparingTo(p.stake.amount());
    assertThat(fact.status()).as("%s: settled", ctx).isNotEqualTo(CollateralStatus.HELD);
    BigDecimal slash = amount(byKind, Transfer.Kind.SLASH);
    BigDecimal back = amount(byKind, Transfer.Kind.RETURN);
    assertThat(slash.add(back))
        .as("%s: slash + return == stake", ctx)
        .isEqualByComparingTo(p.stake.amount());
    assertThat(new BigDecimal(fact.slashed())).as(ctx).isEqualByComparingTo(slash);
    assertThat(new BigDecimal(fact.returned())).as(ctx).isEqualByComparingTo(back);
    assertThat(balance(ledger, collateralAccount).signum())
        .as("%s: collateral account", ctx)
        .isZero();
    if (slash.signum() > 0) {
      assertEntry(byKind, Transfer.Kind.SLASH, collateralAccount, CLIENT_ACCOUNT, ctx);
    }
    if (back.signum() > 0) {
      assertEntry(byKind, Transfer.Kind.RETURN, collateralAccount, PROVIDER_ACCOUNT, ctx);
    }
    assertEntry(byKind, Transfer.Kind.STAKE, PROVIDER_ACCOUNT, collateralAccount, ctx);
    // (c) The stake came before any delivery.
    a.facts()
        .deliveredAt()
        .ifPresent(at ->
            assertThat(fact.stakedAt())
                .as("%s: staked before delivery", ctx)
                .isBeforeOrEqualTo(at));

    // (b) The outcome the ending calls for, worked out from the plan.
    SettlementFact settlement = a.facts().settlement().orElseThrow();
    Escrow.SlashEvent expected =
        expectedTrigger(p, settlement, a.facts().verification().orElse(null));
    if (expected == null) {
      assertThat(fact.status())
          .as("%s: ended by %s", ctx, settlement.reason())
          .isEqualTo(CollateralStatus.RETURNED);
      assertThat(fact.trigger()).as(ctx).isNull();
      assertThat(slash.signum()).as(ctx).isZero();
      assertThat(returned).as(ctx).isEqualTo(1);
      count("returned");
    } else {
      assertThat(fact.status())
          .as("%s: ended by %s", ctx, settlement.reason())
          .isEqualTo(CollateralStatus.SLASHED);
      assertThat(fact.trigger()).as(ctx).isEqualTo(expected.wireName());
      BigDecimal percent = p.slashPercent == null ? HUNDRED : p.slashPercent;
      BigDecimal share =
          p.stake
              .amount()
              .multiply(percent)
              .divide(HUNDRED, p.stake.currency().decimals(), RoundingMode.DOWN);
      assertThat(slash).as("%s: the slashed share", ctx).isEqualByComparingTo(share);
      assertThat(slashed).as(ctx).isEqualTo(1);
      count("slashed:" + expected.wireName());
    }
  }

  /** Which slash event, if any, the terms name for how this agreement ended. */
  private static Escrow.SlashEvent expectedTrigger(
      Plan p, SettlementFact settlement, VerificationFact verdict) {
    boolean failedBelow =
        verdict != null
            && "FAIL".equals(verdict.result())
            && verdict.composite().compareTo(THRESHOLD) < 0;
    Escrow.SlashEvent event =
        switch (settlement.reason()) {
          case "verification_result" -> failedBelow ? Escrow.SlashEvent.VERIFICATION_FAILURE : null;
          case "ruling" -> {
            BigDecimal reference = verdict == null ? HUNDRED : verdict.releasePercent();
            int cmp = settlement.releasePercent().compareTo(reference);
            if (cmp < 0 && p.slashesOn(Escrow.SlashEvent.DISPUTE_LOST)) {
              yield Escrow.SlashEvent.DISPUTE_LOST;
            }
            yield failedBelow && cmp <= 0 ? Escrow.SlashEvent.VERIFICATION_FAILURE : null;
          }
          case "provider_delivery_timeout" -> Escrow.SlashEvent.PROVIDER_TIMEOUT;
          default -> null; // the client's funding deadline, expires_at, an evaluator's deadline
        };
    return event != null && p.slashesOn(event) ? event : null;
  }

  private synchronized void count(String outcome) {
    outcomes.merge(outcome, 1, Integer::sum);
  }

  private static BigDecimal amount(
      Map<Transfer.Kind, List<LedgerEntry>> byKind, Transfer.Kind kind) {
    List<LedgerEntry> legs = byKind.get(kind);
    return legs == null ? BigDecimal.ZERO : legs.get(0).amount().amount();
  }

  private static void assertEntry(
      Map<Transfer.Kind, List<LedgerEntry>> byKind,
      Transfer.Kind kind,
      String from,
      String to,
      String ctx) {
    List<LedgerEntry> legs = byKind.get(kind);
    assertThat(legs).as("%s: a %s", ctx, kind).isNotNull();
    LedgerEntry debit =
        legs.stream()
            .filter(e -> e.direction() == LedgerEntry.Direction.DEBIT)
            .findFirst()
            .orElseThrow();
    LedgerEntry credit =
        legs.stream()
            .filter(e -> e.direction() == LedgerEntry.Direction.CREDIT)
            .findFirst()
            .orElseThrow();
    assertThat(debit.account()).as("%s: %s from", ctx, kind).isEqualTo(from);
    assertThat(credit.account()).as("%s: %s to", ctx, kind).isEqualTo(to);
    assertThat(debit.amount()).as("%s: %s legs", ctx, kind).isEqualTo(credit.amount());
  }

  private static BigDecimal balance(List<LedgerEntry> entries, String account) {
    return entries.stream()
        .filter(e -> e.account().equals(account))
        .map(LedgerEntry::signedAmount)
        .reduce(BigDecimal.ZERO, BigDecimal::add)
        .stripTrailingZeros();
  }

  /** (d) Each currency's ledger sums to zero; the parties' accounts never go below zero. */
  private void checkLedger() {
    Map<String, BigDecimal> sums = new TreeMap<>();
    for (Plan p : plans) {
      for (LedgerEntry e : store.ledger().entriesOfAgreement(p.id)) {
        sums.merge(e.amount().currency().code(), e.signedAmount(), BigDecimal::add);
      }
    }
    sums.forEach(
        (code, sum) -> assertThat(sum.signum()).as("the %s ledger (seed %d)", code, seed).isZero());
    for (String account : List.of(CLIENT_ACCOUNT, PROVIDER_ACCOUNT)) {
      Map<String, BigDecimal> balances = new TreeMap<>();
      for (LedgerEntry e : store.ledger().entriesOfAccount(account, Integer.MAX_VALUE)) {
        balances.merge(e.amount().currency().code(), e.signedAmount(), BigDecimal::add);
      }
      balances.forEach((code, b) ->
          assertThat(b.signum()).as("%s in %s (seed %d)", account, code, seed).isNotNegative());
    }
  }
}
