package dev.asa.server.reputation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Eligibility;
import dev.asa.agreement.Identity;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.reputation.Aggregates;
import dev.asa.reputation.Outcome;
import dev.asa.reputation.Signal;
import dev.asa.reputation.SignedSignals;
import dev.asa.reputation.SubjectBinding;
import dev.asa.server.store.reputation.ReputationStore;
import dev.asa.server.store.reputation.ReputationStore.ForeignSignal;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reputation as this server publishes and uses it (whitepaper 9.2): the ARP signals an identity
 * earned here, signed by the server ({@code GET /reputation}); signals from issuers the operator
 * trusts ({@code POST /reputation/signals}, {@code --arp-trust}); and the figure this server acts
 * on, which weighs every source by its sample size.
 *
 * <p>Only figures this server computed or an issuer it trusts signed ever count: a foreign signal
 * that does not verify under a trusted key is refused whole, never stored, never combined.
 */
public final class Reputation {

  /** Signals accepted in one request. */
  static final int MAX_SIGNALS = 100;

  /** How far ahead of our clock a signal's timestamp may be (the issuer's clock may run fast). */
  static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  /** Signals that are rates or means, which combine by sample size; counts do not. */
  static final Set<String> COMBINED =
      Set.of(
          Aggregates.PASS_RATE,
          Aggregates.COMPOSITE_MEAN,
          Aggregates.ON_TIME_RATE,
          Aggregates.COMPLETION_RATE,
          Aggregates.FUNDING_RATE,
          Aggregates.DISPUTE_RATE);

  private final ReputationStore store;
  private final Ed25519PrivateKey serverKey;
  private final Set<Ed25519PublicKey> trusted;
  private final int windowDays;
  private final Clock clock;
  private final String source;

  /**
   * @param trusted the keys whose signals count ({@code --arp-trust})
   * @param windowDays how far back the aggregates look ({@code --arp-window-days})
   */
  public Reputation(
      ReputationStore store,
      Ed25519PrivateKey serverKey,
      Set<Ed25519PublicKey> trusted,
      int windowDays,
      Clock clock) {
    if (windowDays < 1) {
      throw new IllegalArgumentException("the reputation window is at least a day");
    }
    this.store = store;
    this.serverKey = serverKey;
    this.trusted = Set.copyOf(trusted);
    this.windowDays = windowDays;
    this.clock = clock;
    this.source = "asa:" + serverKey.publicKey().toBase64Url();
  }

  /** The signals this server computes for {@code subject} in {@code role}, unsigned. */
  public List<Signal> local(Identity subject, Role role) {
    Instant now = now();
    return local(subject, outcomes(subject, now), now).getOrDefault(role, List.of());
  }

  /** The newest outcomes in the window a figure rests on, at most this many. */
  static final int MAX_OUTCOMES = 10_000;

  /**
   * {@code subject}'s outcomes in the window (the newest {@link #MAX_OUTCOMES}), with its first
   * ever ahead of them when that is older: the first binds the name to a key ({@link
   * SubjectBinding}), whatever has happened since.
   */
  private List<Outcome> outcomes(Identity subject, Instant now) {
    List<Outcome> recent =
        store.outcomes(subject, now.minus(Duration.ofDays(windowDays)), MAX_OUTCOMES);
    Optional<Outcome> first = store.firstOutcome(subject);
    if (first.isEmpty() || recent.contains(first.get())) {
      return recent;
    }
    List<Outcome> out = new ArrayList<>(recent.size() + 1);
    out.add(first.get());
    out.addAll(recent);
    return out;
  }

  /** The signals of {@code subject}'s outcomes, each role's, under the key bound to it. */
  private Map<Role, List<Signal>> local(Identity subject, List<Outcome> outcomes, Instant now) {
    Optional<String> key = SubjectBinding.boundKey(subject, outcomes);
    List<Outcome> counted = SubjectBinding.counted(subject, outcomes);
    Instant since = now.minus(Duration.ofDays(windowDays));
    Map<Role, List<Signal>> out = new LinkedHashMap<>();
    for (Role role : Role.values()) {
      List<Outcome> inWindow =
          counted.stream().filter(o -> o.role() == role && !o.endedAt().isBefore(since)).toList();
      if (!inWindow.isEmpty()) {
        out.put(
            role,
            Aggregates.of(subject, key.orElseThrow(), role, inWindow, source, windowDays, now));
      }
    }
    return out;
  }

  /**
   * What this server holds of the party that signs with {@code key} under {@code subject}'s name,
   * in {@code role}, read once: its outcomes here (none when the name's record belongs to another
   * key: a stranger writing a known agent's name over its own key is a stranger with no record),
   * the signals they make, and the foreign signals about the name.
   */
  private record PartyView(
      Reputation reputation,
      String key,
      Role role,
      List<Outcome> mine,
      List<Signal> local,
      List<ForeignSignal> foreign,
      Instant now) {

    /** The combined figure of one signal ({@link #combined}). */
    Optional<Figure> figure(String signalId) {
      return reputation.combined(key, role, signalId, local, foreign, now);
    }

    /** Its outcomes in this role inside the window. */
    List<Outcome> inWindow() {
      Instant since = now.minus(Duration.ofDays(reputation.windowDays));
      return mine.stream().filter(o -> o.role() == role && !o.endedAt().isBefore(since)).toList();
    }
  }

