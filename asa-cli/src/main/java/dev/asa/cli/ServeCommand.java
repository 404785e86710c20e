package dev.asa.cli;

import dev.asa.agreement.RotationTerms;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.evaluators.code.SandboxTests;
import dev.asa.evaluators.code.sandbox.Limits;
import dev.asa.evaluators.code.sandbox.Sandbox;
import dev.asa.evaluators.code.sandbox.TestRunner;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.AsaServer;
import dev.asa.server.config.Observability;
import dev.asa.server.config.PublicUrls;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.erc8183.Erc8183Settings;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.pool.AssignmentConfig;
import dev.asa.server.pool.CanaryFile;
import dev.asa.server.reputation.ReputationConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code asa serve}: runs the server in the foreground until SIGINT or SIGTERM. */
@Command(
    name = "serve",
    header = "Starts the ASA server and runs it until Ctrl-C or SIGTERM.",
    customSynopsis =
        "asa serve [--host H] [--port N] [--data-dir DIR] [--db URL] [--operator-key FILE] ...",
    description =
        "With no options it listens on 127.0.0.1:8080 and keeps its data in SQLite under"
            + " ./asa-data. Every option may also be set in the environment: --some-option as"
            + " ASA_SOME_OPTION (one value for a repeatable option); the command line wins.")
