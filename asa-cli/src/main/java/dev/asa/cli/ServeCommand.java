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
import dev.asa.server.evaluators.CanaryFile;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.regex.Pattern;

/** {@code asa serve}: runs the server in the foreground until SIGINT or SIGTERM. */
final class ServeCommand implements Command {

  private static final Usage USAGE =
      withJudge(
          Usage.of(
                  "serve",
                  "[--host H] [--port N] [--data-dir DIR] [--db URL] [--operator-key FILE]",
                  "Starts the ASA server and runs it until Ctrl-C or SIGTERM.\n"
                      + "With no options it listens on 127.0.0.1:8080 and keeps its data in SQLite under ./asa-data.")
              .option(
                  Option.value(
                      "--host",
                      "H",
                      "address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"))
              .option(
                  Option.value(
                      "--port",
                      "N",
                      "port to listen on (default "
                          + ServerConfig.DEFAULT_PORT
                          + "; 0 picks a free one)"))
              .option(
                  Option.value(
                      "--data-dir", "DIR", "where the SQLite database lives (default ./asa-data)"))
              .option(
                  Option.value(
                      "--db",
                      "URL",
                      "a PostgreSQL database instead, e.g. postgresql://user@127.0.0.1:5432/asa (default: $ASA_DB_URL)"))
              .option(
                  Option.value(
                      "--operator-key",
                      "FILE",
                      "the operator's public key (a key file, its public part, a base64url key or a did:key) for admin routes"))
              .option(
                  Option.repeated(
                      "--market-source",
                      "NAME",
                      "a market_reference source negotiations may cite for price bounds (repeatable)"))
              .option(
                  Option.value(
                      "--negotiation-max-rounds",
                      "N",
                      "rounds before a negotiation ends in REJECTED (default 5)"))
              .option(
                  Option.value(
                      "--negotiation-max-shift",
                      "F",
                      "largest move of a numeric term per round, as a fraction (default 0.25)"))
              .option(
                  Option.value(
                      "--price-band",
                      "LOW,HIGH",
                      "prices outside LOW..HIGH x the market median are flagged (default 0.5,3.0)"))
              .option(
                  Option.value(
                      "--negotiation-timeout",
                      "SECONDS",
                      "a negotiation with no message this long is rejected (default 3600)"))
              .option(
                  Option.value(
                      "--rate-limit",
                      "N",
                      "requests per second allowed per key (default 50, bursts of twice that)"))
              .option(
                  Option.repeated(
                      "--callback-url-prefix",
                      "URL",
                      "an http(s) URL prefix an http_callback escrow's webhook URL may start with"))
              .option(
                  Option.value(
                      "--x402-facilitator",
                      "URL",
                      "the x402 facilitator's base URL; without it x402 escrows are refused"))
              .option(
                  Option.repeated(
                      "--dispute-endpoint",
                      "PROTOCOL=URL",
                      "where disputes under a dispute protocol are filed, e.g. ajp=https://disputes.example/ajp"))
              .option(
                  Option.value(
                      "--code-sandbox",
                      "on|off",
                      "run the tests of code deliverables in a bubblewrap sandbox (no network, read-only system, CPU, memory, process and time limits); off by default, and then criteria that carry tests are refused"))
              .option(
                  Option.repeated(
                      "--arbiter-key",
                      "FILE",
                      "a public key (as for --operator-key) that may rule on disputes besides the operator's"))
              .option(
                  Option.repeated(
                      "--public-url",
                      "URL",
                      "a URL clients reach this server under, e.g. https://asa.example.com behind a TLS proxy (repeatable; default: the listen address and its localhost forms)"))
              .option(
                  Option.repeated(
                      "--allow-fetch",
                      "URL-PREFIX",
                      "an internal URL prefix the server may fetch from or post to (repeatable; by default internal addresses are refused)"))
              .option(
                  Option.value(
                      "--rotation-max-consecutive",
                      "N",
                      "at most N consecutive deliveries of one provider per evaluator, for agreements whose verification.rotation sets none (default "
                          + AssignmentConfig.DEFAULT_MAX_CONSECUTIVE
                          + ")"))
              .option(
                  Option.value(
                      "--delivery-timeout",
                      "SECONDS",
                      "longest wait for one payment webhook or facilitator call (default "
                          + EscrowConfig.DEFAULTS.deliveryTimeout().toSeconds()
                          + ")"))
              .option(
                  Option.value(
                      "--log-format",
                      "text|json",
                      "log lines for people (text) or one JSON object a line (default text; $ASA_LOG_FORMAT)"))
              .option(
                  Option.value(
                      "--log-level",
                      "LEVEL",
                      "error, warn, info, debug or trace (default info; $ASA_LOG_LEVEL)"))
              .option(
                  Option.value(
                      "--metrics-port",
                      "N",
                      "serve GET /metrics unauthenticated on this port of its own (default: on the main port, for the operator key; $ASA_METRICS_PORT)"))
              .option(
                  Option.value(
                      "--metrics-bind",
                      "H",
                      "address of the metrics port (default 127.0.0.1; $ASA_METRICS_BIND)")));

