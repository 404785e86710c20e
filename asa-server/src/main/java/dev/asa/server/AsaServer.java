package dev.asa.server;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.evaluators.AssertionJudge;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.server.agreements.AgreementService;
import dev.asa.server.agreements.CocChains;
import dev.asa.server.archive.ArchiveOperations;
import dev.asa.server.archive.ArchiveSchedule;
import dev.asa.server.archive.Archiver;
import dev.asa.server.config.Observability;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.Courier;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.Outbox;
import dev.asa.server.escrow.WebhookCourier;
import dev.asa.server.escrow.X402Facilitator;
import dev.asa.server.escrow.erc8183.Erc8183Chain;
import dev.asa.server.http.AccessLog;
import dev.asa.server.http.Admin;
import dev.asa.server.http.ApiReference;
import dev.asa.server.http.Authentication;
import dev.asa.server.http.BuildInfo;
import dev.asa.server.http.DeadlineHandler;
import dev.asa.server.http.Operations;
import dev.asa.server.http.ReadDeadlines;
import dev.asa.server.http.Requests;
import dev.asa.server.http.RouteInfo;
import dev.asa.server.http.Routes;
import dev.asa.server.logging.ActivityLog;
import dev.asa.server.logging.LogSetup;
import dev.asa.server.market.MarketData;
import dev.asa.server.metrics.HealthSummary;
import dev.asa.server.metrics.Metrics;
import dev.asa.server.metrics.MetricsServer;
import dev.asa.server.metrics.StoreGauges;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.pool.EvaluatorRegistry;
import dev.asa.server.pool.RegistryService;
import dev.asa.server.reputation.ArpCourier;
import dev.asa.server.reputation.Reputation;
import dev.asa.server.reputation.ReputationFeed;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.db.NonceTable;
import dev.asa.server.timers.DuePoller;
import dev.asa.server.timers.Timers;
import dev.asa.server.verification.DeliverableFetcher;
import dev.asa.server.verification.VerificationRunner;
import dev.asa.server.verification.VerificationService;
import dev.asa.server.verification.engine.JobRunner;
import dev.asa.server.verification.engine.ModelLoad;
import dev.asa.server.verification.engine.OfferedEvaluators;
import dev.asa.shadow.Judge;
import dev.asa.signedrequests.NonceCache;
import dev.asa.signedrequests.NonceRegistry;
import dev.asa.signedrequests.RateLimiter;
import dev.asa.signedrequests.RequestVerifier;
import io.javalin.Javalin;
import io.javalin.router.Endpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: builds the store, the services and the HTTP server from a {@link
 * ServerConfig}, by hand, in one place. No container, no reflection.
 */