final class ServeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--host",
      paramLabel = "H",
      description =
          "address to listen on (default 127.0.0.1; 0.0.0.0 for every interface); env ASA_HOST")
  String host;

  @Option(
      names = "--port",
      paramLabel = "N",
      description =
          "port to listen on (default "
              + ServerConfig.DEFAULT_PORT
              + "; 0 picks a free one); env ASA_PORT",
      converter = OptionValues.Port.class)
  Integer port;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "where the SQLite database lives (default ./asa-data); env ASA_DATA_DIR")
  Path dataDir;

  @Option(
      names = "--db",
      paramLabel = "URL",
      description =
          "a PostgreSQL database instead, e.g. postgresql://user@127.0.0.1:5432/asa (also $ASA_DB_URL); env ASA_DB")
  String db;

  @Option(
      names = "--operator-key",
      paramLabel = "FILE",
      description =
          "the operator's public key (a key file, its public part, a base64url key or a did:key) for admin routes; env ASA_OPERATOR_KEY")
  Path operatorKey;

  @Option(
      names = "--market-source",
      paramLabel = "NAME",
      description =
          "a market_reference source negotiations may cite for price bounds; env ASA_MARKET_SOURCE")
  List<String> marketSources = new ArrayList<>();

  @Option(
      names = "--negotiation-max-rounds",
      paramLabel = "N",
      description =
          "rounds before a negotiation ends in REJECTED (default 5); env ASA_NEGOTIATION_MAX_ROUNDS",
      converter = OptionValues.Rounds.class)
  Integer negotiationMaxRounds;

  @Option(
      names = "--negotiation-max-shift",
      paramLabel = "F",
      description =
          "largest move of a numeric term per round, as a fraction (default 0.25); env ASA_NEGOTIATION_MAX_SHIFT",
      converter = OptionValues.Ratio.class)
  BigDecimal negotiationMaxShift;

  @Option(
      names = "--price-band",
      paramLabel = "LOW,HIGH",
      description =
          "prices outside LOW..HIGH x the market median are flagged (default 0.5,3.0); env ASA_PRICE_BAND",
      converter = OptionValues.PriceBand.Converter.class)
  OptionValues.PriceBand priceBand;

  @Option(
      names = "--negotiation-timeout",
      paramLabel = "SECONDS",
      description =
          "a negotiation with no message this long is rejected (default 3600); env ASA_NEGOTIATION_TIMEOUT",
      converter = OptionValues.Seconds.class)
  Duration negotiationTimeout;

  @Option(
      names = "--rate-limit",
      paramLabel = "N",
      description =
          "requests per second allowed per key (default 50, bursts of twice that); env ASA_RATE_LIMIT",
      converter = OptionValues.PerSecond.class)
  Integer rateLimit;

  @Option(
      names = "--callback-url-prefix",
      paramLabel = "URL",
      description =
          "an http(s) URL prefix an http_callback escrow's webhook URL may start with; env ASA_CALLBACK_URL_PREFIX",
      converter = OptionValues.UrlPrefix.class)
  List<URI> callbackUrlPrefixes = new ArrayList<>();

  @Option(
      names = "--x402-facilitator",
      paramLabel = "URL",
      description =
          "the x402 facilitator's base URL; without it x402 escrows are refused; env ASA_X402_FACILITATOR",
      converter = OptionValues.HttpUrl.class)
  URI x402Facilitator;

  @Option(
      names = "--erc8183-rpc",
      paramLabel = "URL",
      description =
          "the JSON-RPC URL of the chain whose ERC-8183 jobs this server attests as evaluator; with"
              + " --erc8183-key, erc8183 escrows are offered; env ASA_ERC8183_RPC",
      converter = OptionValues.HttpUrl.class)
  URI erc8183Rpc;

  @Option(
      names = "--erc8183-key",
      paramLabel = "FILE",
      description =
          "a file holding the attestor's secp256k1 private key (0x and 64 hex digits): the job's"
              + " evaluator, which signs complete, reject and claimRefund; env ASA_ERC8183_KEY")
  Path erc8183Key;

  @Option(
      names = "--erc8183-confirmations",
      paramLabel = "N",
      description =
          "blocks deep a funding, submission or settlement must be before it counts (default "
              + Erc8183Settings.DEFAULT_CONFIRMATIONS
              + "); env ASA_ERC8183_CONFIRMATIONS",
      converter = OptionValues.Blocks.class)
  Integer erc8183Confirmations;

  @Option(
      names = "--erc8183-contract",
      paramLabel = "ADDRESS",
      description =
          "an ERC-8183 job contract this server attests jobs on (repeatable); without it, any"
              + " contract on the chain; env ASA_ERC8183_CONTRACT")
  List<String> erc8183Contracts = new ArrayList<>();

  @Option(
      names = "--dispute-endpoint",
      paramLabel = "PROTOCOL=URL",
      description =
          "where disputes under a dispute protocol are filed, e.g. ajp=https://disputes.example/ajp; env ASA_DISPUTE_ENDPOINT",
      converter = OptionValues.DisputeEndpoint.Converter.class)
  List<OptionValues.DisputeEndpoint> disputeEndpoints = new ArrayList<>();

  @Option(
      names = "--code-sandbox",
      paramLabel = "on|off",
      description =
          "run the tests of code deliverables in a bubblewrap sandbox (no network, read-only system, CPU, memory, process and time limits); off by default, and then criteria that carry tests are refused; env ASA_CODE_SANDBOX",
      converter = OptionValues.Switch.Converter.class)
  OptionValues.Switch codeSandbox;

  @Option(
      names = "--arbiter-key",
      paramLabel = "FILE",
      description =
          "a public key (as for --operator-key) that may rule on disputes besides the operator's; env ASA_ARBITER_KEY")
  List<Path> arbiterKeys = new ArrayList<>();

  @Option(
      names = "--public-url",
      paramLabel = "URL",
      description =
          "a URL clients reach this server under, e.g. https://asa.example.com behind a TLS proxy (default: the listen address and its localhost forms); env ASA_PUBLIC_URL",
      converter = OptionValues.Origin.class)
  List<URI> publicUrls = new ArrayList<>();

  @Option(
      names = "--allow-fetch",
      paramLabel = "URL-PREFIX",
      description =
          "an internal URL prefix the server may fetch from or post to (by default internal addresses are refused); env ASA_ALLOW_FETCH",
      converter = OptionValues.UrlPrefix.class)
  List<URI> allowFetch = new ArrayList<>();

  @Option(
      names = "--rotation-max-consecutive",
      paramLabel = "N",
      description =
          "at most N consecutive deliveries of one provider per evaluator, for agreements whose verification.rotation sets none (default "
              + AssignmentConfig.DEFAULT_MAX_CONSECUTIVE
              + "); env ASA_ROTATION_MAX_CONSECUTIVE",
      converter = OptionValues.Consecutive.class)
  Integer rotationMaxConsecutive;

  @Option(
      names = "--delivery-timeout",
      paramLabel = "SECONDS",
      description =
          "longest wait for one payment webhook or facilitator call (default 10); env ASA_DELIVERY_TIMEOUT",
      converter = OptionValues.SecondsUpToAnHour.class)
  Duration deliveryTimeout;

  @Option(
      names = "--log-format",
      paramLabel = "text|json",
      description =
          "log lines for people (text) or one JSON object a line (default text); env ASA_LOG_FORMAT",
      converter = OptionValues.LogFormat.class)
  Observability.LogFormat logFormat;

  @Option(
      names = "--log-level",
      paramLabel = "LEVEL",
      description = "error, warn, info, debug or trace (default info); env ASA_LOG_LEVEL",
      converter = OptionValues.LogLevel.class)
  String logLevel;

  @Option(
      names = "--metrics-port",
      paramLabel = "N",
      description =
          "serve GET /metrics unauthenticated on this port of its own (default: on the main port, for the operator key); env ASA_METRICS_PORT",
      converter = OptionValues.Port.class)
  Integer metricsPort;

  @Option(
      names = "--metrics-bind",
      paramLabel = "H",
      description = "address of the metrics port (default 127.0.0.1); env ASA_METRICS_BIND")
  String metricsBind;

  @Option(
      names = "--verification-workers",
      paramLabel = "N",
      description = "semantic verifications run at once (default 2); env ASA_VERIFICATION_WORKERS",
      converter = OptionValues.Workers.class)
  Integer verificationWorkers;

  @Option(
      names = "--qualify-min-evaluations",
      paramLabel = "N",
      description =
          "evaluations a pool evaluator needs to be assigned (default 50); env ASA_QUALIFY_MIN_EVALUATIONS",
      converter = OptionValues.Count.class)
  Integer qualifyMinEvaluations;

  @Option(
      names = "--qualify-canary-pass-rate",
      paramLabel = "F",
      description =
          "lowest canary pass rate of a pool evaluator, a fraction from 0 to 1 (default 0.90); env ASA_QUALIFY_CANARY_PASS_RATE",
      converter = OptionValues.Fraction.class)
  BigDecimal qualifyCanaryPassRate;

  @Option(
      names = "--qualify-max-deviation",
      paramLabel = "POINTS",
      description =
          "largest mean calibration deviation of a pool evaluator, in score points (default 10); env ASA_QUALIFY_MAX_DEVIATION",
      converter = OptionValues.ScorePoints.class)
  BigDecimal qualifyMaxDeviation;

  @Option(
      names = "--qualify-min-consensus",
      paramLabel = "N",
      description =
          "scores of real work compared with other evaluators' (on panels) before a pool evaluator leaves probation and may judge alone (default 12; 0: no probation); env ASA_QUALIFY_MIN_CONSENSUS",
      converter = OptionValues.Count.class)
  Integer qualifyMinConsensus;

  @Option(
      names = "--canaries",
      paramLabel = "FILE",
      description =
          "the canary set (a JSON array or JSON Lines of canaries), loaded at start in place of the stored one; env ASA_CANARIES")
  Path canaries;

  @Option(
      names = "--arp-endpoint",
      paramLabel = "URL",
      description =
          "push each changed reputation aggregate (ARP v2 signals, signed) to this URL as a signed webhook, with retries; env ASA_ARP_ENDPOINT",
      converter = OptionValues.HttpUrl.class)
  URI arpEndpoint;

  @Option(
      names = "--arp-trust",
      paramLabel = "KEY",
      description =
          "the public key (a key file, a base64url key or a did:key) of an ARP issuer whose signed signals POST /reputation/signals accepts and combines with this server's; repeatable; env ASA_ARP_TRUST",
      converter = OptionValues.PublicKeyOrFile.Converter.class)
  List<OptionValues.PublicKeyOrFile> arpTrust = new ArrayList<>();

  @Option(
      names = "--arp-window-days",
      paramLabel = "DAYS",
      description =
          "how many days back the reputation aggregates look (default 365, as ARP's); env ASA_ARP_WINDOW_DAYS",
      converter = OptionValues.Days.class)
  Duration arpWindowDays;

  @Option(
      names = "--retention-days",
      paramLabel = "DAYS",
      description =
          "archive agreements that ended more than DAYS ago, every hour, into signed files under"
              + " DATA_DIR/archives (default: keep every agreement); env ASA_RETENTION_DAYS",
      converter = OptionValues.Days.class)
  Duration retentionDays;

  @Mixin JudgeOptions judgeOptions;

  @Override
  public Integer call() throws Exception {
    Session session = new Session(Asa.of(spec).io(), null, null, false);
    ServerConfig config = config(session);
    AsaServer server;
    try {
      server = AsaServer.start(config);
    } catch (RuntimeException e) {
      throw new CliException("could not start the server: " + rootMessage(e), Exit.UNREACHABLE);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "asa-shutdown"));
    session.out().println("ASA server listening on " + server.url(config.host()));
    session.out().println("store: " + server.storeDescription());
    session.out().println("server key: " + server.serverKey().toBase64Url());
    if (config.operatorKey() != null) {
      session.out().println("operator key: " + config.operatorKey().toBase64Url());
    }
    EscrowConfig escrow = config.escrow();
    if (escrow.x402Facilitator() != null) {
      session.out().println("x402 facilitator: " + escrow.x402Facilitator());
    }
    if (escrow.erc8183() != null) {
      session
          .out()
          .println(
              "erc8183 chain: "
                  + escrow.erc8183().rpc()
                  + " ("
                  + escrow.erc8183().confirmations()
                  + " confirmations), attestor (every job's evaluator; it pays gas): "
                  + escrow.erc8183().attestorAddress()
                  + ", job contracts: "
                  + (escrow.erc8183().contracts().isEmpty()
                      ? "any (name the reviewed ones with --erc8183-contract)"
                      : String.join(", ", escrow.erc8183().contracts())));
    }
    config
        .verification()
        .description()
        .forEach((what, how) -> session.out().println("verification " + what + ": " + how));
    session
        .out()
        .println(
            "evaluator rotation: at most "
                + config.assignment().defaultRotation().maxConsecutive()
                + " consecutive deliveries of one provider (unless an agreement sets its own)");
    QualificationPolicy q = config.qualification();
    session
        .out()
        .println(
            "evaluator qualification: "
                + q.minEvaluations()
                + " evaluations, canary pass rate "
                + q.minCanaryPassRate().toPlainString()
                + ", deviation at most "
                + q.maxDeviationPoints().toPlainString()
                + " points");
    if (config.canaries() != null) {
      session
          .out()
          .println(
              "canary set: "
                  + config.canaries().set().canaries().size()
                  + " canaries from "
                  + config.canaries().path());
    }
    for (var arbiter : escrow.arbiterKeys()) {
      session.out().println("arbiter key: " + arbiter.toBase64Url());
    }
    session.out().flush();
    stopped.await();
    return Exit.OK;
  }

  /**
   * The server's configuration from the options, in the order of the configuration reference
   * (docs/configuration.md): each option given replaces the server's default. Each option arrives
   * converted and checked on its own (see {@link OptionValues}); refused here is only what takes
   * more than one option, or a file to read.
   */
  ServerConfig config(Session session) throws UsageException, CliException {
    ServerConfig d = ServerConfig.defaults();
    return d.withHost(or(host, d.host()))
        .withPort(or(port, d.port()))
        .withPublicUrls(new PublicUrls(publicUrls))
        .withDataDir(or(dataDir, d.dataDir()))
        .withDbUrl(db)
        .withOperatorKey(operatorKey == null ? null : publicKeyFile("--operator-key", operatorKey))
        .withRateLimit(
            rateLimit != null ? rateLimit : d.requestsPerSecondPerKey(),
            rateLimit != null ? 2 * rateLimit : d.burstPerKey())
        .withTrustedMarketSources(Set.copyOf(marketSources))
        .withNegotiationPolicy(negotiation(d.negotiationPolicy()))
        .withEscrow(escrow(d.escrow()))
        .withReputation(reputation(d.reputation()))
        .withRetention(retentionDays)
        .withFetchPolicy(fetchPolicy(allowFetch))
        .withVerification(verification(session, d.verification(), or(dataDir, d.dataDir())))
        .withAssignment(
            rotationMaxConsecutive == null
                ? d.assignment()
                : d.assignment().withDefaultRotation(new RotationTerms(rotationMaxConsecutive)))
        .withQualification(qualification(d.qualification()))
        .withCanaries(canaries == null ? null : canaryFile(canaries))
        .withObservability(observability());
  }

  /** The option's value, or the default when it is not given. */
  private static <T> T or(T given, T fallback) {
    return given != null ? given : fallback;
  }

  private NegotiationPolicy negotiation(NegotiationPolicy d) {
    return new NegotiationPolicy(
        or(negotiationMaxRounds, d.maxRounds()),
        or(negotiationMaxShift, d.maxShift()),
        priceBand != null ? priceBand.low() : d.priceBandLow(),
        priceBand != null ? priceBand.high() : d.priceBandHigh(),
        negotiationTimeout != null ? negotiationTimeout.toSeconds() : d.timeoutSeconds(),
        d.minClosedForMedian());
  }

  private EscrowConfig escrow(EscrowConfig d) throws UsageException, CliException {
    Map<String, URI> disputes = new LinkedHashMap<>();
    for (OptionValues.DisputeEndpoint given : disputeEndpoints) {
      if (disputes.put(given.protocol(), given.url()) != null) {
        throw new UsageException(
            "--dispute-endpoint names the protocol '" + given.protocol() + "' more than once");
      }
    }
    Set<Ed25519PublicKey> arbiters = new LinkedHashSet<>();
    for (Path file : arbiterKeys) {
      arbiters.add(publicKeyFile("--arbiter-key", file));
    }
    return new EscrowConfig(
        callbackUrlPrefixes.stream().map(URI::toString).toList(),
        or(x402Facilitator, d.x402Facilitator()),
        disputes,
        arbiters,
        or(deliveryTimeout, d.deliveryTimeout()),
        erc8183());
  }

  /** The ERC-8183 binding, or null (not offered) without --erc8183-rpc and --erc8183-key. */
  private Erc8183Settings erc8183() throws UsageException {
    if ((erc8183Rpc == null) != (erc8183Key == null)) {
      throw new UsageException(
          "--erc8183-rpc and --erc8183-key go together: the chain, and the key the server attests"
              + " with on it");
    }
    if (erc8183Rpc == null) {
      return null;
    }
    if (!Erc8183Settings.inThisBuild()) {
      throw new UsageException(
          "--erc8183-rpc: this lean build of asa leaves the ERC-8183 binding out; use the"
              + " default build");
    }
    Erc8183Settings settings =
        Erc8183Settings.of(erc8183Rpc, erc8183Key)
            .withConfirmations(or(erc8183Confirmations, Erc8183Settings.DEFAULT_CONFIRMATIONS));
    try {
      settings = settings.withContracts(new LinkedHashSet<>(erc8183Contracts));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--erc8183-contract: " + e.getMessage());
    }
    try {
      settings.attestorAddress(); // a bad key file is a usage error, before anything starts
    } catch (IllegalArgumentException e) {
      throw new UsageException("--erc8183-key: " + e.getMessage());
    }
    return settings;
  }

  private ReputationConfig reputation(ReputationConfig d) throws UsageException, CliException {
    Set<Ed25519PublicKey> trusted = new LinkedHashSet<>();
    for (OptionValues.PublicKeyOrFile given : arpTrust) {
      trusted.add(given.file() != null ? publicKeyFile("--arp-trust", given.file()) : given.key());
    }
    return new ReputationConfig(
        or(arpEndpoint, d.arpEndpoint()),
        trusted,
        arpWindowDays != null ? (int) arpWindowDays.toDays() : d.windowDays());
  }

  static FetchPolicy fetchPolicy(List<URI> allowFetch) {
    return new FetchPolicy(allowFetch.stream().map(URI::toString).toList());
  }

  /** The semantic evaluators, the LLM judge among them if one is given, and the code sandbox. */
  private VerificationConfig verification(Session session, VerificationConfig d, Path dataDir)
      throws UsageException, CliException {
    VerificationConfig standard =
        VerificationConfig.standard(
            judgeOptions.config(session), or(verificationWorkers, d.workers()));
    return codeSandbox == OptionValues.Switch.ON ? withCodeSandbox(standard, dataDir) : standard;
  }

  private QualificationPolicy qualification(QualificationPolicy d) {
    return new QualificationPolicy(
        or(qualifyMinEvaluations, d.minEvaluations()),
        or(qualifyCanaryPassRate, d.minCanaryPassRate()),
        or(qualifyMaxDeviation, d.maxDeviationPoints()),
        or(qualifyMinConsensus, d.minConsensusSamples()));
  }

  private static CanaryFile canaryFile(Path file) throws CliException {
    try {
      return CanaryFile.read(file);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage(), e);
    }
  }

  /** --log-format, --log-level, --metrics-port and --metrics-bind. */
  Observability observability() throws UsageException {
    Observability.Logging d = Observability.Logging.DEFAULTS;
    Observability o =
        Observability.DEFAULTS.withLogging(
            new Observability.Logging(or(logFormat, d.format()), or(logLevel, d.level())));
    if (metricsPort == null) {
      if (metricsBind != null) {
        throw new UsageException(
            "--metrics-bind needs --metrics-port: the address is the metrics port's");
      }
      return o;
    }
    return o.withMetrics(
        Observability.MetricsEndpoint.separate(
            or(metricsBind, Observability.MetricsEndpoint.DEFAULT_BIND), metricsPort));
  }

  private static Ed25519PublicKey publicKeyFile(String option, Path file)
      throws UsageException, CliException {
    return Inputs.publicKeyFile(option, file.toString());
  }

  /**
   * Start-up failures arrive wrapped (Jetty, JDBC); the innermost message is the one that explains.
   */
  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    return t == e ? message : e.getMessage() + " (" + message + ")";
  }

  /**
   * {@code --code-sandbox on}: the code evaluator runs tests in bubblewrap, with the server's data
   * directory hidden from them. Refused at start when the sandbox cannot run here, with the reason:
   * a server that said it runs tests and then could not would fail every code verification.
   */
  private static VerificationConfig withCodeSandbox(VerificationConfig v, Path dataDir)
      throws CliException {
    var availability = Sandbox.available();
    if (!availability.available()) {
      throw new CliException(
          "--code-sandbox on, but the sandbox cannot run here: "
              + availability.reason()
              + " (install bubblewrap: apt-get install bubblewrap; user namespaces must be allowed)");
    }
    var sandbox = Sandbox.create().hiding(List.of(dataDir.toAbsolutePath()));
    var limits = Limits.defaults();
    return v.withCodeSandbox(
        new SandboxTests(new TestRunner(sandbox), limits),
        "bubblewrap; per run: "
            + limits.wallClock().toSeconds()
            + " s wall clock, "
            + limits.cpuTime().toSeconds()
            + " s CPU, "
            + limits.memoryBytes() / (1024 * 1024)
            + " MiB memory, "
            + limits.processes()
            + " processes, no network");
  }
}