  private static Usage withJudge(Usage usage) {
    Usage u =
        usage
            .option(
                Option.value(
                    "--verification-workers",
                    "N",
                    "semantic verifications run at once (default 2)"))
            .option(
                Option.value(
                    "--qualify-min-evaluations",
                    "N",
                    "evaluations a pool evaluator needs to be assigned (default "
                        + QualificationPolicy.DEFAULTS.minEvaluations()
                        + ")"))
            .option(
                Option.value(
                    "--qualify-canary-pass-rate",
                    "F",
                    "lowest canary pass rate of a pool evaluator, a fraction from 0 to 1 (default "
                        + QualificationPolicy.DEFAULTS.minCanaryPassRate().toPlainString()
                        + ")"))
            .option(
                Option.value(
                    "--qualify-max-deviation",
                    "POINTS",
                    "largest mean calibration deviation of a pool evaluator, in score points (default "
                        + QualificationPolicy.DEFAULTS.maxDeviationPoints().toPlainString()
                        + ")"))
            .option(
                Option.value(
                    "--canaries",
                    "FILE",
                    "the canary set (a JSON array or JSON Lines of canaries), loaded at start in place of the stored one"));
    for (Option o : JudgeOptions.options()) {
      u = u.option(o);
    }
    return u;
  }

  /**
   * A dispute protocol's name as agreements write it in {@code dispute.protocol}: {@code ajp},
   * {@code kleros-v2}.
   */
  private static final Pattern PROTOCOL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    ServerConfig defaults = ServerConfig.defaults();
    ServerConfig config =
        defaults
            .withHost(args.value("--host", defaults.host()))
            .withPort(args.intValue("--port", defaults.port(), 0, 65535))
            .withDataDir(
                args.has("--data-dir") ? Path.of(args.value("--data-dir")) : defaults.dataDir())
            .withDbUrl(args.value("--db", session.env("ASA_DB_URL")));
    if (args.has("--operator-key")) {
      config =
          config.withOperatorKey(
              Inputs.publicKeyFile("--operator-key", args.value("--operator-key")));
    }
    config = config.withNegotiationPolicy(negotiationPolicy(args, config.negotiationPolicy()));
    if (args.has("--market-source")) {
      config =
          config.withTrustedMarketSources(java.util.Set.copyOf(args.values("--market-source")));
    }
    if (args.has("--rate-limit")) {
      int perSecond = args.intValue("--rate-limit", 50, 1, 1_000_000);
      config = config.withRateLimit(perSecond, perSecond * 2);
    }
    config = config.withEscrow(escrow(args, config.escrow()));
    config = config.withPublicUrls(publicUrls(args)).withFetchPolicy(fetchPolicy(args));
    if (args.has("--rotation-max-consecutive")) {
      config =
          config.withAssignment(
              config
                  .assignment()
                  .withDefaultRotation(
                      new RotationTerms(
                          args.intValue(
                              "--rotation-max-consecutive",
                              AssignmentConfig.DEFAULT_MAX_CONSECUTIVE,
                              1,
                              RotationTerms.MAX))));
    }
    config =
        config.withVerification(
            dev.asa.server.evaluation.VerificationConfig.standard(
                JudgeOptions.config(args, session),
                args.intValue("--verification-workers", 2, 1, 64)));
    config = config.withVerification(codeSandbox(args, config));
    config = config.withQualification(qualification(args, config.qualification()));
    if (args.has("--canaries")) {
      try {
        config = config.withCanaries(CanaryFile.read(Path.of(args.value("--canaries"))));
      } catch (IllegalArgumentException e) {
        throw new CliException(e.getMessage(), e);
      }
    }

    config = config.withObservability(observability(args, session::env));

    AsaServer server;
    try {
      server = AsaServer.start(config);
    } catch (RuntimeException e) {
      throw new CliException("could not start the server: " + rootMessage(e), e);
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
    return 0;
  }

