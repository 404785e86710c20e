package dev.asa.server.config;

import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.evaluation.VerificationConfig;
import dev.asa.server.net.FetchPolicy;
import java.nio.file.Path;
import java.time.Clock;
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
    FetchPolicy fetchPolicy,
    PublicUrls publicUrls) {

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
        FetchPolicy.DEFAULTS,
        PublicUrls.DEFAULTS);
  }

  public ServerConfig withPort(int p) {
    return new ServerConfig(
        host,
        p,
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
        fetchPolicy,
        publicUrls);
  }

  public ServerConfig withHost(String h) {
    return new ServerConfig(
        h,
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
        fetchPolicy,
        publicUrls);
  }

  public ServerConfig withDataDir(Path d) {
    return new ServerConfig(
        host,
        port,
        d,
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
        fetchPolicy,
        publicUrls);
  }

  public ServerConfig withDbUrl(String url) {
    return new ServerConfig(
        host,
        port,
        dataDir,
        url,
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
        fetchPolicy,
        publicUrls);
  }

  public ServerConfig withClock(Clock c) {
    return new ServerConfig(
        host,
        port,
        dataDir,
        dbUrl,
        c,
        maxBodyBytes,
        operatorKey,
        requestsPerSecondPerKey,
        burstPerKey,
        trustedMarketSources,
        negotiationPolicy,
        escrow,
        verification,
        pollTimers,
        fetchPolicy,
        publicUrls);
  }

  public ServerConfig withOperatorKey(Ed25519PublicKey key) {
    return new ServerConfig(
        host,
        port,
        dataDir,
        dbUrl,
        clock,
        maxBodyBytes,
        key,
        requestsPerSecondPerKey,
        burstPerKey,
        trustedMarketSources,
        negotiationPolicy,
        escrow,
        verification,
        pollTimers,
        fetchPolicy,
        publicUrls);
  }

  public ServerConfig withRateLimit(double perSecond, int burst) {
    return new ServerConfig(
        host,
        port,
        dataDir,
        dbUrl,
        clock,
        maxBodyBytes,
        operatorKey,
        perSecond,
        burst,
        trustedMarketSources,
        negotiationPolicy,
        escrow,
        verification,
        pollTimers,
        fetchPolicy,
        publicUrls);
  }

  /** The negotiation rules' parameters (rounds, asymmetry limit, price band, timeout). */
  public ServerConfig withNegotiationPolicy(NegotiationPolicy policy) {
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
        policy,
        escrow,
        verification,
        pollTimers,
        fetchPolicy,
        publicUrls);
  }

  /**
   * Market-reference sources a negotiation message may cite for the price bounds (e.g.
   * arp_market_data).
   */
  public ServerConfig withTrustedMarketSources(Set<String> sources) {
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
        sources,
        negotiationPolicy,
        escrow,
        verification,
        pollTimers,
        fetchPolicy,
        publicUrls);
  }

  /** The escrow settings: callback URLs allowed, x402 facilitator, dispute endpoints, arbiters. */
  public ServerConfig withEscrow(EscrowConfig e) {
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
        e,
        verification,
        pollTimers,
        fetchPolicy,
        publicUrls);
  }

  /**
   * The semantic evaluators (embedding model, LLM judge) and the background verification workers.
   */
  public ServerConfig withVerification(VerificationConfig v) {
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
        v,
        pollTimers,
        fetchPolicy,
        publicUrls);
  }

  /**
   * Whether timers and the outbox are polled every second (always, in production). Tests that must
   * decide exactly when a timer fires turn it off and call {@link AsaServer#fireDueTimers()}.
   */
  public ServerConfig withTimerPolling(boolean poll) {
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
        poll,
        fetchPolicy,
        publicUrls);
  }

  /** Internal URL prefixes the server may fetch from or post to (nothing internal by default). */
  public ServerConfig withFetchPolicy(FetchPolicy f) {
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
        f,
        publicUrls);
  }

  /** The URLs clients reach this server under; signed requests must target one of them. */
  public ServerConfig withPublicUrls(PublicUrls p) {
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
        fetchPolicy,
        p);
  }
}
