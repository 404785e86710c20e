package dev.asa.negotiation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.document.AgreementDrafts;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A seeded simulation of thousands of negotiations between a greedy and a conciliatory scripted
 * agent over the price and (in about half of them) the composite threshold, driven through {@link
 * Negotiator#apply} with structured messages. Every step is checked against the rules of whitepaper
 * section 7.3 independently of the Negotiator; the figures at the end are a report, not assertions.
 * Reproduce a run with {@code -Dasa.seed=<seed>}.
 */
class NegotiationSimulationTest {
  static final NegotiationPolicy P = NegotiationPolicy.DEFAULTS;
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  static final int NEGOTIATIONS = 3000;
  static final BigDecimal ONE_CENT = new BigDecimal("0.01");

  // ---------------------------------------------------------------------------------------------
  // Scripted agents
  // ---------------------------------------------------------------------------------------------

  /** What an agent sees when it is its turn. Offers are the prices each side last proposed. */
  record View(
      int round,
      BigDecimal price,
      BigDecimal threshold,
      BigDecimal myLastPrice,
      BigDecimal myLastThreshold,
      BigDecimal otherLastPrice,
      BigDecimal otherLastThreshold) {}

  sealed interface Move {}

  record Counter(BigDecimal price, BigDecimal threshold, boolean clipped) implements Move {}

  record Accept() implements Move {}

  record Reject() implements Move {}

  abstract static class Agent {
    final Role role;

    /** +1: a higher price is better for this agent (provider); -1: lower is better (client). */
    final int dir;

    /** Provider: the lowest price it will take; client: the highest it will pay. */
    final BigDecimal reservation;

    final boolean deadlineAware;
    final boolean quality;
    final boolean greedy;

    Agent(
        Role role, BigDecimal reservation, boolean deadlineAware, boolean quality, boolean greedy) {
      this.role = role;
      this.dir = role == Role.PROVIDER ? 1 : -1;
      this.reservation = reservation;
      this.deadlineAware = deadlineAware;
      this.quality = quality;
      this.greedy = greedy;
    }

    /** Whether a price is on the right side of the reservation value. */
    boolean acceptable(BigDecimal price) {
      return BigDecimal.valueOf(dir).multiply(price.subtract(reservation)).signum() >= 0;
    }

    /** At least as good for this agent as {@code other}. */
    boolean atLeastAsGood(BigDecimal price, BigDecimal other) {
      return BigDecimal.valueOf(dir).multiply(price.subtract(other)).signum() >= 0;
    }

    /** Never offer worse than the reservation value. */
    BigDecimal boundedByReservation(BigDecimal desired) {
      return atLeastAsGood(desired, reservation) ? desired : reservation;
    }

    abstract BigDecimal desiredPrice(View v);

    abstract BigDecimal desiredThreshold(View v);

    Move decide(View v) {
      BigDecimal desired = boundedByReservation(desiredPrice(v));
      if (v.otherLastPrice() != null && acceptable(v.price())) {
        if (atLeastAsGood(v.price(), desired) || acceptsGap(v)) {
          return new Accept();
        }
      }
      if (deadlineAware && v.round() == P.maxRounds()) {
        // The last round this negotiation allows: a counter could never be answered.
        return acceptable(v.price()) && v.otherLastPrice() != null ? new Accept() : new Reject();
      }
      BigDecimal price = clip(desired, v.price(), 2, ONE_CENT, null);
      boolean clipped = price.compareTo(desired.setScale(2, RoundingMode.HALF_EVEN)) != 0;
      BigDecimal threshold = null;
      if (quality) {
        BigDecimal dt = desiredThreshold(v);
        threshold = clip(dt, v.threshold(), 1, BigDecimal.ONE, BigDecimal.valueOf(100));
        clipped |= threshold.compareTo(dt.setScale(1, RoundingMode.HALF_EVEN)) != 0;
      }
      return new Counter(price, threshold, clipped);
    }

    boolean acceptsGap(View v) {
      return false;
    }
  }

  /** Anchors at the extreme the 25% rule allows, concedes a few percent of the gap per round. */
  static final class Greedy extends Agent {
    final double concession;

    Greedy(
        Role role,
        BigDecimal reservation,
        boolean deadlineAware,
        boolean quality,
        double concession) {
      super(role, reservation, deadlineAware, quality, true);
      this.concession = concession;
    }

    @Override
    BigDecimal desiredPrice(View v) {
      if (v.myLastPrice() == null) {
        return v.price()
            .multiply(BigDecimal.ONE.add(BigDecimal.valueOf(dir).multiply(P.maxShift())));
      }
      // Concede little from its own last position; the clip then makes it ask the most allowed.
      return v.myLastPrice()
          .add(
              v.otherLastPrice()
                  .subtract(v.myLastPrice())
                  .multiply(BigDecimal.valueOf(concession)));
    }

    @Override
    BigDecimal desiredThreshold(View v) {
      // The provider wants a lower threshold, the client a higher one: always as far as allowed.
      return v.threshold()
          .multiply(BigDecimal.ONE.subtract(BigDecimal.valueOf(dir).multiply(P.maxShift())));
    }
  }

  /** Moves towards the other's last offer by a fixed fraction; accepts when the gap is small. */
  static final class Conciliatory extends Agent {
    final double fraction;
    final double acceptGap;
    final BigDecimal ideal;
    final BigDecimal idealThreshold;

    Conciliatory(
        Role role,
        BigDecimal reservation,
        boolean deadlineAware,
        boolean quality,
        double fraction,
        double acceptGap,
        BigDecimal ideal,
        BigDecimal idealThreshold) {
      super(role, reservation, deadlineAware, quality, false);
      this.fraction = fraction;
      this.acceptGap = acceptGap;
      this.ideal = ideal;
      this.idealThreshold = idealThreshold;
    }

    @Override
    BigDecimal desiredPrice(View v) {
      if (v.myLastPrice() == null) {
        return ideal;
      }
      return v.myLastPrice()
          .add(v.otherLastPrice().subtract(v.myLastPrice()).multiply(BigDecimal.valueOf(fraction)));
    }

    @Override
    BigDecimal desiredThreshold(View v) {
      if (v.myLastThreshold() == null || v.otherLastThreshold() == null) {
        return idealThreshold;
      }
      return v.myLastThreshold()
          .add(
              v.otherLastThreshold()
                  .subtract(v.myLastThreshold())
                  .multiply(BigDecimal.valueOf(fraction)));
    }

    @Override
    boolean acceptsGap(View v) {
      if (v.myLastPrice() == null) {
        return false;
      }
      BigDecimal gap = v.price().subtract(v.myLastPrice()).abs();
      return gap.compareTo(v.myLastPrice().abs().multiply(BigDecimal.valueOf(acceptGap))) <= 0;
    }
  }

  /**
   * The allowed range [current x 0.75, current x 1.25] learnt from the current value (rounded
   * inwards to the term's scale), intersected with the term's own bounds; the desired value clamped
   * into it.
   */
  static BigDecimal clip(
      BigDecimal desired, BigDecimal current, int scale, BigDecimal min, BigDecimal max) {
    BigDecimal slack = current.abs().multiply(P.maxShift());
    BigDecimal low = current.subtract(slack).setScale(scale, RoundingMode.CEILING);
    BigDecimal high = current.add(slack).setScale(scale, RoundingMode.FLOOR);
    if (min != null && low.compareTo(min) < 0) {
      low = min.setScale(scale, RoundingMode.CEILING);
    }
    if (max != null && high.compareTo(max) > 0) {
      high = max.setScale(scale, RoundingMode.FLOOR);
    }
    BigDecimal d = desired.setScale(scale, RoundingMode.HALF_EVEN);
    if (d.compareTo(low) < 0) {
      return low;
    }
    if (d.compareTo(high) > 0) {
      return high;
    }
    return d;
  }

  // ---------------------------------------------------------------------------------------------
  // One negotiation
  // ---------------------------------------------------------------------------------------------

  enum End {
    ACCEPTED,
    REJECTED_BY_AGENT,
    REJECTED_ROUND_LIMIT
  }

  record Result(
      End end,
      boolean greedyIsProvider,
      BigDecimal openingA,
      BigDecimal openingB,
      BigDecimal finalPrice,
      boolean flagged,
      boolean medianKnown,
      int rounds,
      boolean acceptedByGreedy,
      int clippedMoves,
      int moves,
      int probes) {}

  static final class Sim {
    final long seed;
    final int index;
    final Random r;

    Sim(long seed, int index) {
      this.seed = seed;
      this.index = index;
      this.r = new Random(seed);
    }

    void check(boolean ok, String what, Object... args) {
      if (!ok) {
        throw new AssertionError(
            "negotiation #"
                + index
                + " (seed "
                + seed
                + "): "
                + String.format(Locale.ROOT, what, args));
      }
    }

    double uniform(double lo, double hi) {
      return lo + (hi - lo) * r.nextDouble();
    }

    double logUniform(double lo, double hi) {
      return Math.exp(uniform(Math.log(lo), Math.log(hi)));
    }

    BigDecimal money(double d) {
      return BigDecimal.valueOf(d).setScale(2, RoundingMode.HALF_EVEN);
    }

    Result run() {
      boolean greedyIsProvider = r.nextBoolean();
      boolean quality = r.nextBoolean();
      BigDecimal start = money(logUniform(5, 500));
      double value = start.doubleValue() * uniform(0.7, 1.3);
      BigDecimal providerReservation = money(value * uniform(0.6, 1.1));
      BigDecimal clientReservation = money(value * uniform(0.9, 1.5));
      Optional<MarketMedian> median =
          r.nextDouble() < 0.2
              ? Optional.empty()
              : Optional.of(
                  new MarketMedian(
                      money(value * logUniform(0.25, 2.5)),
                      r.nextBoolean() ? "arp_market_data" : MarketMedian.CLOSED_AGREEMENTS));
      BigDecimal threshold0 = BigDecimal.valueOf(50 + r.nextInt(41));

      Agent provider;
      Agent client;
      if (greedyIsProvider) {
        provider =
            new Greedy(
                Role.PROVIDER, providerReservation, r.nextBoolean(), quality, uniform(0, 0.06));
        client = conciliatory(Role.CLIENT, clientReservation, quality, threshold0);
      } else {
        client =
            new Greedy(Role.CLIENT, clientReservation, r.nextBoolean(), quality, uniform(0, 0.06));
        provider = conciliatory(Role.PROVIDER, providerReservation, quality, threshold0);
      }
      Role first = r.nextBoolean() ? Role.PROVIDER : Role.CLIENT;
      int probeRound = r.nextDouble() < 0.1 ? 1 + r.nextInt(P.maxRounds()) : -1;

      ObjectNode draft = Fixtures.general();
      draft
          .withObjectProperty("escrow")
          .withObjectProperty("payment")
          .put("amount", start.toPlainString());
      draft.putObject("template_overrides").put("composite_threshold", threshold0.intValue());
      Agreement agreement = AgreementDrafts.propose(draft, T0, () -> "asa-sim-" + index);
      check(agreement.state() == State.PROPOSED, "draft is %s", agreement.state());

      Optional<NegotiationState> state = Optional.empty();
      Instant now = T0;
      Role turn = first;
      List<Role> senders = new ArrayList<>();
      BigDecimal[] lastPrice = new BigDecimal[2];
      BigDecimal[] lastThreshold = new BigDecimal[2];
      BigDecimal[] opening = new BigDecimal[2];
      int clipped = 0;
      int moves = 0;
      int probes = 0;

      for (int round = 1; ; round++) {
        now = now.plusSeconds(30 + r.nextInt(300));
        Agent me = turn == Role.PROVIDER ? provider : client;
        int mi = turn == Role.PROVIDER ? 0 : 1;
        int oi = 1 - mi;
        BigDecimal price = new BigDecimal(agreement.toJson().at("/escrow/payment/amount").asText());
        BigDecimal threshold =
            agreement.toJson().at("/quality_criteria/composite_threshold").decimalValue();

        if (round == probeRound) {
          probe(agreement, state, round, turn, price, median, now);
          probes++;
        }

        View view =
            new View(
                round,
                price,
                threshold,
                lastPrice[mi],
                lastThreshold[mi],
                lastPrice[oi],
                lastThreshold[oi]);
        Move move = me.decide(view);
        ObjectNode body = Json.object();
        state.ifPresent(s -> body.put("negotiation_id", s.negotiationId()));
        body.put("round", round);
        body.put("party", turn.wireName());
        switch (move) {
          case Counter c -> {
            body.put("action", round == 1 ? "propose" : "counter");
            body.put("rationale_code", rationale(me, c, price, threshold).wireName());
            ObjectNode pc = body.putObject("proposed_changes");
            pc.put("escrow.payment.amount", c.price().toPlainString());
            if (c.threshold() != null) {
              pc.put("quality_criteria.composite_threshold", c.threshold());
            }
          }
          case Accept a -> {
            body.put("action", "accept");
            body.put("rationale_code", RationaleCode.ACCEPT_AS_PROPOSED.wireName());
          }
          case Reject x -> {
            body.put("action", "reject");
            body.put("rationale_code", RationaleCode.NO_AGREEMENT_POSSIBLE.wireName());
          }
        }
        NegotiationMessage msg = NegotiationMessage.parse(body);

        Negotiator.Outcome outcome;
        try {
          final int roundNo = round;
          outcome =
              Negotiator.apply(
                  agreement,
                  state,
                  msg,
                  turn,
                  median,
                  P,
                  now,
                  () -> "neg-" + index + "-" + roundNo);
        } catch (NegotiationRefusedException | InvalidDocumentException e) {
          throw new AssertionError(
              "negotiation #"
                  + index
                  + " (seed "
                  + seed
                  + "): a well-formed message was refused: "
                  + body
                  + " -> "
                  + e.getMessage(),
              e);
        }

        if (round > P.maxRounds()) {
          check(
              outcome instanceof Negotiator.Rejected,
              "round %d exceeds the limit but ended %s",
              round,
              outcome);
          Negotiator.Rejected rej = (Negotiator.Rejected) outcome;
          check(rej.next().ended(), "round-limit rejection is not marked ended");
          check(
              rej.reason().contains("exceeds"),
              "round-limit rejection does not say so: %s",
              rej.reason());
          checkAlternation(senders, turn);
          return new Result(
              End.REJECTED_ROUND_LIMIT,
              greedyIsProvider,
              opening[0],
              opening[1],
              null,
              false,
              median.isPresent(),
              round,
              false,
              clipped,
              moves,
              probes);
        }

        switch (outcome) {
          case Negotiator.Changed c -> {
            check(move instanceof Counter, "a %s produced a change", move);
            Counter counter = (Counter) move;
            moves++;
            if (counter.clipped()) {
              clipped++;
            }
            ObjectNode before = agreement.toJson();
            ObjectNode after = c.newDocument();
            Agreement next = AgreementDocuments.read(after);
            check(
                next.state() == State.NEGOTIATING,
                "after a counter the agreement is %s",
                next.state());
            checkAsymmetry(before, after);
            BigDecimal newPrice = new BigDecimal(after.at("/escrow/payment/amount").asText());
            check(
                newPrice.compareTo(counter.price()) == 0,
                "price %s applied as %s",
                counter.price(),
                newPrice);
            if (counter.threshold() != null) {
              check(
                  after
                          .at("/quality_criteria/composite_threshold")
                          .decimalValue()
                          .compareTo(counter.threshold())
                      == 0,
                  "threshold %s not applied",
                  counter.threshold());
            }
            checkFlag(c.flag(), newPrice, median);
            check(
                !after.has("metadata"),
                "the changed document carries server facts: %s",
                after.path("metadata"));
            NegotiationState stored = c.next();
            check(
                java.util.Objects.equals(stored.priceFlag(), c.flag()),
                "stored flag %s differs from %s",
                stored.priceFlag(),
                c.flag());
            check(
                stored.round() == round && stored.lastParty() == turn,
                "state round/party %s",
                stored);
            check(
                !after.has("signatures") || after.get("signatures").isEmpty(),
                "signatures survived a change");
            checkAlternation(senders, turn);
            senders.add(turn);
            lastPrice[mi] = newPrice;
            lastThreshold[mi] = after.at("/quality_criteria/composite_threshold").decimalValue();
            if (opening[mi] == null) {
              opening[mi] = newPrice;
            }
            agreement = next;
            state = Optional.of(c.next());
          }
          case Negotiator.Accepted a -> {
            check(move instanceof Accept, "a %s produced an acceptance", move);
            check(round <= P.maxRounds(), "accepted in round %d", round);
            check(
                a.next().round() == round && a.next().lastParty() == turn,
                "accepted state %s",
                a.next());
            check(
                a.next().acceptedHash().equals(agreement.hash().toString()),
                "accepted hash is not the current terms");
            checkAlternation(senders, turn);
            senders.add(turn);
            // The accepted document: it validates, and every step to it obeyed the rules (checked
            // above).
            Agreement fin = AgreementDocuments.read(agreement.toJson());
            BigDecimal finalPrice =
                new BigDecimal(fin.toJson().at("/escrow/payment/amount").asText());
            check(
                fin.hash().equals(agreement.hash()),
                "re-read accepted document hashes differently");
            checkFlag(a.next().priceFlag(), finalPrice, median);
            check(
                java.util.Objects.equals(
                    a.next().priceFlag(), state.map(NegotiationState::priceFlag).orElse(null)),
                "accepted price_flag %s vs the last state's %s",
                a.next().priceFlag(),
                state.map(NegotiationState::priceFlag).orElse(null));
            return new Result(
                End.ACCEPTED,
                greedyIsProvider,
                opening[0],
                opening[1],
                finalPrice,
                a.next().priceFlag() != null,
                median.isPresent(),
                round,
                me.greedy,
                clipped,
                moves,
                probes);
          }
          case Negotiator.Rejected x -> {
            check(
                move instanceof Reject,
                "a %s in round %d was rejected: %s",
                move,
                round,
                x.reason());
            check(x.next().ended(), "reject does not end the negotiation");
            checkAlternation(senders, turn);
            // Nothing further is taken once a negotiation has ended.
            try {
              ObjectNode late = Json.object();
              late.put("negotiation_id", x.next().negotiationId());
              late.put("round", round + 1);
              late.put("action", "accept");
              late.put("rationale_code", "accept_as_proposed");
              Negotiator.apply(
                  agreement,
                  Optional.of(x.next()),
                  NegotiationMessage.parse(late),
                  turn.counterparty(),
                  median,
                  P,
                  now,
                  () -> "x");
              check(false, "a message after the end was taken");
            } catch (NegotiationRefusedException expected) {
              // refused as it should be
            }
            return new Result(
                End.REJECTED_BY_AGENT,
                greedyIsProvider,
                opening[0],
                opening[1],
                null,
                false,
                median.isPresent(),
                round,
                false,
                clipped,
                moves,
                probes);
          }
        }
        turn = turn.counterparty();
      }
    }

    Agent conciliatory(Role role, BigDecimal reservation, boolean quality, BigDecimal threshold0) {
      int dir = role == Role.PROVIDER ? 1 : -1;
      // Opens somewhat better than its reservation value, from where it concedes.
      BigDecimal ideal = money(reservation.doubleValue() * (1 + dir * uniform(0.05, 0.35)));
      BigDecimal idealThreshold =
          BigDecimal.valueOf(threshold0.doubleValue() * (1 - dir * uniform(0.0, 0.15)))
              .min(BigDecimal.valueOf(100));
      return new Conciliatory(
          role,
          reservation,
          r.nextDouble() < 0.7,
          quality,
          uniform(0.25, 0.6),
          uniform(0.02, 0.08),
          ideal,
          idealThreshold);
    }

    RationaleCode rationale(Agent me, Counter c, BigDecimal price, BigDecimal threshold) {
      if (c.threshold() != null && c.threshold().compareTo(threshold) != 0 && r.nextInt(3) == 0) {
        return RationaleCode.QUALITY_REQUIREMENT_CHANGE;
      }
      if (me.role == Role.CLIENT) {
        return r.nextBoolean() ? RationaleCode.BUDGET_LIMIT : RationaleCode.MARKET_RATE_ALIGNMENT;
      }
      return r.nextBoolean()
          ? RationaleCode.RESOURCE_CONSTRAINTS
          : RationaleCode.EXTENDED_TIMELINE_FOR_HIGHER_QUALITY;
    }

    /** A deliberately invalid message: it must be refused, and nothing may change. */
    void probe(
        Agreement agreement,
        Optional<NegotiationState> state,
        int round,
        Role turn,
        BigDecimal price,
        Optional<MarketMedian> median,
        Instant now) {
      int kind = state.isEmpty() ? 0 : r.nextInt(3);
      ObjectNode body = Json.object();
      state.ifPresent(s -> body.put("negotiation_id", s.negotiationId()));
      body.put("round", kind == 1 ? round + 1 : round);
      body.put("action", round == 1 ? "propose" : "counter");
      body.put("rationale_code", "market_rate_alignment");
      BigDecimal slack = price.multiply(P.maxShift());
      BigDecimal beyond =
          r.nextBoolean()
              ? price.add(slack).setScale(2, RoundingMode.FLOOR).add(ONE_CENT)
              : price.subtract(slack).setScale(2, RoundingMode.CEILING).subtract(ONE_CENT);
      body.putObject("proposed_changes")
          .put("escrow.payment.amount", kind == 0 ? beyond.toPlainString() : price.toPlainString());
      Role sender = kind == 2 ? turn.counterparty() : turn;
      String before = agreement.toJson().toString();
      try {
        Negotiator.apply(
            agreement,
            state,
            NegotiationMessage.parse(body),
            sender,
            median,
            P,
            now,
            () -> "probe");
        check(false, "deliberately invalid message (kind %d) was taken: %s", kind, body);
      } catch (NegotiationRefusedException expected) {
        if (kind == 0) {
          check(
              expected.getMessage().contains("escrow.payment.amount")
                  && expected.getMessage().contains("allowed range"),
              "refusal does not name the field and range: %s",
              expected.getMessage());
        }
      }
      check(
          agreement.toJson().toString().equals(before), "a refused message changed the agreement");
    }

    /**
     * Independently of the Negotiator: every numeric term moved by at most 25% of its previous
     * value.
     */
    void checkAsymmetry(ObjectNode before, ObjectNode after) {
      int dims = before.at("/quality_criteria/dimensions").size();
      for (TermPath p : TermPath.all(dims)) {
        if (!(p instanceof TermPath.Numeric n)) {
          check(p.read(before).equals(p.read(after)), "%s changed", p.path());
          continue;
        }
        JsonNode b = p.read(before);
        JsonNode a = p.read(after);
        if (b.isMissingNode() || a.isMissingNode()) {
          check(b.isMissingNode() && a.isMissingNode(), "%s appeared or vanished", p.path());
          continue;
        }
        BigDecimal prev = n.numeric(b);
        BigDecimal cur = n.numeric(a);
        BigDecimal limit = prev.abs().multiply(P.maxShift());
        check(
            cur.subtract(prev).abs().compareTo(limit) <= 0,
            "%s moved %s -> %s, more than 25%%",
            p.path(),
            prev,
            cur);
      }
    }

    /**
     * With a known median the price is flagged exactly when outside [0.5x, 3.0x]; without one
     * never.
     */
    void checkFlag(PriceFlag flag, BigDecimal price, Optional<MarketMedian> median) {
      if (median.isEmpty()) {
        check(flag == null, "flagged %s without a market median", flag);
        return;
      }
      BigDecimal m = median.get().median();
      boolean outside =
          price.compareTo(m.multiply(new BigDecimal("0.5"))) < 0
              || price.compareTo(m.multiply(new BigDecimal("3.0"))) > 0;
      check(
          (flag != null) == outside,
          "price %s, median %s: outside=%s but flag=%s",
          price,
          m,
          outside,
          flag);
      if (flag != null) {
        check(
            flag.amount().compareTo(price) == 0
                && flag.median().compareTo(m) == 0
                && flag.source().equals(median.get().source()),
            "flag %s does not describe price %s / median %s",
            flag,
            price,
            m);
      }
    }

    void checkAlternation(List<Role> senders, Role turn) {
      check(
          senders.isEmpty() || senders.get(senders.size() - 1) != turn,
          "%s sent twice in a row",
          turn);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The run and the report
  // ---------------------------------------------------------------------------------------------

  @Test
  void thousandsOfRandomNegotiationsNeverBreakARule() {
    String property = System.getProperty("asa.seed");
    long seed =
        property != null && !property.isBlank()
            ? Long.parseLong(property.trim())
            : System.nanoTime();
    System.out.println(
        "NegotiationSimulationTest seed=" + seed + " (rerun with -Dasa.seed=" + seed + ")");
    Random master = new Random(seed);
    long started = System.nanoTime();
    List<Result> results = new ArrayList<>();
    for (int i = 0; i < NEGOTIATIONS; i++) {
      results.add(new Sim(master.nextLong(), i).run());
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    System.out.println(report(seed, results, millis));
  }

  static String report(long seed, List<Result> results, long millis) {
    long accepted = results.stream().filter(x -> x.end() == End.ACCEPTED).count();
    long byAgent = results.stream().filter(x -> x.end() == End.REJECTED_BY_AGENT).count();
    long byLimit = results.stream().filter(x -> x.end() == End.REJECTED_ROUND_LIMIT).count();
    long acceptedByGreedy =
        results.stream().filter(x -> x.end() == End.ACCEPTED && x.acceptedByGreedy()).count();
    long flagged = results.stream().filter(x -> x.end() == End.ACCEPTED && x.flagged()).count();
    long acceptedWithMedian =
        results.stream().filter(x -> x.end() == End.ACCEPTED && x.medianKnown()).count();
    long moves = results.stream().mapToLong(Result::moves).sum();
    long clipped = results.stream().mapToLong(Result::clippedMoves).sum();
    long probes = results.stream().mapToLong(Result::probes).sum();
    double meanRounds =
        results.stream()
            .filter(x -> x.end() == End.ACCEPTED)
            .mapToInt(Result::rounds)
            .average()
            .orElse(0);

    StringBuilder b = new StringBuilder();
    b.append("NEGOTIATION SIMULATION\n");
    b.append(
        String.format(
            Locale.ROOT,
            "  seed %d, %d negotiations, %d ms; policy: max_rounds %d, max shift %s, price band %sx-%sx%n",
            seed,
            results.size(),
            millis,
            P.maxRounds(),
            P.maxShift().toPlainString(),
            P.priceBandLow(),
            P.priceBandHigh()));
    b.append(
        String.format(
            Locale.ROOT,
            "  outcomes: accepted %d (%.1f%%; %d by the greedy agent, %d by the conciliatory), mean round of acceptance %.2f%n",
            accepted,
            100.0 * accepted / results.size(),
            acceptedByGreedy,
            accepted - acceptedByGreedy,
            meanRounds));
    b.append(
        String.format(
            Locale.ROOT,
            "            rejected %d (%d by an agent's reject, %d by the round limit: 6th message)%n",
            byAgent + byLimit,
            byAgent,
            byLimit));
    b.append(
        String.format(
            Locale.ROOT,
            "  rule violations found: 0 (every step checked: 25%% limit on every numeric term, rounds <= %d, alternating turns,%n"
                + "    documents validate, price flag iff outside band; %d deliberately invalid probe messages all refused, nothing applied)%n",
            P.maxRounds(),
            probes));
    b.append(
        String.format(
            Locale.ROOT,
            "  agent moves clipped to the 25%% range: %d of %d counters (%.1f%%)%n",
            clipped,
            moves,
            moves == 0 ? 0.0 : 100.0 * clipped / moves));
    b.append(
        "  final price vs midpoint of the two opening positions, accepted deals: d = |final - midpoint| / |opening gap|;\n");
    b.append(
        "    s = the same signed, > 0 towards the greedy agent's opening (0.5 = the greedy opening itself)\n");
    distance(
        b,
        "greedy as provider",
        results.stream().filter(x -> x.end() == End.ACCEPTED && x.greedyIsProvider()).toList());
    distance(
        b,
        "greedy as client  ",
        results.stream().filter(x -> x.end() == End.ACCEPTED && !x.greedyIsProvider()).toList());
    distance(
        b, "all               ", results.stream().filter(x -> x.end() == End.ACCEPTED).toList());
    b.append(
        String.format(
            Locale.ROOT,
            "  accepted deals price-flagged: %d of %d (%.1f%%); of those with a known median: %d of %d (%.1f%%)%n",
            flagged,
            accepted,
            accepted == 0 ? 0.0 : 100.0 * flagged / accepted,
            flagged,
            acceptedWithMedian,
            acceptedWithMedian == 0 ? 0.0 : 100.0 * flagged / acceptedWithMedian));
    return b.toString();
  }

  static void distance(StringBuilder b, String label, List<Result> deals) {
    List<Double> d = new ArrayList<>();
    List<Double> s = new ArrayList<>();
    for (Result x : deals) {
      if (x.openingA() == null || x.openingB() == null) {
        continue;
      }
      double provider = x.openingA().doubleValue();
      double client = x.openingB().doubleValue();
      double gap = Math.abs(provider - client);
      if (gap == 0) {
        continue;
      }
      double mid = (provider + client) / 2;
      double fin = x.finalPrice().doubleValue();
      d.add(Math.abs(fin - mid) / gap);
      double greedyOpening = x.greedyIsProvider() ? provider : client;
      s.add((fin - mid) * Math.signum(greedyOpening - mid) / gap);
    }
    b.append(
        String.format(
            Locale.ROOT,
            "    %s n=%4d (+%d accepted before both had opened, left out)  d: mean %.3f p50 %.3f p90 %.3f max %.1f   s: mean %+.3f p50 %+.3f p90 %+.3f%n",
            label,
            d.size(),
            deals.size() - d.size(),
            mean(d),
            pct(d, 0.5),
            pct(d, 0.9),
            pct(d, 1.0),
            mean(s),
            pct(s, 0.5),
            pct(s, 0.9)));
  }

  static double mean(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** Nearest-rank percentile. */
  static double pct(List<Double> v, double p) {
    if (v.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(v);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