  private PartyView view(Identity subject, String key, Role role) {
    Instant now = now();
    List<Outcome> outcomes = outcomes(subject, now);
    boolean ours = SubjectBinding.boundKey(subject, outcomes).map(key::equals).orElse(false);
    List<Outcome> mine =
        ours ? outcomes.stream().filter(o -> o.partyKey().equals(key)).toList() : List.of();
    List<Signal> local =
        ours ? local(subject, outcomes, now).getOrDefault(role, List.of()) : List.of();
    return new PartyView(this, key, role, mine, local, store.signals(subject), now);
  }

  private PartyView view(Party party) {
    return view(party.identity(), party.verificationKey().toBase64Url(), party.role());
  }

  /**
   * {@code party}'s record here in its role, as {@code eligibility} reads it: only what it earned
   * under the key it signs with counts (a name whose record belongs to another key is a newcomer).
   */
  public Eligibility.PartyRecord recordOf(Party party) {
    PartyView view = view(party);
    long completed = view.inWindow().stream().filter(Outcome::delivered).count();
    Optional<Instant> firstSeen =
        view.mine().stream().map(Outcome::endedAt).min(Instant::compareTo);
    return new Eligibility.PartyRecord(
        completed,
        firstSeen,
        signal -> view.figure(signal).map(f -> new Eligibility.Figure(f.value(), f.sampleSize())),
        Optional.empty());
  }

  /**
   * How many agreements of {@code provider}'s reached ARP here inside the window, under the key it
   * signs with (none when its name's record belongs to another key): what its price weighs in the
   * market median.
   */
  public long agreementsOf(Party provider) {
    return view(provider).inWindow().size();
  }

  /**
   * {@code GET /reputation}: the signals, each signed; the foreign signals kept; the combined
   * figures; who issued them. An identity with no history has an empty list.
   */
  public ObjectNode describe(Identity subject) {
    Instant now = now();
    ObjectNode out = Json.object();
    out.putObject("identity").put("scheme", subject.scheme()).put("value", subject.value());
    List<Outcome> outcomes = outcomes(subject, now());
    Optional<String> key = SubjectBinding.boundKey(subject, outcomes);
    key.ifPresent(k -> out.put("verification_key", k));
    ArrayNode signals = out.putArray("signals");
    Map<Role, List<Signal>> local = local(subject, outcomes, now);
    local
        .values()
        .forEach(list -> list.forEach(s -> signals.add(SignedSignals.sign(s, serverKey))));
    List<ForeignSignal> foreign = store.signals(subject);
    ArrayNode foreignOut = out.putArray("foreign_signals");
    foreign.forEach(f -> foreignOut.add(Json.parseTrusted(f.body())));
    // What this server acts on, for the key the identity's record belongs to here.
    ArrayNode combined = out.putArray("combined");
    if (key.isPresent()) {
      for (Role role : Role.values()) {
        for (String id : COMBINED) {
          combined(key.get(), role, id, local.getOrDefault(role, List.of()), foreign, now)
              .ifPresent(c -> combined.add(c.toJson()));
        }
      }
    }
    ObjectNode issuer = out.putObject("issuer");
    issuer.put("source", source);
    issuer.put("key", serverKey.publicKey().toBase64Url());
    issuer.put("method", SignedSignals.METHOD);
    out.put("window", windowDays + "d");
    out.put("computed_at", now.toString());
    return out;
  }

  /**
   * A figure as this server uses it: its own and every trusted issuer's, weighted by sample size.
   *
   * @param sources {@code local} and the keys of the foreign issuers it rests on
   */
  public record Figure(
      Role role, String signalId, BigDecimal value, long sampleSize, List<String> sources) {
    public ObjectNode toJson() {
      ObjectNode o = Json.object();
      o.put("role", role.wireName());
      o.put("signal_id", signalId);
      o.put("value", Signal.plain(value));
      o.put("sample_size", sampleSize);
      ArrayNode s = o.putArray("sources");
      sources.forEach(s::add);
      return o;
    }
  }

  /**
   * The combined figure of one signal of the party that signs with {@code key} under {@code
   * subject}'s name, if any source has it. This server's own figures count only when {@code key} is
   * the key the identity's record belongs to here; a foreign signal only when it names that key
   * ({@code subject.key}). So a stranger who writes a known agent's name over its own key is a
   * stranger with no record.
   */
  public Optional<Figure> figure(Identity subject, String key, Role role, String signalId) {
    return view(subject, key, role).figure(signalId);
  }

