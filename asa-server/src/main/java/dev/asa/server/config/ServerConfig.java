package dev.asa.server.config;

import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.pool.AssignmentConfig;
import dev.asa.server.pool.CanaryFile;
import dev.asa.server.reputation.ReputationConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the server needs to start. Defaults: 127.0.0.1:8080, data under {@code ./asa-data},
 * SQLite unless a database URL is given, no operator key, 50 requests/s per key (burst 100).
 *
 * @param port 0 picks a free port (tests)
 * @param dbUrl null for SQLite under {@code dataDir}; {@code postgresql://...} for PostgreSQL
 * @param operatorKey the key allowed on admin routes; null: no operator
 * @param trustedMarketSources sources whose market_reference the price bounds accept; none by
 *     default
 * @param assignment the evaluator pool and default rotation; by default the pool is the server's
 *     evaluator registry, and rotation comes after 3 consecutive deliveries
 * @param qualification the bar a pool evaluator must clear to be assigned (whitepaper 3.6.1)
 * @param canaries the canary file given at start-up, loaded into the store (replacing the set
 *     stored before); null to keep the stored set, if any
 * @param pollTimers whether timers are polled every second (always, in production)
 * @param pollOutbox whether the outbox is polled every second (always, in production)
 * @param observability the log format and level, and where the metrics are served
 * @param reputation where ARP aggregates are pushed, whose signals count, how far back they look
 * @param retention how long an ended agreement stays in the hot store before the server archives it
 *     on its own; null keeps every agreement (the default)
 */
public record ServerConfig(
    String host,
    int port,
    Path dataDir,
    String dbUrl,
    Clock clock,
    long maxBodyBytes,
    Ed25519PublicKey operatorKey,
    double requestsPerSecondPerKey,
    int burstPerKey,
    Set<String> trustedMarketSources,
    NegotiationPolicy negotiationPolicy,
    EscrowConfig escrow,
    VerificationConfig verification,
    boolean pollTimers,
    boolean pollOutbox,
    FetchPolicy fetchPolicy,
    PublicUrls publicUrls,
    AssignmentConfig assignment,
    QualificationPolicy qualification,
    CanaryFile canaries,
    Observability observability,
    ReputationConfig reputation,
    Duration retention) {

  public static final int DEFAULT_PORT = 8080;
  public static final long DEFAULT_MAX_BODY_BYTES = 16L * 1024 * 1024;

  public ServerConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(clock, "clock");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, not " + port);
    }
    trustedMarketSources = Set.copyOf(trustedMarketSources);
    Objects.requireNonNull(negotiationPolicy, "negotiationPolicy");
    Objects.requireNonNull(escrow, "escrow");
    Objects.requireNonNull(verification, "verification");
    Objects.requireNonNull(fetchPolicy, "fetchPolicy");
    Objects.requireNonNull(publicUrls, "publicUrls");
    Objects.requireNonNull(assignment, "assignment");
    Objects.requireNonNull(qualification, "qualification");
    Objects.requireNonNull(observability, "observability");
    Objects.requireNonNull(reputation, "reputation");
    if (retention != null && (retention.isNegative() || retention.isZero())) {
      throw new IllegalArgumentException("the retention must be positive, not " + retention);
    }
    if (requestsPerSecondPerKey <= 0 || burstPerKey < 1) {
      throw new IllegalArgumentException("the rate limit must allow at least one request");
    }
  }

  public static ServerConfig defaults() {
    return new ServerConfig(
        "127.0.0.1",
        DEFAULT_PORT,
        Path.of("asa-data"),
        null,
        Clock.systemUTC(),
        DEFAULT_MAX_BODY_BYTES,
        null,
        50,
        100,
        Set.of(),
        NegotiationPolicy.DEFAULTS,
        EscrowConfig.DEFAULTS,
        VerificationConfig.STRUCTURAL_ONLY,
        true,
        true,
        FetchPolicy.DEFAULTS,
        PublicUrls.DEFAULTS,
        AssignmentConfig.DEFAULTS,
        QualificationPolicy.DEFAULTS,
        null,
        Observability.DEFAULTS,
        ReputationConfig.DEFAULTS,
        null);
  }

  public ServerConfig withPort(int p) {
    return copy().port(p).build();
  }

  public ServerConfig withHost(String h) {
    return copy().host(h).build();
  }

  public ServerConfig withDataDir(Path d) {
    return copy().dataDir(d).build();
  }

  public ServerConfig withDbUrl(String url) {
    return copy().dbUrl(url).build();
  }

  public ServerConfig withClock(Clock c) {
    return copy().clock(c).build();
  }

  public ServerConfig withOperatorKey(Ed25519PublicKey key) {
    return copy().operatorKey(key).build();
  }

  public ServerConfig withRateLimit(double perSecond, int burst) {
    return copy().requestsPerSecondPerKey(perSecond).burstPerKey(burst).build();
  }

  /** The negotiation rules' parameters (rounds, asymmetry limit, price band, timeout). */
  public ServerConfig withNegotiationPolicy(NegotiationPolicy policy) {
    return copy().negotiationPolicy(policy).build();
  }

  /**
   * Market-reference sources a negotiation message may cite for the price bounds (e.g.
   * arp_market_data).
   */
  public ServerConfig withTrustedMarketSources(Set<String> sources) {
    return copy().trustedMarketSources(sources).build();
  }

  /** The escrow settings: callback URLs allowed, x402 facilitator, dispute endpoints, arbiters. */
  public ServerConfig withEscrow(EscrowConfig e) {
    return copy().escrow(e).build();
  }

  /**
   * The semantic evaluators (embedding model, LLM judge) and the background verification workers.
   */
  public ServerConfig withVerification(VerificationConfig v) {
    return copy().verification(v).build();
  }

  /**
   * Whether timers are polled every second (always, in production). Tests that must decide exactly
   * when a timer fires turn it off and call {@code AsaServer.fireDueTimers()}.
   */
  public ServerConfig withTimerPolling(boolean poll) {
    return copy().pollTimers(poll).build();
  }

  /**
   * Whether the outbox is polled every second (always, in production). Tests that count what one
   * delivery sends turn it off and call {@code AsaServer.deliverDueMessages()}: with the poller on,
   * its own run may send the message first, and the test's count races it.
   */
  public ServerConfig withOutboxPolling(boolean poll) {
    return copy().pollOutbox(poll).build();
  }

  /** Internal URL prefixes the server may fetch from or post to (nothing internal by default). */
  public ServerConfig withFetchPolicy(FetchPolicy f) {
    return copy().fetchPolicy(f).build();
  }

  /** The URLs clients reach this server under; signed requests must target one of them. */
  public ServerConfig withPublicUrls(PublicUrls p) {
    return copy().publicUrls(p).build();
  }

  /**
   * The evaluator pool that agreements naming no evaluator are assigned from, and the default
   * rotation bound ({@code --rotation-max-consecutive}).
   */
  public ServerConfig withAssignment(AssignmentConfig a) {
    return copy().assignment(a).build();
  }

  /**
   * The bar a pool evaluator must clear to be assigned (minimum evaluations, pass rate, deviation).
   */
  public ServerConfig withQualification(QualificationPolicy q) {
    return copy().qualification(q).build();
  }

  /** A canary file to load at start-up (replacing the stored set); null to keep the stored one. */
  public ServerConfig withCanaries(CanaryFile file) {
    return copy().canaries(file).build();
  }

  /** The log format and level, and where the metrics are served. */
  public ServerConfig withObservability(Observability o) {
    return copy().observability(o).build();
  }

  /** Where reputation is pushed, whose signals count, how far back it looks. */
  public ServerConfig withReputation(ReputationConfig r) {
    return copy().reputation(r).build();
  }

  /** Archive ended agreements older than this on a schedule; null keeps them all. */
  public ServerConfig withRetention(Duration r) {
    return copy().retention(r).build();
  }

  /** A copy to change one setting at a time: each {@code with...} above is one line through it. */
  private Builder copy() {
    return new Builder(this);
  }

  /** The mutable form of a config, for the withers only. */
  private static final class Builder {
    private String host;
    private int port;
    private Path dataDir;
    private String dbUrl;
    private Clock clock;
    private long maxBodyBytes;
    private Ed25519PublicKey operatorKey;
    private double requestsPerSecondPerKey;
    private int burstPerKey;
    private Set<String> trustedMarketSources;
    private NegotiationPolicy negotiationPolicy;
    private EscrowConfig escrow;
    private VerificationConfig verification;
    private boolean pollTimers;
    private boolean pollOutbox;
    private FetchPolicy fetchPolicy;
    private PublicUrls publicUrls;
    private AssignmentConfig assignment;
    private QualificationPolicy qualification;
    private CanaryFile canaries;
    private Observability observability;
    private ReputationConfig reputation;
    private Duration retention;

    Builder(ServerConfig c) {
      host = c.host;
      port = c.port;
      dataDir = c.dataDir;
      dbUrl = c.dbUrl;
      clock = c.clock;
      maxBodyBytes = c.maxBodyBytes;
      operatorKey = c.operatorKey;
      requestsPerSecondPerKey = c.requestsPerSecondPerKey;
      burstPerKey = c.burstPerKey;
      trustedMarketSources = c.trustedMarketSources;
      negotiationPolicy = c.negotiationPolicy;
      escrow = c.escrow;
      verification = c.verification;
      pollTimers = c.pollTimers;
      pollOutbox = c.pollOutbox;
      fetchPolicy = c.fetchPolicy;
      publicUrls = c.publicUrls;
      assignment = c.assignment;
      qualification = c.qualification;
      canaries = c.canaries;
      observability = c.observability;
      reputation = c.reputation;
      retention = c.retention;
    }

    Builder host(String value) {
      host = value;
      return this;
    }

    Builder port(int value) {
      port = value;
      return this;
    }

    Builder dataDir(Path value) {
      dataDir = value;
      return this;
    }

    Builder dbUrl(String value) {
      dbUrl = value;
      return this;
    }

    Builder clock(Clock value) {
      clock = value;
      return this;
    }

    Builder maxBodyBytes(long value) {
      maxBodyBytes = value;
      return this;
    }

    Builder operatorKey(Ed25519PublicKey value) {
      operatorKey = value;
      return this;
    }

    Builder requestsPerSecondPerKey(double value) {
      requestsPerSecondPerKey = value;
      return this;
    }

    Builder burstPerKey(int value) {
      burstPerKey = value;
      return this;
    }

    Builder trustedMarketSources(Set<String> value) {
      trustedMarketSources = value;
      return this;
    }

    Builder negotiationPolicy(NegotiationPolicy value) {
      negotiationPolicy = value;
      return this;
    }

    Builder escrow(EscrowConfig value) {
      escrow = value;
      return this;
    }

    Builder verification(VerificationConfig value) {
      verification = value;
      return this;
    }

    Builder pollTimers(boolean value) {
      pollTimers = value;
      return this;
    }

    Builder pollOutbox(boolean value) {
      pollOutbox = value;
      return this;
    }

    Builder fetchPolicy(FetchPolicy value) {
      fetchPolicy = value;
      return this;
    }

    Builder publicUrls(PublicUrls value) {
      publicUrls = value;
      return this;
    }

    Builder assignment(AssignmentConfig value) {
      assignment = value;
      return this;
    }

    Builder qualification(QualificationPolicy value) {
      qualification = value;
      return this;
    }

    Builder canaries(CanaryFile value) {
      canaries = value;
      return this;
    }

    Builder observability(Observability value) {
      observability = value;
      return this;
    }

    Builder reputation(ReputationConfig value) {
      reputation = value;
      return this;
    }

    Builder retention(Duration value) {
      retention = value;
      return this;
    }

    ServerConfig build() {
      return new ServerConfig(
          host,
          port,
          dataDir,
          dbUrl,
          clock,
          maxBodyBytes,
          operatorKey,
          requestsPerSecondPerKey,
          burstPerKey,
          trustedMarketSources,
          negotiationPolicy,
          escrow,
          verification,
          pollTimers,
          pollOutbox,
          fetchPolicy,
          publicUrls,
          assignment,
          qualification,
          canaries,
          observability,
          reputation,
          retention);
    }
  }
}
