package dev.asa.server.http;

import static dev.asa.server.http.Access.OPERATOR;
import static dev.asa.server.http.Access.PUBLIC;
import static dev.asa.server.http.Access.SIGNED;
import static dev.asa.server.http.Access.SIGNED_OR_PUBLIC_RESULT;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.agreement.AgreementSchemas;
import dev.asa.agreement.Identity;
import dev.asa.json.Json;
import dev.asa.server.agreements.AgreementCommands;
import dev.asa.server.agreements.AgreementQueries;
import dev.asa.server.agreements.AgreementService;
import dev.asa.server.agreements.Anchoring;
import dev.asa.server.agreements.DisputeCommands;
import dev.asa.server.agreements.Forensics;
import dev.asa.server.archive.ArchiveOperations;
import dev.asa.server.escrow.x402.X402;
import dev.asa.server.market.MarketData;
import dev.asa.server.metrics.HealthSummary;
import dev.asa.server.metrics.Metrics;
import dev.asa.server.pool.RegistryService;
import dev.asa.server.reputation.Reputation;
import dev.asa.server.store.agreements.AgreementFilter;
import dev.asa.server.verification.EvaluatorQueue;
import dev.asa.server.verification.VerificationFlow;
import dev.asa.server.verification.VerificationService;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.Outcome;
import dev.asa.template.Template;
import dev.asa.template.Templates;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.List;

/**
 * The HTTP API on one screen: section 4.3's eleven endpoints, the event log, the verification
 * result, close, templates, schemas, the server key, the evaluator registry and the admin routes.
 * Each route is one row: method, path, who may call it ({@link Access}, checked by {@link
 * AccessGate} before the handler runs) and the handler. Handlers only read the request and render
 * the answer; {@link AgreementService} and the core decide, including which signed caller may act
 * on an agreement.
 */
public final class Routes {
  private final AgreementQueries queries;
  private final AgreementCommands commands;
  private final DisputeCommands disputeCommands;
  private final Anchoring anchoring;
  private final VerificationFlow verificationFlow;
  private final Requests requests;
  private final AccessGate gate;
  private final Admin admin;
  private final MarketData market;
  private final Reputation reputation;
  private final VerificationService verifications;
  private final RegistryService registry;
  private final EvaluatorQueue queue;
  private final Forensics forensics;
  private final Operations operations;
  private final ApiReference reference;
  private final Console console = new Console();
  private List<RouteInfo> table = List.of();
  private final Metrics metrics;
  private final HealthSummary health;
  private final ArchiveOperations archives;

  /**
   * @param metrics served at {@code GET /metrics} for the operator key; null when the metrics have
   *     a port of their own ({@code --metrics-port})
   * @param health served at {@code GET /admin/health} for the operator key, wherever the metrics
   *     are served
   */
  public Routes(
      AgreementService agreements,
      VerificationService verifications,
      RegistryService registry,
      Requests requests,
      Authentication auth,
      long maxBodyBytes,
      Admin admin,
      MarketData market,
      Reputation reputation,
      Operations operations,
      ApiReference reference,
      Metrics metrics,
      HealthSummary health,
      ArchiveOperations archives) {
    this.queries = agreements.queries();
    this.commands = agreements.commands();
    this.disputeCommands = agreements.disputes();
    this.anchoring = agreements.anchoring();
    this.verificationFlow = agreements.verifications();
    this.queue = agreements.queue();
    this.forensics = agreements.forensics();
    this.verifications = verifications;
    this.registry = registry;
    this.requests = requests;
    this.gate = new AccessGate(auth, maxBodyBytes);
    this.admin = admin;
    this.market = market;
    this.reputation = reputation;
    this.operations = operations;
    this.reference = reference;
    this.metrics = metrics;
    this.health = health;
    this.archives = archives;
  }