  /**
   * What one party of an agreement looks like to the other while they negotiate: its combined
   * figures in its role, under the key it signs with (none when its name's record here belongs to
   * another key).
   */
  public ObjectNode summary(Party party) {
    PartyView view = view(party);
    ObjectNode out = Json.object();
    Identity subject = party.identity();
    out.putObject("identity").put("scheme", subject.scheme()).put("value", subject.value());
    out.put("key", view.key());
    out.put("role", view.role().wireName());
    ArrayNode figures = out.putArray("figures");
    for (String id : COMBINED) {
      view.figure(id).ifPresent(f -> figures.add(f.toJson()));
    }
    if (figures.isEmpty()) {
      out.put("note", "no record here under this key");
    }
    return out;
  }

  private Optional<Figure> combined(
      String key,
      Role role,
      String signalId,
      List<Signal> local,
      List<ForeignSignal> foreign,
      Instant now) {
    BigDecimal weighted = BigDecimal.ZERO;
    long sample = 0;
    List<String> sources = new ArrayList<>();
    for (Signal s : local) {
      if (s.signalId().equals(signalId) && s.sampleSize() > 0) {
        weighted = weighted.add(s.value().multiply(BigDecimal.valueOf(s.sampleSize())));
        sample += s.sampleSize();
        sources.add("local");
      }
    }
    Instant since = now.minus(Duration.ofDays(windowDays));
    for (ForeignSignal f : foreign) {
      // Only about this key, only from an issuer trusted now (the operator may have stopped
      // trusting one since its signals came), and none older than our window.
      if (f.role() == role
          && key.equals(f.subjectKey())
          && f.signalId().equals(signalId)
          && f.sampleSize() > 0
          && trusted.contains(Ed25519PublicKey.fromBase64Url(f.issuerKey()))
          && !f.signedAt().isBefore(since)) {
        weighted = weighted.add(f.value().multiply(BigDecimal.valueOf(f.sampleSize())));
        sample += f.sampleSize();
        sources.add(f.issuerKey());
      }
    }
    if (sample == 0) {
      return Optional.empty();
    }
    return Optional.of(
        new Figure(
            role,
            signalId,
            weighted.divide(BigDecimal.valueOf(sample), 2, RoundingMode.HALF_EVEN),
            sample,
            List.copyOf(sources)));
  }

  /**
   * {@code POST /reputation/signals}: checks every signal first and keeps them only if all verify
   * (a batch is accepted whole or not at all); a signal older than one already kept from the same
   * issuer for the same subject, role and signal is answered as superseded.
   */
  public ObjectNode accept(JsonNode body) {
    if (!(body instanceof ObjectNode o) || !(o.get("signals") instanceof ArrayNode list)) {
      throw new InvalidDocumentException("/signals", "a list of signed ARP signals is required");
    }
    for (var field : o.properties()) {
      if (!field.getKey().equals("signals")) {
        throw new InvalidDocumentException("/" + field.getKey(), "unknown member");
      }
    }
    if (list.isEmpty() || list.size() > MAX_SIGNALS) {
      throw new InvalidDocumentException(
          "/signals", "between 1 and " + MAX_SIGNALS + " signals in one request");
    }
    Instant now = now();
    List<SignedSignals.Verified> verified = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String at = "/signals/" + i;
      SignedSignals.Verified v = SignedSignals.verify(list.get(i), at, trusted);
      if (v.signal().timestamp().isAfter(now.plus(CLOCK_SKEW))) {
        throw new InvalidDocumentException(
            at + "/timestamp", "a signal from the future (more than 5 minutes ahead of ours)");
      }
      verified.add(withDidKey(v, at));
    }
    ObjectNode out = Json.object();
    ArrayNode results = out.putArray("signals");
    int kept = 0;
    for (SignedSignals.Verified v : verified) {
      Signal s = v.signal();
      boolean stored = store.putSignal(s, v.signer().toBase64Url(), now, Json.write(v.json()));
      kept += stored ? 1 : 0;
      results
          .addObject()
          .put("signal_id", s.signalId())
          .put("issuer", v.signer().toBase64Url())
          .put("status", stored ? "kept" : "superseded");
    }
    out.put("kept", kept);
    return out;
  }

  /**
   * A did:key subject is its key: a signal about one that names no key is read as naming it, and
   * one that names another key is refused.
   */
  private static SignedSignals.Verified withDidKey(SignedSignals.Verified v, String at) {
    Signal s = v.signal();
    if (!s.subject().isDidKey()) {
      if (s.subjectKey() == null) {
        throw new InvalidDocumentException(
            at + "/subject/key",
            "a signal about an identity other than a did:key names the key its record belongs to:"
                + " a name alone is anybody's");
      }
      return v;
    }
    String own;
    try {
      own = DidKey.parse(s.subject().value()).toBase64Url();
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(at + "/subject/value", e.getMessage());
    }
    if (s.subjectKey() != null && !s.subjectKey().equals(own)) {
      throw new InvalidDocumentException(
          at + "/subject/key", "a did:key identity is its own key, not " + s.subjectKey());
    }
    Signal keyed =
        new Signal(
            s.signalType(),
            s.signalId(),
            s.source(),
            s.subject(),
            own,
            s.role(),
            s.value(),
            s.confidence(),
            s.window(),
            s.sampleSize(),
            s.timestamp());
    return new SignedSignals.Verified(keyed, v.signer(), v.json());
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.SECONDS);
  }
}
