package dev.asa.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.asa.agreement.AgreementSchemas;
import dev.asa.json.Json;
import dev.asa.server.agreements.AgreementService;
import dev.asa.server.agreements.NotFoundException;
import dev.asa.server.agreements.Outcome;
import dev.asa.server.market.MarketData;
import dev.asa.server.verification.VerificationService;
import dev.asa.template.Template;
import dev.asa.template.Templates;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * The HTTP API on one screen: section 4.3's eleven endpoints, the event log, the verification
 * result, close, templates, schemas, the server key and the admin read-out. Public routes answer
 * anyone; every other route verifies the caller's request signature first. Handlers only read the
 * request and render the answer; {@link AgreementService} and the core decide.
 */
public final class Routes {
  private final AgreementService agreements;
  private final Requests requests;
  private final Admin admin;
  private final MarketData market;
  private final VerificationService verifications;

  public Routes(AgreementService agreements, VerificationService verifications, Requests requests, Admin admin, MarketData market) {
    this.agreements = agreements;
    this.verifications = verifications;
    this.requests = requests;
    this.admin = admin;
    this.market = market;
  }

  public void register(RoutesConfig r) {
    Problems.register(r);
    r.get("/health", ctx -> json(ctx, 200, Json.object().put("status", "ok")));

    r.get("/templates", this::listTemplates);
    r.get("/templates/{type}", ctx -> json(ctx, 200, template(ctx.pathParam("type")).toJson()));
    r.get("/schemas/asa/{version}/agreement.json", this::schema);

    r.get("/.well-known/asa/server-key", ctx -> json(ctx, 200, admin.serverKey()));

    // Everything below is signed (RFC 9421): Requests.mutation and requests.caller verify it.
    r.post("/agreements", ctx -> requests.mutation(ctx, agreements::create));
    r.get("/agreements", this::list);
    r.get("/agreements/{id}", ctx -> {
      var envelope = agreements.get(id(ctx), requests.caller(ctx));
      ctx.header("ETag", "\"" + envelope.path("version").asLong() + "\"");
      json(ctx, 200, envelope);
    });
    r.get("/agreements/{id}/status", ctx -> json(ctx, 200, agreements.status(id(ctx), requests.caller(ctx))));
    r.get("/agreements/{id}/events", ctx -> json(ctx, 200, agreements.events(id(ctx), requests.caller(ctx))));
    r.get("/agreements/{id}/negotiation", ctx -> json(ctx, 200, agreements.negotiationTranscript(id(ctx), requests.caller(ctx))));
    r.get("/agreements/{id}/verification", ctx -> json(ctx, 200, agreements.verification(id(ctx),
        Authentication.isSigned(ctx) ? requests.caller(ctx) : null)));
    r.patch("/agreements/{id}/negotiate", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.negotiate(id(ctx), b, c, t)));
    r.post("/agreements/{id}/sign", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.sign(id(ctx), b, c, t)));
    r.post("/agreements/{id}/deliver", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.deliver(id(ctx), b, c, t)));
    r.post("/agreements/{id}/verify", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.verify(id(ctx), b, c, t)));
    r.post("/agreements/{id}/challenge", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.challenge(id(ctx), b, c, t)));
    r.post("/agreements/{id}/close", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.close(id(ctx), c, t)));
    r.post("/agreements/{id}/fund", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.fund(id(ctx), b, c, t)));
    r.post("/agreements/{id}/ruling", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.rule(id(ctx), b, c, t)));
    r.post("/agreements/{id}/seal", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.seal(id(ctx), b, c, t)));
    r.get("/agreements/{id}/seal", ctx -> json(ctx, 200, agreements.sealOf(id(ctx), requests.caller(ctx))));
    r.get("/agreements/{id}/hardening", ctx -> json(ctx, 200, agreements.hardening(id(ctx), requests.caller(ctx))));
    r.get("/agreements/{id}/escrow", ctx -> json(ctx, 200, agreements.escrow(id(ctx), requests.caller(ctx))));
    r.get("/accounts/{key}", ctx -> json(ctx, 200,
        agreements.account(TextParameters.path(ctx, "key"), Requests.intParam(ctx, "limit", 100, 1, 1000), requests.caller(ctx))));

    r.post("/shadow/seals", ctx -> requests.mutation(ctx, agreements::sealStandalone));
    r.post("/shadow/seals/{id}/validate", ctx -> requests.mutation(ctx, (b, c, t) -> agreements.validateStandalone(id(ctx), b, c, t)));
    r.get("/shadow/seals/{id}/report", ctx -> json(ctx, 200, agreements.standaloneReport(id(ctx), requests.caller(ctx))));

    r.post("/verifications", ctx -> requests.mutation(ctx, verifications::create));
    r.get("/verifications/{id}", ctx -> render(ctx, verifications.get(id(ctx), requests.caller(ctx))));
    r.get("/verifications/{id}/status", ctx -> json(ctx, 200, verifications.status(id(ctx), requests.caller(ctx))));

    r.get("/market/{service_type}", ctx -> {
      requests.caller(ctx); // any signed caller: aggregates only, no agreement's details
      json(ctx, 200, market.describe(TextParameters.path(ctx, "service_type")));
    });

    r.get("/admin/config", ctx -> json(ctx, 200, admin.config(requests.caller(ctx))));
  }

  /** Jetty's own errors (bad URIs, oversized headers) as problem+json too. */
  public static org.eclipse.jetty.server.Request.Handler jettyErrorHandler() {
    return new ProblemErrorHandler();
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
    return Templates.get(type).orElseThrow(() ->
        new NotFoundException("no template '" + type + "'; available: " + String.join(", ", Templates.TYPES)));
  }

  private void schema(Context ctx) {
    String version = ctx.pathParam("version");
    JsonNode schema;
    try {
      schema = AgreementSchemas.schemaJson(version);
    } catch (IllegalArgumentException e) {
      throw new NotFoundException("no schema for asa_version '" + version + "'; this server serves 1.0.0");
    }
    ctx.contentType("application/schema+json");
    ctx.result(Json.writeBytes(schema));
  }

  private void list(Context ctx) {
    String party = TextParameters.query(ctx, "party");
    if (party == null || party.isBlank()) {
      throw new RequestException(Problem.of("missing-parameter", "Missing query parameter", 400,
          "GET /agreements needs ?party=<identity value> (the identity.value of a client, provider or evaluator)"));
    }
    int limit = Requests.intParam(ctx, "limit", 50, 1, 200);
    var caller = requests.caller(ctx);
    try {
      json(ctx, 200, agreements.list(party, ctx.queryParam("cursor"), limit, caller));
    } catch (IllegalArgumentException e) { // the store's answer to a cursor it did not issue
      throw new RequestException(Problem.of("invalid-parameter", "Invalid query parameter", 400,
          "cursor is not one this server issued; start again without it and follow next_cursor"));
    }
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