  /**
   * --log-format, --log-level, --metrics-port, --metrics-bind, each defaulting to its ASA_
   * variable.
   */
  static Observability observability(Arguments args, Function<String, String> env)
      throws UsageException {
    Observability.Logging logging;
    try {
      logging =
          new Observability.Logging(
              Observability.LogFormat.fromWire(
                  args.value("--log-format", envOr(env, "ASA_LOG_FORMAT", "text"))),
              args.value("--log-level", envOr(env, "ASA_LOG_LEVEL", "info")));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Observability o = Observability.DEFAULTS.withLogging(logging);
    String port = args.value("--metrics-port", env.apply("ASA_METRICS_PORT"));
    if (port == null) {
      return o;
    }
    int n;
    try {
      n = Integer.parseInt(port.trim());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 0 || n > 65535) {
      throw new UsageException("--metrics-port must be a port number 0..65535, not '" + port + "'");
    }
    String bind =
        args.value(
            "--metrics-bind",
            envOr(env, "ASA_METRICS_BIND", Observability.MetricsEndpoint.DEFAULT_BIND));
    return o.withMetrics(Observability.MetricsEndpoint.separate(bind, n));
  }

  private static String envOr(Function<String, String> env, String name, String fallback) {
    String v = env.apply(name);
    return v == null || v.isBlank() ? fallback : v;
  }

  private static NegotiationPolicy negotiationPolicy(Arguments args, NegotiationPolicy d)
      throws UsageException {
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
          args.has("--negotiation-max-shift")
              ? new BigDecimal(args.value("--negotiation-max-shift"))
              : d.maxShift(),
          low,
          high,
          args.has("--negotiation-timeout")
              ? Inputs.nonNegativeLong("--negotiation-timeout", args.value("--negotiation-timeout"))
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
  static QualificationPolicy qualification(Arguments args, QualificationPolicy d)
      throws UsageException {
    return new QualificationPolicy(
        args.intValue("--qualify-min-evaluations", d.minEvaluations(), 0, 1_000_000),
        decimal(
            args,
            "--qualify-canary-pass-rate",
            d.minCanaryPassRate(),
            BigDecimal.ONE,
            "a fraction from 0 to 1, such as 0.9 for 90%"),
        decimal(
            args,
            "--qualify-max-deviation",
            d.maxDeviationPoints(),
            BigDecimal.valueOf(100),
            "score points from 0 to 100, such as 10"));
  }

  private static BigDecimal decimal(
      Arguments args, String option, BigDecimal fallback, BigDecimal max, String expected)
      throws UsageException {
    String text = args.value(option);
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

  private static EscrowConfig escrow(Arguments args, EscrowConfig d)
      throws UsageException, CliException {
    EscrowConfig escrow = d;
    if (args.has("--callback-url-prefix")) {
      List<String> prefixes = new ArrayList<>();
      for (String prefix : args.values("--callback-url-prefix")) {
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
    if (args.has("--x402-facilitator")) {
      escrow =
          escrow.withX402Facilitator(
              httpUrl("--x402-facilitator", args.value("--x402-facilitator")));
    }
    if (args.has("--dispute-endpoint")) {
      Map<String, URI> endpoints = new LinkedHashMap<>();
      for (String given : args.values("--dispute-endpoint")) {
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
    if (args.has("--arbiter-key")) {
      Set<Ed25519PublicKey> arbiters = new LinkedHashSet<>();
      for (String file : args.values("--arbiter-key")) {
        arbiters.add(Inputs.publicKeyFile("--arbiter-key", file));
      }
      escrow = escrow.withArbiterKeys(arbiters);
    }
    if (args.has("--delivery-timeout")) {
      escrow =
          escrow.withDeliveryTimeout(
              Duration.ofSeconds(args.intValue("--delivery-timeout", 0, 1, 3600)));
    }
    return escrow;
  }

  private static dev.asa.server.config.PublicUrls publicUrls(Arguments args) throws UsageException {
    List<URI> urls = new ArrayList<>();
    for (String given :
        args.has("--public-url") ? args.values("--public-url") : List.<String>of()) {
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

  static dev.asa.server.net.FetchPolicy fetchPolicy(Arguments args) throws UsageException {
    List<String> prefixes = new ArrayList<>();
    for (String given :
        args.has("--allow-fetch") ? args.values("--allow-fetch") : List.<String>of()) {
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
  private static dev.asa.server.evaluation.VerificationConfig codeSandbox(
      Arguments args, ServerConfig config) throws UsageException, CliException {
    String value = args.has("--code-sandbox") ? args.value("--code-sandbox") : "off";
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
