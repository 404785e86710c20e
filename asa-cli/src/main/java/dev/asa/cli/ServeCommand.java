package dev.asa.cli;

import dev.asa.agreement.RotationTerms;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.AsaServer;
import dev.asa.server.agreements.AssignmentConfig;
import dev.asa.server.config.Observability;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.erc8183.Erc8183Settings;
import dev.asa.server.evaluators.CanaryFile;
import dev.asa.server.reputation.ReputationConfig;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
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
import java.util.regex.Pattern;
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
              + "; 0 picks a free one); env ASA_PORT")
  String port;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "where the SQLite database lives (default ./asa-data); env ASA_DATA_DIR")
  String dataDir;

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
  String operatorKey;

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
          "rounds before a negotiation ends in REJECTED (default 5); env ASA_NEGOTIATION_MAX_ROUNDS")
  String negotiationMaxRounds;

  @Option(
      names = "--negotiation-max-shift",
      paramLabel = "F",
      description =
          "largest move of a numeric term per round, as a fraction (default 0.25); env ASA_NEGOTIATION_MAX_SHIFT")
  String negotiationMaxShift;

  @Option(
      names = "--price-band",
      paramLabel = "LOW,HIGH",
      description =
          "prices outside LOW..HIGH x the market median are flagged (default 0.5,3.0); env ASA_PRICE_BAND")
  String priceBand;

  @Option(
      names = "--negotiation-timeout",
      paramLabel = "SECONDS",
      description =
          "a negotiation with no message this long is rejected (default 3600); env ASA_NEGOTIATION_TIMEOUT")
  String negotiationTimeout;

  @Option(
      names = "--rate-limit",
      paramLabel = "N",
      description =
          "requests per second allowed per key (default 50, bursts of twice that); env ASA_RATE_LIMIT")
  String rateLimit;

  @Option(
      names = "--callback-url-prefix",
      paramLabel = "URL",
      description =
          "an http(s) URL prefix an http_callback escrow's webhook URL may start with; env ASA_CALLBACK_URL_PREFIX")
  List<String> callbackUrlPrefixes = new ArrayList<>();

  @Option(
      names = "--x402-facilitator",
      paramLabel = "URL",
      description =
          "the x402 facilitator's base URL; without it x402 escrows are refused; env ASA_X402_FACILITATOR")
  String x402Facilitator;

  @Option(
      names = "--erc8183-rpc",
      paramLabel = "URL",
      description =
          "the JSON-RPC URL of the chain whose ERC-8183 jobs this server attests as evaluator; with"
              + " --erc8183-key, erc8183 escrows are offered; env ASA_ERC8183_RPC")
  String erc8183Rpc;

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
          "blocks deep a funding, submission or settlement must be before it counts (default"
              + " ${DEFAULT-VALUE}); env ASA_ERC8183_CONFIRMATIONS")
  int erc8183Confirmations = Erc8183Settings.DEFAULT_CONFIRMATIONS;

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
          "where disputes under a dispute protocol are filed, e.g. ajp=https://disputes.example/ajp; env ASA_DISPUTE_ENDPOINT")
  List<String> disputeEndpoints = new ArrayList<>();

  @Option(
      names = "--code-sandbox",
      paramLabel = "on|off",
      description =
          "run the tests of code deliverables in a bubblewrap sandbox (no network, read-only system, CPU, memory, process and time limits); off by default, and then criteria that carry tests are refused; env ASA_CODE_SANDBOX")
  String codeSandbox;

  @Option(
      names = "--arbiter-key",
      paramLabel = "FILE",
      description =
          "a public key (as for --operator-key) that may rule on disputes besides the operator's; env ASA_ARBITER_KEY")
  List<String> arbiterKeys = new ArrayList<>();

  @Option(
      names = "--public-url",
      paramLabel = "URL",
      description =
          "a URL clients reach this server under, e.g. https://asa.example.com behind a TLS proxy (default: the listen address and its localhost forms); env ASA_PUBLIC_URL")
  List<String> publicUrls = new ArrayList<>();

  @Option(
      names = "--allow-fetch",
      paramLabel = "URL-PREFIX",
      description =
          "an internal URL prefix the server may fetch from or post to (by default internal addresses are refused); env ASA_ALLOW_FETCH")
  List<String> allowFetch = new ArrayList<>();

  @Option(
      names = "--rotation-max-consecutive",
      paramLabel = "N",
      description =
          "at most N consecutive deliveries of one provider per evaluator, for agreements whose verification.rotation sets none (default "
              + AssignmentConfig.DEFAULT_MAX_CONSECUTIVE
              + "); env ASA_ROTATION_MAX_CONSECUTIVE")
  String rotationMaxConsecutive;

  @Option(
      names = "--delivery-timeout",
      paramLabel = "SECONDS",
      description =
          "longest wait for one payment webhook or facilitator call (default 10); env ASA_DELIVERY_TIMEOUT")
  String deliveryTimeout;

  @Option(
      names = "--log-format",
      paramLabel = "text|json",
      description =
          "log lines for people (text) or one JSON object a line (default text); env ASA_LOG_FORMAT")
  String logFormat;

  @Option(
      names = "--log-level",
      paramLabel = "LEVEL",
      description = "error, warn, info, debug or trace (default info); env ASA_LOG_LEVEL")
  String logLevel;

  @Option(
      names = "--metrics-port",
      paramLabel = "N",
      description =
          "serve GET /metrics unauthenticated on this port of its own (default: on the main port, for the operator key); env ASA_METRICS_PORT")
  String metricsPort;

  @Option(
      names = "--metrics-bind",
      paramLabel = "H",
      description = "address of the metrics port (default 127.0.0.1); env ASA_METRICS_BIND")
  String metricsBind;

  @Option(
      names = "--verification-workers",
      paramLabel = "N",
      description = "semantic verifications run at once (default 2); env ASA_VERIFICATION_WORKERS")
  String verificationWorkers;

  @Option(
      names = "--qualify-min-evaluations",
      paramLabel = "N",
      description =
          "evaluations a pool evaluator needs to be assigned (default 50); env ASA_QUALIFY_MIN_EVALUATIONS")
  String qualifyMinEvaluations;

  @Option(
      names = "--qualify-canary-pass-rate",
      paramLabel = "F",
      description =
          "lowest canary pass rate of a pool evaluator, a fraction from 0 to 1 (default 0.90); env ASA_QUALIFY_CANARY_PASS_RATE")
  String qualifyCanaryPassRate;

  @Option(
      names = "--qualify-max-deviation",
      paramLabel = "POINTS",
      description =
          "largest mean calibration deviation of a pool evaluator, in score points (default 10); env ASA_QUALIFY_MAX_DEVIATION")
  String qualifyMaxDeviation;

  @Option(
      names = "--qualify-min-consensus",
      paramLabel = "N",
      description =
          "scores of real work compared with other evaluators' (on panels) before a pool evaluator leaves probation and may judge alone (default 12; 0: no probation); env ASA_QUALIFY_MIN_CONSENSUS")
  String qualifyMinConsensus;

  @Option(
      names = "--canaries",
      paramLabel = "FILE",
      description =
          "the canary set (a JSON array or JSON Lines of canaries), loaded at start in place of the stored one; env ASA_CANARIES")
  String canaries;

  @Option(
      names = "--arp-endpoint",
      paramLabel = "URL",
      description =
          "push each changed reputation aggregate (ARP v2 signals, signed) to this URL as a signed webhook, with retries; env ASA_ARP_ENDPOINT")
  String arpEndpoint;

  @Option(
      names = "--arp-trust",
      paramLabel = "KEY",
      description =
          "the public key (a key file, a base64url key or a did:key) of an ARP issuer whose signed signals POST /reputation/signals accepts and combines with this server's; repeatable; env ASA_ARP_TRUST")
  List<String> arpTrust = new ArrayList<>();

  @Option(
      names = "--arp-window-days",
      paramLabel = "DAYS",
      description =
          "how many days back the reputation aggregates look (default 365, as ARP's); env ASA_ARP_WINDOW_DAYS")
  String arpWindowDays;

  @Option(
      names = "--retention-days",
      paramLabel = "DAYS",
      description =
          "archive agreements that ended more than DAYS ago, every hour, into signed files under"
              + " DATA_DIR/archives (default: keep every agreement); env ASA_RETENTION_DAYS")
  String retentionDays;

  @Mixin JudgeOptions judgeOptions;

  /**
   * A dispute protocol's name as agreements write it in {@code dispute.protocol}: {@code ajp},
   * {@code kleros-v2}.
   */
  private static final Pattern PROTOCOL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  @Override
  public Integer call() throws Exception {
    Session session = new Session(Asa.of(spec).io(), null, null, false);
    ServerConfig defaults = ServerConfig.defaults();
    ServerConfig config =
        defaults
            .withHost(host != null ? host : defaults.host())
            .withPort(Inputs.intValue("--port", port, defaults.port(), 0, 65535))
            .withDataDir(dataDir != null ? Path.of(dataDir) : defaults.dataDir())
            .withDbUrl(db);
    if (operatorKey != null) {
      config = config.withOperatorKey(Inputs.publicKeyFile("--operator-key", operatorKey));
    }
    config = config.withNegotiationPolicy(negotiationPolicy(config.negotiationPolicy()));
    if (!marketSources.isEmpty()) {
      config = config.withTrustedMarketSources(Set.copyOf(marketSources));
    }
    if (rateLimit != null) {
      int perSecond = Inputs.intValue("--rate-limit", rateLimit, 50, 1, 1_000_000);
      config = config.withRateLimit(perSecond, perSecond * 2);
    }
    config = config.withEscrow(escrow(config.escrow()));
    config = config.withPublicUrls(publicUrls()).withFetchPolicy(fetchPolicy(allowFetch));
    if (rotationMaxConsecutive != null) {
      config =
          config.withAssignment(
              config
                  .assignment()
                  .withDefaultRotation(
                      new RotationTerms(
                          Inputs.intValue(
                              "--rotation-max-consecutive",
                              rotationMaxConsecutive,
                              AssignmentConfig.DEFAULT_MAX_CONSECUTIVE,
                              1,
                              RotationTerms.MAX))));
    }
    config =
        config.withVerification(
            dev.asa.server.evaluation.VerificationConfig.standard(
                judgeOptions.config(session),
                Inputs.intValue("--verification-workers", verificationWorkers, 2, 1, 64)));
    config = config.withVerification(codeSandbox(config));
    config = config.withQualification(qualification(config.qualification()));
    config = config.withObservability(observability());
    config = config.withReputation(reputation());
    if (retentionDays != null) {
      config =
          config.withRetention(
              java.time.Duration.ofDays(
                  Inputs.intValue("--retention-days", retentionDays, 365, 1, 36_500)));
    }
    if (canaries != null) {
      try {
        config = config.withCanaries(CanaryFile.read(Path.of(canaries)));
      } catch (IllegalArgumentException e) {
        throw new CliException(e.getMessage(), e);
      }
    }

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

  private NegotiationPolicy negotiationPolicy(NegotiationPolicy d) throws UsageException {
    try {
      BigDecimal low = d.priceBandLow();
      BigDecimal high = d.priceBandHigh();
      if (priceBand != null) {
        String[] parts = priceBand.split(",", -1);
        if (parts.length != 2) {
          throw new UsageException("--price-band takes LOW,HIGH such as 0.5,3.0");
        }
        low = new BigDecimal(parts[0].trim());
        high = new BigDecimal(parts[1].trim());
      }
      return new NegotiationPolicy(
          Inputs.intValue("--negotiation-max-rounds", negotiationMaxRounds, d.maxRounds(), 1, 100),
          negotiationMaxShift != null ? new BigDecimal(negotiationMaxShift) : d.maxShift(),
          low,
          high,
          negotiationTimeout != null
              ? Inputs.nonNegativeLong("--negotiation-timeout", negotiationTimeout)
              : d.timeoutSeconds(),
          d.minClosedForMedian());
    } catch (NumberFormatException e) {
      throw new UsageException(
          "--negotiation-max-shift and --price-band take decimal numbers such as 0.25 or 0.5,3.0");
    } catch (IllegalArgumentException e) {
      throw new UsageException("the negotiation settings are inconsistent: " + e.getMessage());
    }
  }

  /** The qualification bar, each bound named when it is out of range. */
  QualificationPolicy qualification(QualificationPolicy d) throws UsageException {
    return new QualificationPolicy(
        Inputs.intValue(
            "--qualify-min-evaluations", qualifyMinEvaluations, d.minEvaluations(), 0, 1_000_000),
        decimal(
            qualifyCanaryPassRate,
            "--qualify-canary-pass-rate",
            d.minCanaryPassRate(),
            BigDecimal.ONE,
            "a fraction from 0 to 1, such as 0.9 for 90%"),
        decimal(
            qualifyMaxDeviation,
            "--qualify-max-deviation",
            d.maxDeviationPoints(),
            BigDecimal.valueOf(100),
            "score points from 0 to 100, such as 10"),
        Inputs.intValue(
            "--qualify-min-consensus", qualifyMinConsensus, d.minConsensusSamples(), 0, 1_000_000));
  }

  private static BigDecimal decimal(
      String text, String option, BigDecimal fallback, BigDecimal max, String expected)
      throws UsageException {
    if (text == null) {
      return fallback;
    }
    try {
      BigDecimal value = new BigDecimal(text.strip());
      if (value.signum() >= 0 && value.compareTo(max) <= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(option + " must be " + expected + ", not '" + text + "'");
  }

  private EscrowConfig escrow(EscrowConfig d) throws UsageException, CliException {
    EscrowConfig escrow = d;
    if (!callbackUrlPrefixes.isEmpty()) {
      List<String> prefixes = new ArrayList<>();
      for (String prefix : callbackUrlPrefixes) {
        URI uri = httpUrl("--callback-url-prefix", prefix);
        // The server matches URLs by their text: without a path, https://pay.example would let in
        // https://pay.example.evil/.
        if (uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
          throw new UsageException(
              "--callback-url-prefix must end the host with a path, such as "
                  + prefix
                  + "/, not '"
                  + prefix
                  + "'");
        }
        prefixes.add(uri.toString());
      }
      escrow = escrow.withCallbackUrlPrefixes(prefixes);
    }
    if (x402Facilitator != null) {
      escrow = escrow.withX402Facilitator(httpUrl("--x402-facilitator", x402Facilitator));
    }
    if ((erc8183Rpc == null) != (erc8183Key == null)) {
      throw new UsageException(
          "--erc8183-rpc and --erc8183-key go together: the chain, and the key the server attests"
              + " with on it");
    }
    if (erc8183Rpc != null) {
      if (!Erc8183Settings.inThisBuild()) {
        throw new UsageException(
            "--erc8183-rpc: this lean build of asa leaves the ERC-8183 binding out; use the"
                + " default build");
      }
      if (erc8183Confirmations < 1) {
        throw new UsageException(
            "--erc8183-confirmations is at least 1, not " + erc8183Confirmations);
      }
      Erc8183Settings settings;
      try {
        settings =
            Erc8183Settings.of(httpUrl("--erc8183-rpc", erc8183Rpc), erc8183Key)
                .withConfirmations(erc8183Confirmations)
                .withContracts(new LinkedHashSet<>(erc8183Contracts));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--erc8183-contract: " + e.getMessage());
      }
      try {
        settings.attestorAddress(); // a bad key file is a usage error, before anything starts
      } catch (IllegalArgumentException e) {
        throw new UsageException("--erc8183-key: " + e.getMessage());
      }
      escrow = escrow.withErc8183(settings);
    }
    if (!disputeEndpoints.isEmpty()) {
      Map<String, URI> endpoints = new LinkedHashMap<>();
      for (String given : disputeEndpoints) {
        int eq = given.indexOf('=');
        String protocol = eq < 0 ? "" : given.substring(0, eq).strip();
        if (!PROTOCOL.matcher(protocol).matches()) {
          throw new UsageException(
              "--dispute-endpoint takes PROTOCOL=URL such as ajp=https://disputes.example/ajp, not '"
                  + given
                  + "'");
        }
        if (endpoints.put(
                protocol,
                httpUrl("--dispute-endpoint " + protocol, given.substring(eq + 1).strip()))
            != null) {
          throw new UsageException(
              "--dispute-endpoint names the protocol '" + protocol + "' more than once");
        }
      }
      escrow = escrow.withDisputeEndpoints(endpoints);
    }
    if (!arbiterKeys.isEmpty()) {
      Set<Ed25519PublicKey> arbiters = new LinkedHashSet<>();
      for (String file : arbiterKeys) {
        arbiters.add(Inputs.publicKeyFile("--arbiter-key", file));
      }
      escrow = escrow.withArbiterKeys(arbiters);
    }
    if (deliveryTimeout != null) {
      escrow =
          escrow.withDeliveryTimeout(
              Duration.ofSeconds(
                  Inputs.intValue("--delivery-timeout", deliveryTimeout, 0, 1, 3600)));
    }
    return escrow;
  }

  /**
   * --log-format, --log-level, --metrics-port and --metrics-bind (each also from its ASA_
   * variable).
   */
  Observability observability() throws UsageException {
    Observability.Logging logging;
    try {
      logging =
          new Observability.Logging(
              Observability.LogFormat.fromWire(logFormat == null ? "text" : logFormat),
              logLevel == null ? "info" : logLevel);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Observability o = Observability.DEFAULTS.withLogging(logging);
    if (metricsPort == null) {
      if (metricsBind != null) {
        throw new UsageException(
            "--metrics-bind needs --metrics-port: the address is the metrics port's");
      }
      return o;
    }
    int port = Inputs.intValue("--metrics-port", metricsPort, 0, 0, 65535);
    String bind = metricsBind == null ? Observability.MetricsEndpoint.DEFAULT_BIND : metricsBind;
    return o.withMetrics(Observability.MetricsEndpoint.separate(bind, port));
  }

  private dev.asa.server.config.PublicUrls publicUrls() throws UsageException {
    List<URI> urls = new ArrayList<>();
    for (String given : publicUrls) {
      URI uri = httpUrl("--public-url", given);
      String path = uri.getRawPath();
      if ((path != null && !path.isEmpty() && !"/".equals(path))
          || uri.getRawQuery() != null
          || uri.getRawFragment() != null) {
        throw new UsageException(
            "--public-url is a scheme and authority such as https://asa.example.com, with no path, not '"
                + given
                + "'");
      }
      urls.add(uri);
    }
    return new dev.asa.server.config.PublicUrls(urls);
  }

  static dev.asa.server.net.FetchPolicy fetchPolicy(List<String> allowFetch) throws UsageException {
    List<String> prefixes = new ArrayList<>();
    for (String given : allowFetch) {
      URI uri = httpUrl("--allow-fetch", given);
      if (uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
        throw new UsageException(
            "--allow-fetch must end the host with a path, such as "
                + given
                + "/, not '"
                + given
                + "'");
      }
      prefixes.add(uri.toString());
    }
    return new dev.asa.server.net.FetchPolicy(prefixes);
  }

  /** An absolute http(s) URL with a host: where the server will send requests. */
  private ReputationConfig reputation() throws UsageException, CliException {
    Set<Ed25519PublicKey> trusted = new LinkedHashSet<>();
    for (String given : arpTrust) {
      trusted.add(
          Files.isRegularFile(Path.of(given))
              ? Inputs.publicKeyFile("--arp-trust", given)
              : Inputs.publicKey("--arp-trust", given));
    }
    return new ReputationConfig(
        arpEndpoint == null ? null : httpUrl("--arp-endpoint", arpEndpoint),
        trusted,
        Inputs.intValue(
            "--arp-window-days", arpWindowDays, ReputationConfig.DEFAULTS.windowDays(), 1, 36_500));
  }

  static URI httpUrl(String option, String text) throws UsageException {
    try {
      URI uri = new URI(text);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new UsageException(
        option
            + " must be an http(s) URL with a host, such as https://payments.example/, not '"
            + text
            + "'");
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
  private dev.asa.server.evaluation.VerificationConfig codeSandbox(ServerConfig config)
      throws UsageException, CliException {
    String value = codeSandbox != null ? codeSandbox : "off";
    switch (value) {
      case "off" -> {
        return config.verification();
      }
      case "on" -> {}
      default -> throw new UsageException("--code-sandbox must be on or off, not '" + value + "'");
    }
    var availability = dev.asa.evaluators.code.sandbox.Sandbox.available();
    if (!availability.available()) {
      throw new CliException(
          "--code-sandbox on, but the sandbox cannot run here: "
              + availability.reason()
              + " (install bubblewrap: apt-get install bubblewrap; user namespaces must be allowed)");
    }
    var sandbox =
        dev.asa.evaluators.code.sandbox.Sandbox.create()
            .hiding(java.util.List.of(config.dataDir().toAbsolutePath()));
    var limits = dev.asa.evaluators.code.sandbox.Limits.defaults();
    return config
        .verification()
        .withCodeSandbox(
            new dev.asa.evaluators.code.SandboxTests(
                new dev.asa.evaluators.code.sandbox.TestRunner(sandbox), limits),
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
