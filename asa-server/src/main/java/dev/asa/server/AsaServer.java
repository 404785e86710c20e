package dev.asa.server;

import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.server.agreements.AgreementService;
import dev.asa.server.agreements.DeliverableFetcher;
import dev.asa.server.agreements.VerificationRunner;
import dev.asa.server.http.Requests;
import dev.asa.server.http.Routes;
import dev.asa.server.store.AgreementStore;
import dev.asa.server.store.Stores;
import io.javalin.Javalin;

/**
 * The composition root: builds the store, the services and the HTTP server from a
 * {@link ServerConfig}, by hand, in one place. No container, no reflection.
 */
public final class AsaServer implements AutoCloseable {
  private final AgreementStore store;
  private final Javalin http;

  private AsaServer(AgreementStore store, Javalin http) {
    this.store = store;
    this.http = http;
  }

  public static AsaServer start(ServerConfig config) {
    AgreementStore store = Stores.open(config.dbUrl(), config.dataDir());
    try {
      VerificationRunner verifier =
          new VerificationRunner(store, new StructuralEvaluator(), new DeliverableFetcher(config.maxBodyBytes()));
      AgreementService agreements = new AgreementService(store, config.clock(), verifier);
      Routes routes = new Routes(agreements, new Requests(store, config.maxBodyBytes()));
      Javalin http = Javalin.create(c -> {
        c.startup.showJavalinBanner = false;
        c.startup.showOldJavalinVersionWarning = false;
        c.http.maxRequestSize = config.maxBodyBytes();
        c.jetty.host = config.host();
        c.jetty.port = config.port();
        c.concurrency.useVirtualThreads = true;
        routes.register(c.routes);
      });
      http.start();
      return new AsaServer(store, http);
    } catch (RuntimeException e) {
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

  /** Where the data lives, as the store describes itself. */
  public String storeDescription() {
    return store.describe();
  }

  @Override
  public void close() {
    http.stop();
    store.close();
  }
}