  /**
   * The root is where a person lands who typed the server's address into a browser: send them to
   * the console (a program has nothing to find here, and the redirect's body says where to go).
   */
  private static void toConsole(Context ctx) {
    ctx.header("Location", "/console");
    ctx.contentType("text/plain; charset=utf-8");
    ctx.status(302).result("The console is at /console, the API reference at /docs.\n");
  }

  public void register(JavalinConfig config) {
    Problems.register(config.routes);
    RouteTable r = gate.install(config);
    r.get("/", PUBLIC, Routes::toConsole);
    r.get("/health", PUBLIC, ctx -> json(ctx, 200, Json.object().put("status", "ok")));
    r.get("/ready", PUBLIC, ctx -> json(ctx, 200, operations.ready()));
    r.get("/version", PUBLIC, ctx -> json(ctx, 200, operations.version()));
    r.get("/openapi.json", PUBLIC, reference::serveDocument);
    r.get("/docs", PUBLIC, reference::servePage);
    r.get("/docs/assets/{file}", PUBLIC, reference::serveAsset);
    r.get("/console", PUBLIC, console::servePage);
    r.get("/console/assets/{file}", PUBLIC, console::serveAsset);
    r.get("/templates", PUBLIC, this::listTemplates);
    r.get(
        "/templates/{type}",
        PUBLIC,
        ctx -> json(ctx, 200, template(ctx.pathParam("type")).toJson()));
    r.get("/schemas/asa/{version}/agreement.json", PUBLIC, this::schema);
    r.get("/.well-known/asa/server-key", PUBLIC, ctx -> json(ctx, 200, admin.serverKey()));

    r.post(
        "/agreements",
        SIGNED,
        ctx -> requests.mutation(ctx, CommandBodies::document, commands::create));
    r.get("/agreements", SIGNED, this::list);
    // Before /agreements/{id}, which would otherwise take "counts" for an id.
    r.get("/agreements/counts", SIGNED, this::counts);
    r.get(
        "/agreements/{id}",
        SIGNED,
        ctx -> {
          var envelope = queries.get(id(ctx), caller(ctx));
          ctx.header("ETag", "\"" + envelope.path("version").asLong() + "\"");
          json(ctx, 200, envelope);
        });
    r.get(
        "/agreements/{id}/status",
        SIGNED,
        ctx -> json(ctx, 200, queries.status(id(ctx), caller(ctx))));
    r.get(
        "/agreements/{id}/events",
        SIGNED,
        ctx -> json(ctx, 200, queries.events(id(ctx), caller(ctx))));
    // The full trail for the dispute body (operator, arbiters); a party sees its own parts.
    r.get(
        "/agreements/{id}/forensics",
        SIGNED,
        ctx -> json(ctx, 200, forensics.trail(id(ctx), caller(ctx))));
    r.get(
        "/agreements/{id}/negotiation",
        SIGNED,
        ctx -> json(ctx, 200, queries.negotiationTranscript(id(ctx), caller(ctx))));
    r.get(
        "/agreements/{id}/verification",
        SIGNED_OR_PUBLIC_RESULT,
        ctx -> json(ctx, 200, queries.verification(id(ctx), AccessGate.callerIfSigned(ctx))));
    r.patch(
        "/agreements/{id}/negotiate",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx, CommandBodies::negotiate, (b, c, t) -> commands.negotiate(id(ctx), b, c, t)));
    r.post(
        "/agreements/{id}/sign",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx, CommandBodies::sign, (b, c, t) -> commands.sign(id(ctx), b, c, t)));
    r.post(
        "/agreements/{id}/deliver",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx, CommandBodies::deliver, (b, c, t) -> commands.deliver(id(ctx), b, c, t)));
    r.post(
        "/agreements/{id}/verify",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx,
                CommandBodies::verify,
                (b, c, t) -> verificationFlow.verify(id(ctx), b, c, t)));
    r.post(
        "/agreements/{id}/challenge",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx,
                CommandBodies::challenge,
                (b, c, t) -> disputeCommands.challenge(id(ctx), b, c, t)));
    r.post(
        "/agreements/{id}/close",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx, CommandBodies::none, (b, c, t) -> commands.close(id(ctx), c, t)));
    r.post(
        "/agreements/{id}/fund",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx,
                body -> CommandBodies.fund(body, ctx.header(X402.PAYMENT_SIGNATURE_HEADER)),
                (b, c, t) -> {
                  Outcome funded = commands.fund(id(ctx), b, c, t);
                  if (b.bindingPayload().has("x402")) {
                    ctx.header(
                        X402.PAYMENT_RESPONSE_HEADER,
                        X402.header(X402.fundedResponse(b.bindingPayload().get("x402"))));
                  }
                  return funded;
                }));
    r.post(
        "/agreements/{id}/collateral",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx,
                CommandBodies::stake,
                (b, c, t) -> commands.stakeCollateral(id(ctx), b, c, t)));
    r.post(
        "/agreements/{id}/ruling",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx, CommandBodies::ruling, (b, c, t) -> disputeCommands.rule(id(ctx), b, c, t)));
    r.post(
        "/agreements/{id}/seal",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx, CommandBodies::seal, (b, c, t) -> commands.seal(id(ctx), b, c, t)));
    r.get(
        "/agreements/{id}/seal",
        SIGNED,
        ctx -> json(ctx, 200, queries.sealOf(id(ctx), caller(ctx))));
    r.get(
        "/agreements/{id}/anchor",
        SIGNED,
        ctx -> json(ctx, 200, anchoring.anchor(id(ctx), caller(ctx))));
    r.post(
        "/agreements/{id}/anchor",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx, CommandBodies::anchor, (b, c, t) -> anchoring.record(id(ctx), b, c, t)));
    r.get(
        "/agreements/{id}/hardening",
        SIGNED,
        ctx -> json(ctx, 200, queries.hardening(id(ctx), caller(ctx))));
    r.get(
        "/agreements/{id}/escrow",
        SIGNED,
        ctx -> json(ctx, 200, queries.escrow(id(ctx), caller(ctx))));
    r.get(
        "/accounts/{key}",
        SIGNED,
        ctx ->
            json(
                ctx,
                200,
                queries.account(
                    TextParameters.path(ctx, "key"),
                    Requests.intParam(ctx, "limit", 100, 1, 1000),
                    caller(ctx))));

    r.post(
        "/shadow/seals",
        SIGNED,
        ctx -> requests.mutation(ctx, CommandBodies::seal, commands::sealStandalone));
    r.post(
        "/shadow/seals/{id}/validate",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx,
                CommandBodies::validate,
                (b, c, t) -> commands.validateStandalone(id(ctx), b, c, t)));
    r.get(
        "/shadow/seals/{id}/report",
        SIGNED,
        ctx -> json(ctx, 200, queries.standaloneReport(id(ctx), caller(ctx))));

    r.post(
        "/verifications",
        SIGNED,
        ctx -> requests.mutation(ctx, CommandBodies::document, verifications::create));
    r.get(
        "/verifications/{id}", SIGNED, ctx -> render(ctx, verifications.get(id(ctx), caller(ctx))));
    r.get(
        "/verifications/{id}/status",
        SIGNED,
        ctx -> json(ctx, 200, verifications.status(id(ctx), caller(ctx))));

    // Any signed caller: aggregates only, no agreement's details.
    r.get(
        "/market/{service_type}",
        SIGNED,
        ctx -> json(ctx, 200, market.describe(TextParameters.path(ctx, "service_type"))));

    // Reputation is published on purpose (whitepaper 9.2): anyone reads it, unsigned. Foreign
    // signals carry their own signatures, checked against the keys the operator trusts; the
    // request is signed so that it is limited per key like every write.
    r.get("/reputation", PUBLIC, ctx -> json(ctx, 200, reputation.describe(subject(ctx))));
    r.post(
        "/reputation/signals",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx, body -> body, (b, c, t) -> new Outcome(200, reputation.accept(b))));

    // The evaluator registry: an evaluator registers itself (signed with its own key); any signed
    // caller reads it, what names parties for the evaluator itself and the operator only; the
    // operator suspends, reinstates and loads the canary set.
    r.post(
        "/evaluators",
        SIGNED,
        ctx -> requests.mutation(ctx, CommandBodies::document, registry.registrations()::register));
    r.get("/evaluators", SIGNED, this::listEvaluators);
    r.get(
        "/evaluators/{key}",
        SIGNED,
        ctx -> json(ctx, 200, registry.reads().one(TextParameters.key(ctx, "key"), caller(ctx))));
    r.post(
        "/evaluators/{key}/suspend",
        OPERATOR,
        ctx ->
            requests.mutation(
                ctx,
                CommandBodies::suspension,
                (b, c, t) ->
                    registry.standings().suspend(TextParameters.key(ctx, "key"), b, c, t)));
    r.post(
        "/evaluators/{key}/reinstate",
        OPERATOR,
        ctx ->
            requests.mutation(
                ctx,
                CommandBodies::none,
                (b, c, t) -> registry.standings().reinstate(TextParameters.key(ctx, "key"), c, t)));

    // The evaluator work queue: an evaluator, signed with its own key, lists its open tasks (real
    // work and canaries alike) and answers each.
    r.get("/evaluator/tasks", SIGNED, ctx -> json(ctx, 200, queue.list(caller(ctx))));
    r.post(
        "/evaluator/tasks/{task_id}/result",
        SIGNED,
        ctx ->
            requests.mutation(
                ctx,
                CommandBodies::taskAnswer,
                (b, c, t) -> queue.submit(TextParameters.path(ctx, "task_id"), b, c, t)));

    r.get("/admin/config", OPERATOR, ctx -> json(ctx, 200, admin.config()));
    r.get("/admin/health", OPERATOR, ctx -> json(ctx, 200, health.summary()));
    if (metrics != null) {
      r.get(
          "/metrics",
          OPERATOR,
          ctx -> {
            ctx.contentType(Metrics.CONTENT_TYPE);
            ctx.result(metrics.scrape());
          });
    }
    // Archival after retention: a run moves ended agreements into a signed file on this node.
    r.post(
        "/admin/archive",
        OPERATOR,
        ctx ->
            requests.mutation(
                ctx,
                body -> CommandBodies.archive(body, archives.now()),
                (b, c, t) -> archives.start(b)));
    r.get(
        "/admin/archives",
        OPERATOR,
        ctx -> json(ctx, 200, archives.list(Requests.intParam(ctx, "limit", 50, 1, 500))));
    r.get(
        "/admin/archives/{name}",
        OPERATOR,
        ctx -> json(ctx, 200, archives.one(TextParameters.path(ctx, "name"))));
    r.get(
        "/admin/archives/{name}/file",
        OPERATOR,
        ctx -> {
          var file = archives.file(TextParameters.path(ctx, "name"));
          ctx.contentType("application/x-ndjson");
          ctx.header("Content-Length", Long.toString(java.nio.file.Files.size(file)));
          ctx.result(java.nio.file.Files.newInputStream(file));
        });
    r.put(
        "/admin/canaries",
        OPERATOR,
        ctx ->
            requests.mutation(
                ctx, CommandBodies::canaries, (b, c, t) -> registry.canaries().load(b, c)));
    table = r.rows();
  }

  /** The identity a reputation query names: {@code ?scheme=S&value=V}. */
  private static Identity subject(Context ctx) {
    return new Identity(
        TextParameters.required(ctx, "scheme", 64),
        TextParameters.required(ctx, "value", 2048),
        null);
  }

  /** The routes {@link #register} registered, in the order of the table (empty before). */
  public List<RouteInfo> table() {
    return table;
  }

  /** Jetty's own errors (bad URIs, oversized headers) as problem+json too. */
  public static org.eclipse.jetty.server.Request.Handler jettyErrorHandler() {
    return new ProblemErrorHandler();
  }

  private static Caller caller(Context ctx) {
    return AccessGate.caller(ctx);
  }

  private static String id(Context ctx) {
    return TextParameters.path(ctx, "id");
  }

  private void listTemplates(Context ctx) {
    ArrayNode list = Json.mapper().createArrayNode();
    for (Template t : Templates.all()) {
      list.add(t.toJson());
    }
    json(ctx, 200, Json.object().set("templates", list));
  }

  private static Template template(String type) {
    return Templates.get(type)
        .orElseThrow(() ->
            new NotFoundException(
                "no template '" + type + "'; available: " + String.join(", ", Templates.TYPES)));
  }

  private void schema(Context ctx) {
    String version = ctx.pathParam("version");
    JsonNode schema;
    try {
      schema = AgreementSchemas.schemaJson(version);
    } catch (IllegalArgumentException e) {
      throw new NotFoundException(
          "no schema for asa_version '" + version + "'; this server serves 1.0.0");
    }
    ctx.contentType("application/schema+json");
    ctx.result(Json.writeBytes(schema));
  }

  /**
   * {@code GET /agreements}: one page of the agreements the caller may read, filtered ({@link
   * ListFilters}); {@code party} is required but for the operator, who without it lists them all.
   */
  private void list(Context ctx) {
    Caller caller = caller(ctx);
    String party = party(ctx, caller, "GET /agreements");
    AgreementFilter filter = ListFilters.of(ctx);
    int limit = Requests.intParam(ctx, "limit", 50, 1, 200);
    try {
      json(ctx, 200, queries.list(party, filter, ctx.queryParam("cursor"), limit, caller));
    } catch (IllegalArgumentException e) { // the store's answer to a cursor it did not issue
      throw ListFilters.invalid(
          "cursor",
          "cursor is not one this server issued; start again without it and follow next_cursor");
    }
  }

  /** {@code GET /agreements/counts}: the listing's agreements counted by state. */
  private void counts(Context ctx) {
    Caller caller = caller(ctx);
    String party = party(ctx, caller, "GET /agreements/counts");
    json(ctx, 200, queries.counts(party, ListFilters.ofAnyState(ctx), caller));
  }

  /** The {@code party} parameter: required, except that the operator may leave it out (null). */
  private static String party(Context ctx, Caller caller, String route) {
    String party = TextParameters.query(ctx, "party");
    if (party != null && !party.isBlank()) {
      return party;
    }
    if (party == null && AccessPolicy.isOperator(caller)) {
      return null;
    }
    throw new RequestException(
        new Problem(
            "missing-parameter",
            "Missing query parameter",
            400,
            route
                + " needs ?party=<identity value> (the identity.value of a client, provider or"
                + " evaluator); only the operator key may leave it out",
            List.of(),
            Json.object().put("query_parameter", "party")));
  }

  private void listEvaluators(Context ctx) {
    String serviceType = TextParameters.serviceType(ctx, "service_type");
    int limit = Requests.intParam(ctx, "limit", 100, 1, 500);
    String cursor = TextParameters.query(ctx, "cursor");
    if (cursor != null && !cursor.matches("[A-Za-z0-9_-]{43}")) {
      throw new RequestException(
          Problem.of(
              "invalid-parameter",
              "Invalid query parameter",
              400,
              "cursor is not one this server issued; start again without it and follow"
                  + " next_cursor"));
    }
    json(ctx, 200, registry.reads().list(serviceType, cursor, limit, caller(ctx)));
  }

  static void json(Context ctx, int status, JsonNode body) {
    ctx.status(status);
    ctx.contentType("application/json");
    ctx.result(Json.writeBytes(body));
  }

  static void render(Context ctx, Outcome outcome) {
    if (outcome.status() == 202 && outcome.body().path("result_url").isTextual()) {
      // A verification still running: where its result will be, and a polite polling interval.
      ctx.header("Location", outcome.body().path("result_url").asText());
      ctx.header("Retry-After", "1");
    }
    json(ctx, outcome.status(), outcome.body());
  }
}