public final class AsaServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AsaServer.class);

  /** How long a stopping server waits for requests in flight to finish. */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

  /** How long a starting server waits for the offline model (about a second, on two cores). */
  static final Duration MODEL_LOAD_PATIENCE = Duration.ofMinutes(2);

  private final Store store;
  private final Javalin http;
  private final Routes routes;
  private final Ed25519PublicKey serverKey;
  private final Timers timers;
  private final Outbox outbox;
  private final JobRunner jobs;
  private final GuardedHttpClient outbound;
  private final GracefulHandler inFlight;
  private final MetricsServer metricsServer;
  private final Instant startedAt = Instant.now();
  private final Erc8183Chain chain;
  private final Archiver archiver;
  private final DuePoller due;

  private AsaServer(
      Store store,
      Javalin http,
      Routes routes,
      Ed25519PublicKey serverKey,
      Timers timers,
      Outbox outbox,
      JobRunner jobs,
      GuardedHttpClient outbound,
      GracefulHandler inFlight,
      MetricsServer metricsServer,
      Erc8183Chain chain,
      Archiver archiver,
      DuePoller due) {
    this.chain = chain;
    this.archiver = archiver;
    this.due = due;
    this.inFlight = inFlight;
    this.metricsServer = metricsServer;
    this.jobs = jobs;
    this.outbound = outbound;
    this.store = store;
    this.http = http;
    this.routes = routes;
    this.serverKey = serverKey;
    this.timers = timers;
    this.outbox = outbox;
  }

  /**
   * Fires the timers due now (they are polled every second anyway); for tests that move the clock.
   */
  public int fireDueTimers() {
    return timers.pollOnce();
  }

  /**
   * Attempts the outbox messages due now (polled every second anyway); returns how many were
   * delivered.
   */
  public int deliverDueMessages() {
    return outbox.deliverDue();
  }

  /** The server's own public key (it signs the built-in evaluator's results). */
  public Ed25519PublicKey serverKey() {
    return serverKey;
  }

  public static AsaServer start(ServerConfig config) {
    return start(config, ReadDeadlines.DEFAULTS);
  }

  /**
   * As {@link #start(ServerConfig)}, with other deadlines for slow clients (tests shorten them).
   */
  public static AsaServer start(ServerConfig config, ReadDeadlines deadlines) {
    Observability observability = config.observability();
    if (observability.logging() != null) { // before anything logs
      LogSetup.apply(observability.logging());
    }
    // The offline model loads while the store opens, on a platform thread of its own, and the
    // server listens only once it has: nothing is served, /ready included, before the model is in.
    ModelLoad model = ModelLoad.start(config.verification().offered());
    Metrics metrics = new Metrics();
    Ed25519PrivateKey serverKey = ServerKey.loadOrCreate(config.dataDir());
    Store store = Stores.open(config.dbUrl(), config.dataDir(), new ActivityLog(metrics));
    // Every outbound request (deliverables, webhooks, facilitator, disputes) goes through this one.
    GuardedHttpClient outbound = new GuardedHttpClient(config.fetchPolicy());
    // What has started, to stop again (last first) if a later step fails: a start that throws
    // must not leave a port listening or threads running behind it (a metrics port in use, say).
    Deque<Runnable> started = new ArrayDeque<>();
    try {
      Reputation reputation =
          new Reputation(
              store.reputation(),
              serverKey,
              config.reputation().trusted(),
              config.reputation().windowDays(),
              config.clock());
      MarketData market =
          new MarketData(store.agreements(), config.negotiationPolicy(), reputation::agreementsOf);
      EvaluatorRegistry registry =
          new EvaluatorRegistry(
              store.evaluators(),
              store.canarySets(),
              store.writes(),
              config.qualification(),
              store.tasks()::canariesServed);
      if (config.canaries() != null) { // the file given at start-up replaces the stored set
        registry.loadCanaries(
            config.canaries().set(), config.canaries().source(), config.clock().instant());
      }
      registry.canaryShortfalls().forEach(log::warn);
      EscrowConfig escrow = config.escrow();
      X402Facilitator facilitator =
          escrow.x402Facilitator() == null
              ? null
              : new X402Facilitator(escrow.x402Facilitator(), escrow.deliveryTimeout(), outbound);
      Erc8183Chain chain = escrow.erc8183() == null ? null : Erc8183Chain.connect(escrow.erc8183());
      if (chain != null) {
        started.push(chain::close);
      }
      Enforcement enforcement =
          new Enforcement(
              store.ledger(),
              store.outbox(),
              Enforcement.bindings(
                  escrow, store.ledger(), facilitator, chain, store.chainTransactions()));
      OfferedEvaluators evaluators =
          config.verification().offered() == null
              ? null
              : config.verification().offered().timed(metrics);
      // Sealed "judged" criteria go to the LLM judge when one is configured.
      Judge assertionJudge =
          evaluators == null
              ? Judge.NONE
              : evaluators
                  .evaluator("agent_as_judge")
                  .<Judge>map(AssertionJudge::new)
                  .orElse(Judge.NONE);
      VerificationRunner verifier =
          new VerificationRunner(
              store,
              new StructuralEvaluator(),
              new DeliverableFetcher(outbound, config.maxBodyBytes()),
              serverKey,
              assertionJudge,
              metrics);
      JobRunner jobs =
          new JobRunner(store.jobs(), config.clock(), config.verification().workers(), metrics);
      started.push(jobs::close);
      AgreementService agreements =
          new AgreementService(
              store,
              config.clock(),
              verifier,
              serverKey.publicKey().toBase64Url(),
              market,
              config.negotiationPolicy(),
              config.trustedMarketSources(),
              enforcement,
              new Disputes(
                  store.verifications(),
                  store.events(),
                  escrow.disputeEndpoints(),
                  "asa:" + serverKey.publicKey().toBase64Url()),
              escrow.arbiterKeys(),
              evaluators,
              jobs,
              config.assignment(),
              registry,
              config.reputation().feed(),
              reputation,
              // A chain is bounded as a deliverable is: it could be sent inline no larger.
              new CocChains(outbound, config.maxBodyBytes()));
      VerificationService verifications =
          new VerificationService(
              store.writes(),
              store.idempotency(),
              store.jobs(),
              store.verifications(),
              config.clock(),
              agreements.engine(),
              agreements.queries()::requireReader,
              evaluators,
              jobs,
              new VerificationEngine(new StructuralEvaluator()),
              new DeliverableFetcher(outbound, config.maxBodyBytes()),
              serverKey.publicKey().toBase64Url());
      NonceCache nonceCache = new NonceCache(config.clock(), RequestVerifier.DEFAULT_MAX_SKEW);
      metrics.watch(new StoreGauges(store.statistics(), nonceCache::size, config.clock()));
      NonceTable nonceTable = store.nonces(config.clock(), RequestVerifier.DEFAULT_MAX_SKEW);
      Authentication auth =
          new Authentication(
              // Nonces are remembered in memory (a replay to this node never reaches the database)
              // and
              // in the database (so a replay after a restart, or to another node, is refused too).
              new RequestVerifier(
                  config.clock(),
                  RequestVerifier.DEFAULT_MAX_SKEW,
                  NonceRegistry.layered(nonceCache, nonceTable)),
              new RateLimiter(
                  config.clock(), config.requestsPerSecondPerKey(), config.burstPerKey()),
              new RateLimiter(
                  config.clock(), config.requestsPerSecondPerKey() * 10, config.burstPerKey() * 10),
              config.operatorKey(),
              config.publicUrls(),
              nonceTable::settlePending);
      Archiver archiver =
          new Archiver(
              store.archives(),
              serverKey,
              config.dataDir().resolve("archives"),
              config.clock(),
              Archiver.DEFAULT_BATCH);
      archiver.recover(); // closes what a killed run left unfinished
      BuildInfo build = BuildInfo.current();
      Admin admin = new Admin(config, serverKey.publicKey(), store.describe(), registry);
      Routes routes =
          new Routes(
              agreements,
              verifications,
              new RegistryService(registry, config.clock()),
              new Requests(store.idempotency()),
              auth,
              config.maxBodyBytes(),
              admin,
              market,
              reputation,
              new Operations(build, store::readiness),
              new ApiReference(build),
              observability.metrics().isSeparate() ? null : metrics,
              new HealthSummary(metrics, store.statistics(), config.clock()),
              new ArchiveOperations(archiver, store.archives(), config.clock()));
      AccessLog accessLog = new AccessLog(metrics);
      DeadlineHandler deadlined = new DeadlineHandler(deadlines);
      // Counts the requests in flight, so that stopping waits for them (up to DRAIN_TIMEOUT).
      GracefulHandler inFlight = new GracefulHandler();
      Javalin http =
          Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.startup.showOldJavalinVersionWarning = false;
            c.http.maxRequestSize = config.maxBodyBytes();
            // The buffer Javalin allocates for each answer to copy its bytes to Jetty's stream
            // (the output buffer's size, 32 KiB, by default): most answers are a few KiB, and that
            // allocation was a ninth of the server's. A larger answer is copied in more pieces.
            c.http.responseBufferSize = 4096;
            c.concurrency.useVirtualThreads = true;
            // Our own connector (instead of Javalin's default one) to bound how long a client may
            // take
            // to send a request; see DeadlineHandler.
            c.jetty.addConnector((server, httpConfig) -> {
              ServerConnector connector =
                  new ServerConnector(server, new HttpConnectionFactory(httpConfig));
              connector.setHost(config.host());
              connector.setPort(config.port());
              connector.setIdleTimeout(deadlines.head().toMillis());
              connector.addBean(deadlined.connections());
              return connector;
            });
            c.jetty.modifyServer(server -> {
              server.setErrorHandler(Routes.jettyErrorHandler());
              inFlight.setHandler(Objects.requireNonNull(server.getHandler(), "Javalin's handler"));
              deadlined.setHandler(inFlight);
              server.setHandler(deadlined);
              server.setStopTimeout(DRAIN_TIMEOUT.toMillis());
            });
            c.jetty.modifyServletContextHandler(
                context -> context.setErrorHandler(Routes.jettyErrorHandler()));
            accessLog.install(c);
            routes.register(c);
          });
      model.await(MODEL_LOAD_PATIENCE);
      http.start();
      started.push(http::stop);
      Timers timers =
          new Timers(store.timers(), config.clock(), agreements.timers()::fire, metrics);
      WebhookCourier webhooks =
          new WebhookCourier(serverKey, config.clock(), escrow.deliveryTimeout(), outbound);
      Courier chainCourier =
          chain == null
              ? null
              : Enforcement.chainCourier(chain, store.chainTransactions(), config.clock());
      Courier arp = new ArpCourier(reputation, serverKey, webhooks, config.clock());
      // x402 settlements go to the facilitator, ERC-8183 settlements to the chain; every other
      // message is a signed webhook.
      Outbox outbox =
          new Outbox(
              store.outbox(),
              config.clock(),
              message -> {
                if (message.kind().equals("x402.settle") && facilitator != null) {
                  return facilitator;
                }
                if (Enforcement.isChainMessage(message) && chainCourier != null) {
                  return chainCourier;
                }
                if (message.kind().equals(ReputationFeed.KIND)) {
                  return arp;
                }
                return webhooks;
              },
              metrics);
      // One poller for every kind of due work, each kind run on a thread of its own.
      List<DuePoller.Kind> dueWork = new ArrayList<>();
      if (config.pollTimers()) {
        dueWork.add(timers.due(Duration.ofSeconds(1)));
      }
      if (config.pollOutbox()) {
        dueWork.add(outbox.due(Duration.ofSeconds(1)));
      }
      if (config.retention() != null) {
        dueWork.add(
            ArchiveSchedule.due(
                archiver,
                config.retention(),
                config.clock(),
                Duration.ofMinutes(1),
                Duration.ofHours(1)));
      }
      DuePoller due = DuePoller.start(dueWork);
      started.push(due::close);
      if (evaluators != null) {
        verifications.resumeUnfinished(); // a restarted node finishes what it had started
      }
      MetricsServer metricsServer =
          observability.metrics().isSeparate()
              ? MetricsServer.start(
                  observability.metrics().bind(), observability.metrics().port(), metrics)
              : null;
      log.info(
          "asa server {} listening on {}:{}; store: {}; Ed25519 verification: {}; metrics: {}",
          build.version(),
          config.host(),
          http.port(),
          store.describe(),
          Ed25519PublicKey.verifier(),
          metricsServer == null
              ? "GET /metrics, signed by the operator key"
              : "http://"
                  + observability.metrics().bind()
                  + ":"
                  + metricsServer.port()
                  + "/metrics");
      return new AsaServer(
          store,
          http,
          routes,
          serverKey.publicKey(),
          timers,
          outbox,
          jobs,
          outbound,
          inFlight,
          metricsServer,
          chain,
          archiver,
          due);
    } catch (RuntimeException e) {
      for (Runnable stop : started) {
        try {
          stop.run();
        } catch (RuntimeException whileStopping) {
          e.addSuppressed(whileStopping);
        }
      }
      outbound.close();
      store.close();
      throw e;
    }
  }

  public int port() {
    return http.port();
  }

  public String url(String host) {
    return "http://" + host + ":" + port();
  }

  /**
   * The HTTP routes as Javalin has them registered, each carrying its declared {@link
   * dev.asa.server.http.Access} as a route role (for the test that walks them all).
   */
  public List<Endpoint> endpoints() {
    return http.unsafe.internalRouter.allHttpHandlers().stream()
        .map(parsed -> parsed.endpoint)
        .filter(e -> e.method.isHttpMethod())
        .toList();
  }

  /**
   * The routes as {@link Routes} registered them: method, path and access, in the table's order
   * (what the OpenAPI document must describe, route for route).
   */
  public List<RouteInfo> routes() {
    return routes.table();
  }

  /** Where the data lives, as the store describes itself. */
  public String storeDescription() {
    return store.describe();
  }

  /** The port of the separate metrics endpoint ({@code --metrics-port}), or -1 without one. */
  public int metricsPort() {
    return metricsServer == null ? -1 : metricsServer.port();
  }

  /**
   * Stops gracefully: stops accepting connections, lets the requests in flight finish (up to {@link
   * #DRAIN_TIMEOUT}), then stops the background work and closes the store, and says so in one log
   * line.
   */
  @Override
  public void close() {
    long began = System.nanoTime();
    long draining = inFlight.getCurrentRequestCount();
    http.stop(); // first: the requests in flight still use everything below
    // Before the store: a run ends after its batch and closes its file; then no new one starts.
    archiver.stop(Duration.ofSeconds(10));
    // Interrupts the timers' and the outbox's runs; waits for a retention run (up to 30 s).
    due.close();
    jobs.close();
    outbound.close(); // after the outbox and the jobs, which send through it
    if (chain != null) {
      chain.close(); // after the outbox, which sends through it
    }
    if (metricsServer != null) {
      metricsServer.close();
    }
    store.close();
    log.info(
        "asa server stopped in {} ms after {} s up; drained {} in-flight request(s)",
        Duration.ofNanos(System.nanoTime() - began).toMillis(),
        Duration.between(startedAt, Instant.now()).toSeconds(),
        draining);
  }
}
