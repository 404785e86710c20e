package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The reputation an identity earned on a server ({@code GET /reputation}, whitepaper 9.2): the
 * server's own figures over its window as ARP v2 signals it signed, the signals of issuers it
 * trusts, and the combined figures it acts on, weighted by sample size. An identity with no history
 * has no signals. Each signal's proof is in {@link #json()}.
 *
 * @param identity the identity asked about (its lineage is never set here)
 * @param verificationKey the key (base64url) the identity's record belongs to on this server, when
 *     it has one
 * @param signals the server's own signals, per role
 * @param foreignSignals the trusted issuers' signals the server kept
 * @param combined the figures the server acts on, for the key the record belongs to
 * @param issuer who signed {@link #signals()}: this server
 * @param window the window the server's figures cover, e.g. {@code 90d}
 * @param computedAt when the answer was computed
 * @param json the whole answer, a copy
 */
public record ReputationView(
    Identity identity,
    Optional<String> verificationKey,
    List<Signal> signals,
    List<Signal> foreignSignals,
    List<Figure> combined,
    Issuer issuer,
    String window,
    Instant computedAt,
    ObjectNode json) {

  private static final String WHAT = "a reputation answer";

  /** Checks that nothing is null and keeps private copies. */
  public ReputationView {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(verificationKey, "verificationKey");
    signals = List.copyOf(signals);
    foreignSignals = List.copyOf(foreignSignals);
    combined = List.copyOf(combined);
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(computedAt, "computedAt");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * One signed ARP v2 signal. Its {@code value} and {@code confidence} are the exact decimals the
   * issuer signed.
   *
   * @param signalId what it measures, e.g. {@code asa:verification_pass_rate}
   * @param role the role it is about: {@code client}, {@code provider} or {@code evaluator}
   * @param value the figure
   * @param confidence how far to trust it, 0 to 1
   * @param sampleSize how many agreements it rests on
   * @param window the period it covers, e.g. {@code 90d}
   * @param timestamp when the issuer computed it
   * @param source the issuer's name, e.g. {@code asa:server}
   * @param signedBy the key (base64url) whose signature it carries ({@code verification.key})
   */
  public record Signal(
      String signalId,
      String role,
      BigDecimal value,
      BigDecimal confidence,
      long sampleSize,
      String window,
      Instant timestamp,
      String source,
      String signedBy) {

    /** Checks that nothing is null. */
    public Signal {
      Objects.requireNonNull(signalId, "signalId");
      Objects.requireNonNull(role, "role");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(confidence, "confidence");
      Objects.requireNonNull(window, "window");
      Objects.requireNonNull(timestamp, "timestamp");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(signedBy, "signedBy");
    }

    static Signal from(JsonNode s) {
      String what = "a signal of " + WHAT;
      return new Signal(
          Members.text(s, "signal_id", what),
          Members.text(s, "role", what),
          Members.decimal(s, "value", what),
          Members.decimal(s, "confidence", what),
          Members.integer(s, "sample_size", what),
          Members.text(s, "window", what),
          Members.instant(s, "timestamp", what),
          Members.text(s, "source", what),
          Members.text(Members.child(s, "verification", what), "key", what + "'s verification"));
    }
  }

  /**
   * A figure as the server acts on it: its own and every trusted issuer's, weighted by sample size.
   *
   * @param role the role it is about
   * @param signalId what it measures, e.g. {@code asa:verification_pass_rate}
   * @param value the combined figure
   * @param sampleSize how many agreements it rests on, over every source
   * @param sources {@code local} and the keys of the trusted issuers it rests on
   */
  public record Figure(
      String role, String signalId, BigDecimal value, long sampleSize, List<String> sources) {

    /** Checks that nothing is null and keeps a private copy of the sources. */
    public Figure {
      Objects.requireNonNull(role, "role");
      Objects.requireNonNull(signalId, "signalId");
      Objects.requireNonNull(value, "value");
      sources = List.copyOf(sources);
    }

    static Figure from(JsonNode c) {
      String what = "a combined figure of " + WHAT;
      return new Figure(
          Members.text(c, "role", what),
          Members.text(c, "signal_id", what),
          Members.decimal(c, "value", what),
          Members.integer(c, "sample_size", what),
          Members.texts(c, "sources", what));
    }
  }

  /**
   * Who signed the server's own signals ({@code issuer}).
   *
   * @param source its name, e.g. {@code asa:server}
   * @param key its key, base64url: the server's key
   * @param method how it signs, e.g. {@code ed25519-jcs}
   */
  public record Issuer(String source, String key, String method) {

    /** Checks that nothing is null. */
    public Issuer {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(method, "method");
    }
  }

  /**
   * Reads a reputation answer.
   *
   * @param answer the body of {@code GET /reputation}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static ReputationView from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    ObjectNode identity = Members.child(o, "identity", WHAT);
    ObjectNode issuer = Members.child(o, "issuer", WHAT);
    String ofIssuer = WHAT + "'s issuer";
    return new ReputationView(
        new Identity(
            Members.text(identity, "scheme", WHAT + "'s identity"),
            Members.text(identity, "value", WHAT + "'s identity"),
            null),
        Members.optionalText(o, "verification_key"),
        Members.requiredObjects(o, "signals", WHAT).stream().map(Signal::from).toList(),
        Members.objects(o, "foreign_signals", WHAT).stream().map(Signal::from).toList(),
        Members.objects(o, "combined", WHAT).stream().map(Figure::from).toList(),
        new Issuer(
            Members.text(issuer, "source", ofIssuer),
            Members.text(issuer, "key", ofIssuer),
            Members.text(issuer, "method", ofIssuer)),
        Members.text(o, "window", WHAT),
        Members.instant(o, "computed_at", WHAT),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
