package dev.asa.cli;

import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.AsaServer;
import dev.asa.server.ServerConfig;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/** {@code asa serve}: runs the server in the foreground until SIGINT or SIGTERM. */
final class ServeCommand implements Command {

  private static final Usage USAGE = Usage.of("serve", "[--host H] [--port N] [--data-dir DIR] [--db URL] [--operator-key FILE]",
          "Starts the ASA server and runs it until Ctrl-C or SIGTERM.\n"
              + "With no options it listens on 127.0.0.1:8080 and keeps its data in SQLite under ./asa-data.")
      .option(Option.value("--host", "H", "address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"))
      .option(Option.value("--port", "N", "port to listen on (default " + ServerConfig.DEFAULT_PORT + "; 0 picks a free one)"))
      .option(Option.value("--data-dir", "DIR", "where the SQLite database lives (default ./asa-data)"))
      .option(Option.value("--db", "URL", "a PostgreSQL database instead, e.g. postgresql://user@127.0.0.1:5432/asa (default: $ASA_DB_URL)"))
      .option(Option.value("--operator-key", "FILE", "the operator's public key (a key file, its public part, a base64url key or a did:key) for admin routes"))
      .option(Option.repeated("--market-source", "NAME", "a market_reference source negotiations may cite for price bounds (repeatable)"))
      .option(Option.value("--negotiation-max-rounds", "N", "rounds before a negotiation ends in REJECTED (default 5)"))
      .option(Option.value("--negotiation-max-shift", "F", "largest move of a numeric term per round, as a fraction (default 0.25)"))
      .option(Option.value("--price-band", "LOW,HIGH", "prices outside LOW..HIGH x the market median are flagged (default 0.5,3.0)"))
      .option(Option.value("--negotiation-timeout", "SECONDS", "a negotiation with no message this long is rejected (default 3600)"))
      .option(Option.value("--rate-limit", "N", "requests per second allowed per key (default 50, bursts of twice that)"));

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    ServerConfig defaults = ServerConfig.defaults();
    ServerConfig config = defaults
        .withHost(args.value("--host", defaults.host()))
        .withPort(args.intValue("--port", defaults.port(), 0, 65535))
        .withDataDir(args.has("--data-dir") ? Path.of(args.value("--data-dir")) : defaults.dataDir())
        .withDbUrl(args.value("--db", session.env("ASA_DB_URL")));
    if (args.has("--operator-key")) {
      config = config.withOperatorKey(Inputs.publicKeyFile("--operator-key", args.value("--operator-key")));
    }
    config = config.withNegotiationPolicy(negotiationPolicy(args, config.negotiationPolicy()));
    if (args.has("--market-source")) {
      config = config.withTrustedMarketSources(java.util.Set.copyOf(args.values("--market-source")));
    }
    if (args.has("--rate-limit")) {
      int perSecond = args.intValue("--rate-limit", 50, 1, 1_000_000);
      config = config.withRateLimit(perSecond, perSecond * 2);
    }

    AsaServer server;
    try {
      server = AsaServer.start(config);
    } catch (RuntimeException e) {
      throw new CliException("could not start the server: " + rootMessage(e), e);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "asa-shutdown"));
    session.out().println("ASA server listening on " + server.url(config.host()));
    session.out().println("store: " + server.storeDescription());
    session.out().println("server key: " + server.serverKey().toBase64Url());
    if (config.operatorKey() != null) {
      session.out().println("operator key: " + config.operatorKey().toBase64Url());
    }
    session.out().flush();
    stopped.await();
    return 0;
  }

  private static NegotiationPolicy negotiationPolicy(Arguments args, NegotiationPolicy d) throws UsageException {
    try {
      BigDecimal low = d.priceBandLow();
      BigDecimal high = d.priceBandHigh();
      if (args.has("--price-band")) {
        String[] parts = args.value("--price-band").split(",", -1);
        if (parts.length != 2) {
          throw new UsageException("--price-band takes LOW,HIGH such as 0.5,3.0");
        }
        low = new BigDecimal(parts[0].trim());
        high = new BigDecimal(parts[1].trim());
      }
      return new NegotiationPolicy(
          args.intValue("--negotiation-max-rounds", d.maxRounds(), 1, 100),
          args.has("--negotiation-max-shift") ? new BigDecimal(args.value("--negotiation-max-shift")) : d.maxShift(),
          low, high,
          args.has("--negotiation-timeout") ? Inputs.nonNegativeLong("--negotiation-timeout", args.value("--negotiation-timeout")) : d.timeoutSeconds(),
          d.minClosedForMedian());
    } catch (NumberFormatException e) {
      throw new UsageException("--negotiation-max-shift and --price-band take decimal numbers such as 0.25 or 0.5,3.0");
    } catch (IllegalArgumentException e) {
      throw new UsageException("the negotiation settings are inconsistent: " + e.getMessage());
    }
  }

  /** Start-up failures arrive wrapped (Jetty, JDBC); the innermost message is the one that explains. */
  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    return t == e ? message : e.getMessage() + " (" + message + ")";
  }
}
