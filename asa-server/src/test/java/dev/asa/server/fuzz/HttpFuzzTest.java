package dev.asa.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.lifecycle.EventChain;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.fuzz.FuzzHttp.Answer;
import dev.asa.server.fuzz.FuzzHttp.Header;
import dev.asa.server.fuzz.FuzzHttp.Request;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fuzzing of the HTTP API against the real server on a loopback port.
 *
 * <p>Agreements are first set up in every reachable state through {@link AsaClient}. Then several
 * thousand malformed requests hit every route and method (and some wrong ones): truncated JSON,
 * random bytes, invalid UTF-8, deep nesting, huge strings and numbers, type confusion, duplicate
 * keys, unknown fields, mutated bodies, odd paths, queries and headers. Every answer must be below
 * 500, and every 4xx a problem+json document. The "guarded" agreements only ever receive requests
 * built to be invalid (each carries at least two independent defects, so that one mutation cannot
 * repair it), and at the end each of them must be byte-for-byte what it was, with an intact event
 * chain. "Scratch" agreements also receive valid bodies; they may change, but must stay readable
 * and their chains must verify. Requests are signed (RFC 9421) by the route's legitimate caller,
 * and now and then by nobody, a stranger or another party, so authentication and authorization see
 * the same garbage.
 *
 * <p>Server bugs found so far are listed in {@link KnownBug}: their answers are tolerated (and
 * counted) only with {@code -Dasa.fuzz.strict=false}; all are fixed and each has a regression test
 * at the end of the class.
 *
 * <p>{@code -Dasa.seed=N} replays a run; {@code -Dasa.fuzz.case=K} replays one case of it (server
 * state aside).
 */
class HttpFuzzTest {
  /**
   * Random cases after the systematic sweep; keep the whole test under a minute on two cores.
   * {@code -Dasa.fuzz.cases=N} runs more (./asa bench-fuzz).
   */
  static final int RANDOM_CASES = Integer.getInteger("asa.fuzz.cases", 2000);

  static final int THREADS = 4;
  static final long SEED = Long.getLong("asa.seed", System.nanoTime());
  static final Integer ONLY_CASE = Integer.getInteger("asa.fuzz.case");
  static final long MAX_BODY = ServerConfig.DEFAULT_MAX_BODY_BYTES;

  @TempDir static Path dataDir;
  static final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  static AsaServer server;

  /** Set-up and read-back clients, each signing as its party. */
  static AsaClient client;

  static AsaClient provider;
  static AsaClient evaluator;
  static FuzzHttp http;

  /** An agreement set up before fuzzing; guarded ones must not change at all. */
  record Target(String label, String state, String id, boolean guarded, String hash) {}

  static final List<Target> guarded = new ArrayList<>();
  static final List<Target> scratch = new ArrayList<>();
  static final Map<String, JsonNode[]> snapshots = new LinkedHashMap<>();
  static String validCursor;

  /**
   * States set up, in the order they are made; PROPOSED_HALF is PROPOSED signed by the client only.
   */
  static final List<String> STATES =
      List.of(
          "CLOSED",
          "PROPOSED",
          "PROPOSED_HALF",
          "NEGOTIATING",
          "REJECTED",
          "ACTIVE",
          "DELIVERED",
          "VERIFIED",
          "DISPUTED");

  /** The store this run uses, for the summary line. */
  static String storeName;

  /** On SQLite; a subclass that runs the suite on another store starts its own server instead. */
  @BeforeAll
  static void start(TestInfo test) {
    if (test.getTestClass().orElseThrow() == HttpFuzzTest.class) {
      startWith("SQLite", config -> config.withDataDir(dataDir));
    }
  }

  /** Starts the server on the store {@code store} configures and sets the agreements up. */
  static void startWith(String name, UnaryOperator<ServerConfig> store) {
    storeName = name;
    guarded.clear();
    scratch.clear();
    snapshots.clear();
    System.out.println(
        "HttpFuzzTest on " + name + ": seed=" + SEED + " (replay with -Dasa.seed=" + SEED + ")");
    // The rate limits would turn most of the run into 429s (and the fixed clock never refills
    // them).
    server =
        AsaServer.start(
            store.apply(
                ServerConfig.defaults()
                    .withPort(0)
                    .withClock(clock)
                    .withOperatorKey(Fixtures.key("operator").publicKey())
                    .withRateLimit(1_000_000, 100_000_000)));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
    http = new FuzzHttp(server.url("127.0.0.1"), clock);
    setUpAgreements();
  }

  @AfterAll
  static void stop() {
    if (server != null) server.close();
    server = null;
  }

  // ---- set-up ---------------------------------------------------------------------------------

  static ObjectNode judgedScores(int accuracy, int completeness, int relevance) {
    return dev.asa.server.e2e.LifecycleEndToEndTest.judgedScores(accuracy, completeness, relevance);
  }

  private static String advanceTo(String state) {
    String id = client.createAgreement(Fixtures.general()).path("agreement_id").asText();
    switch (state) {
      case "PROPOSED" -> {}
      case "PROPOSED_HALF" -> client.sign(id, Role.CLIENT, Fixtures.key("alice"));
      case "NEGOTIATING" -> provider.negotiate(id, counter());
      case "REJECTED" ->
          provider.negotiate(
              id,
              Json.object()
                  .put("party", "provider")
                  .put("round", 1)
                  .put("action", "reject")
                  .put("rationale_code", "no_agreement_possible"));
      default -> {
        client.sign(id, Role.CLIENT, Fixtures.key("alice"));
        provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
        if (state.equals("ACTIVE")) break;
        client.fund(id);
        provider.deliver(
            id, "# Findings\n\nDifferential privacy bounds what a model reveals.\n", "markdown");
        if (state.equals("DELIVERED")) break;
        evaluator.verify(id, judgedScores(88, 82, 94));
        if (state.equals("DISPUTED"))
          provider.challenge(id, Role.PROVIDER, "quality_below_agreed_slo");
      }
    }
    return id;
  }

  private static ObjectNode counter() {
    ObjectNode msg =
        Json.object()
            .put("party", "provider")
            .put("round", 1)
            .put("action", "counter")
            .put("rationale_code", "market_rate_alignment");
    msg.putObject("proposed_changes").put("escrow.payment.amount", "12.00");
    return msg;
  }

  /**
   * Closes an agreement whose challenge window has passed, unless the server's background timers,
   * which see the moved clock too, closed it first (a 409 then, the agreement CLOSED).
   */
  private static void closeUnlessItsTimerDid(String id) {
    try {
      client.close(id);
    } catch (dev.asa.client.AsaApiException e) {
      if (e.status() != 409 || !client.agreement(id).path("state").asText().equals("CLOSED")) {
        throw e;
      }
    }
  }

  static void setUpAgreements() {
    for (String state : STATES) {
      List<String> ids = new ArrayList<>();
      // DELIVERED gets many scratch copies: each leaves the state at its first valid verify.
      int copies = state.equals("DELIVERED") ? 11 : 3;
      for (int copy = 0; copy < copies; copy++) {
        ids.add(advanceTo(state));
      }
      if (state.equals("CLOSED")) {
        // Let the challenge windows of these three pass and close them; later ones stay open.
        clock.advance(Duration.ofSeconds(7200));
        ids.forEach(HttpFuzzTest::closeUnlessItsTimerDid);
      }
      for (int copy = 0; copy < ids.size(); copy++) {
        boolean isGuarded = copy == 0;
        String id = ids.get(copy);
        Target t =
            new Target(
                state + (isGuarded ? "/guarded" : "/scratch" + copy),
                state,
                id,
                isGuarded,
                client.agreement(id).path("agreement_hash").asText());
        (isGuarded ? guarded : scratch).add(t);
      }
    }
    for (Target t : guarded) {
      JsonNode envelope = client.agreement(t.id());
      assertThat(envelope.path("state").asText())
          .as("seed=%d set-up of %s", SEED, t.label())
          .isEqualTo(t.state().replace("_HALF", ""));
      snapshots.put(t.id(), new JsonNode[] {envelope, client.events(t.id())});
    }
    validCursor = client.list("alice", null, 2).path("next_cursor").asText();
    System.out.println(
        "HttpFuzzTest set up "
            + guarded.size()
            + " guarded and "
            + scratch.size()
            + " scratch agreements");
  }

  // ---- routes and bodies ----------------------------------------------------------------------

  enum Body {
    NONE,
    CREATE,
    NEGOTIATE,
    SIGN,
    DELIVER,
    VERIFY,
    CHALLENGE,
    CLOSE
  }

  /**
   * Every route of Routes.java; {@code state} is where the route's action is allowed, {@code
   * signer} the key its legitimate caller signs with (null: a public route; "party": any party).
   */
  enum Route {
    HEALTH("GET", "/health", Body.NONE, null, null),
    TEMPLATES("GET", "/templates", Body.NONE, null, null),
    TEMPLATE("GET", "/templates/{x}", Body.NONE, null, null),
    SCHEMA("GET", "/schemas/asa/{x}/agreement.json", Body.NONE, null, null),
    SERVER_KEY("GET", "/.well-known/asa/server-key", Body.NONE, null, null),
    ADMIN_CONFIG("GET", "/admin/config", Body.NONE, null, "operator"),
    CREATE("POST", "/agreements", Body.CREATE, null, "alice"),
    LIST("GET", "/agreements", Body.NONE, null, "party"),
    GET("GET", "/agreements/{id}", Body.NONE, "PROPOSED", "party"),
    STATUS("GET", "/agreements/{id}/status", Body.NONE, "VERIFIED", "party"),
    EVENTS("GET", "/agreements/{id}/events", Body.NONE, "CLOSED", "party"),
    VERIFICATION("GET", "/agreements/{id}/verification", Body.NONE, "VERIFIED", "party"),
    NEGOTIATE("PATCH", "/agreements/{id}/negotiate", Body.NEGOTIATE, "NEGOTIATING", "bob"),
    SIGN("POST", "/agreements/{id}/sign", Body.SIGN, "PROPOSED", "alice"),
    DELIVER("POST", "/agreements/{id}/deliver", Body.DELIVER, "ACTIVE", "bob"),
    VERIFY("POST", "/agreements/{id}/verify", Body.VERIFY, "DELIVERED", "eval-1"),
    CHALLENGE("POST", "/agreements/{id}/challenge", Body.CHALLENGE, "VERIFIED", "alice"),
    CLOSE("POST", "/agreements/{id}/close", Body.CLOSE, "VERIFIED", "party");

    final String method;
    final String path;
    final Body body;
    final String state;
    final String signer;

    Route(String method, String path, Body body, String state, String signer) {
      this.method = method;
      this.path = path;
      this.body = body;
      this.state = state;
      this.signer = signer;
    }

    boolean hasId() {
      return path.contains("{id}");
    }
  }

  static final String ZERO_HASH = "sha256:" + "0".repeat(64);

  /** Terms a negotiation may change, and paths shaped like them that point nowhere. */
  static final List<String> NEGOTIABLE_KEYS =
      List.of(
          "quality_criteria.dimensions[0].slo.value",
          "quality_criteria.dimensions[1].weight",
          "quality_criteria.dimensions[3].weight",
          "quality_criteria.dimensions[4].weight",
          "quality_criteria.dimensions[99999999999].weight",
          "quality_criteria.dimensions[2147483648].slo.value",
          "quality_criteria.dimensions[007].weight",
          "quality_criteria.composite_threshold",
          "escrow.payment.amount",
          "escrow.payment.graduated_release.mode",
          "escrow.dead_mans_switch.client_timeout_seconds",
          "escrow.dead_mans_switch.evaluator_timeout_seconds",
          "service.constraints.max_duration_seconds",
          "service.constraints.zzz",
          "service.constraints.max_tokens",
          "verification.challenge_window_seconds",
          "expires_at");

  /**
   * The body a route's valid call would send to {@code t}; for a guarded target, a body with at
   * least two independent defects that each make the call fail whatever the agreement's state.
   */
  static JsonNode base(Route route, Target t, Random r) {
    return base(route, t, r, true);
  }

  static JsonNode base(Route route, Target t, Random r, boolean variants) {
    boolean poison = t != null && t.guarded();
    String hash = t == null ? ZERO_HASH : t.hash();
    switch (route.body) {
      case CREATE -> {
        return Fixtures.general();
      }
      case SIGN -> {
        String signer = poison ? "carol" : "alice";
        ObjectNode b = Json.object().put("party", "client");
        b.putObject("signature")
            .put("scheme", "ed25519")
            .put(
                "value",
                Fixtures.key(signer).sign(hash.getBytes(StandardCharsets.UTF_8)).toBase64Url());
        b.put("agreement_hash", poison ? ZERO_HASH : hash);
        return b;
      }
      case NEGOTIATE -> {
        if (!poison && variants && r.nextInt(10) == 0) {
          return Json.object()
              .put("party", "client")
              .put("round", 2)
              .put("action", "accept")
              .put("rationale_code", "accept_as_proposed");
        }
        ObjectNode b =
            Json.object()
                .put("party", "provider")
                .put("round", 2)
                .put("action", "counter")
                .put("rationale_code", "market_rate_alignment");
        ObjectNode changes = b.putObject("proposed_changes");
        changes.put("escrow.payment.amount", "12.00");
        changes.put("quality_criteria.composite_threshold", 72);
        if (poison) {
          changes.put("parties.provider.identity.value", "mallory");
          changes.put("quality_criteria.dimensions[99].weight", 0.5);
        } else if (variants && r.nextInt(3) == 0) {
          // A negotiable term (or one shaped like it) with an odd value: the deep checks of the new
          // terms run.
          String[] raw = new String[1];
          JsonNode value =
              r.nextBoolean() ? FuzzBodies.randomValue(r, 1, raw) : FuzzBodies.ofType(r, 1, raw);
          if (raw[0] != null) {
            try {
              value = Json.parse(raw[0]); // 1e999999 and friends survive as exact decimals
            } catch (Exception e) {
              value = Json.mapper().getNodeFactory().numberNode(r.nextInt());
            }
          }
          changes.set(FuzzBodies.pick(r, NEGOTIABLE_KEYS), value);
        }
        b.put("round", 1);
        return b;
      }
      case DELIVER -> {
        ObjectNode b = Json.object().put("content", "# Report\n\nText.\n");
        if (poison) {
          b.put("content_hash", ZERO_HASH);
          b.put("format", "Not A Format!");
        } else {
          b.put("format", "markdown");
        }
        return b;
      }
      case VERIFY -> {
        ObjectNode scores = judgedScores(88, 82, 94);
        if (poison) {
          var dims = (com.fasterxml.jackson.databind.node.ArrayNode) scores.get("dimensions");
          dims.addObject()
              .put("name", "timeliness")
              .put("score", 100)
              .put("evidence", "server measures this");
          dims.addObject()
              .put("name", "nonexistent_dimension")
              .put("score", 50)
              .put("evidence", "no such dimension");
        }
        ObjectNode b = Json.object();
        b.set("evaluator_result", scores);
        return b;
      }
      case CHALLENGE -> {
        return poison
            ? Json.object().put("party", "evaluator").put("reason_code", "not_a_reason")
            : Json.object().put("party", "client").put("reason_code", "quality_below_agreed_slo");
      }
      case CLOSE -> {
        return Json.object();
      }
      default -> {
        return null;
      }
    }
  }

  // ---- cases ----------------------------------------------------------------------------------

  /** One request to send, what it is, and which agreement it aims at (null: none set up). */
  record Case(int index, String kind, Route route, Target target, Request request) {}

  /**
   * A planned case of the systematic part: a route's body with one member replaced by each JSON
   * type.
   */
  record Plan(Route route, boolean guardedTarget, int slot, int type, String special) {}

  static final List<Plan> SWEEP = sweep();

  private static List<Plan> sweep() {
    List<Plan> plans = new ArrayList<>();
    for (Route route : Route.values()) {
      if (route.body == Body.NONE || route.body == Body.CLOSE) continue;
      for (boolean g :
          route == Route.CREATE ? new boolean[] {false} : new boolean[] {true, false}) {
        Target t = g ? new Target("plan", route.state, "plan", true, ZERO_HASH) : null;
        int slots = FuzzBodies.slots(base(route, t, new Random(0), false)).size();
        for (int s = 0; s < slots; s++) {
          for (int type = 0; type < 6; type++) {
            plans.add(new Plan(route, g, s, type, null));
          }
        }
      }
    }
    for (String special :
        List.of("oversized", "oversized-chunked", "oversized-create", "at-limit")) {
      plans.add(new Plan(null, true, 0, 0, special));
    }
    return plans;
  }

  static int totalCases() {
    return SWEEP.size() + RANDOM_CASES;
  }

  static Random random(int index) {
    return new Random(SEED * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L);
  }

  static Case generate(int index) {
    Random r = random(index);
    if (index < SWEEP.size()) {
      return planned(index, SWEEP.get(index), r);
    }
    Route route = FuzzBodies.pick(r, List.of(Route.values()));
    Target target = null;
    String id = null;
    if (route.hasId()) {
      int k = r.nextInt(100);
      List<Target> pool = k < 55 ? guarded : k < 85 ? scratch : null;
      if (pool != null) {
        // Half the time an agreement in the state where the route's action is allowed: deeper
        // checks run.
        List<Target> inState = pool.stream().filter(t -> t.state().equals(route.state)).toList();
        target = FuzzBodies.pick(r, !inState.isEmpty() && r.nextBoolean() ? inState : pool);
      }
      id = target != null ? target.id() : oddId(r);
    }
    String method =
        r.nextInt(100) < 8
            ? FuzzBodies.pick(
                r,
                List.of(
                    "GET",
                    "POST",
                    "PUT",
                    "PATCH",
                    "DELETE",
                    "OPTIONS",
                    "HEAD",
                    "TRACE",
                    "PROPFIND",
                    "FOO"))
            : route.method;
    String path = path(route, id, r);
    String kind;
    if (r.nextInt(100) < 8) {
      path = oddPath(r, route, id);
      kind = "odd-path";
    } else {
      kind = route == Route.LIST ? "query" : "route";
    }
    boolean sendsBody = route.body != Body.NONE ? r.nextInt(100) < 95 : r.nextInt(100) < 10;
    JsonNode base = route.body == Body.NONE ? Json.object().put("x", 1) : base(route, target, r);
    String signer = signer(route, base, r);
    byte[] body = null;
    if (sendsBody) {
      String bodyKind = bodyKind(r);
      kind = kind + "/" + bodyKind;
      body = body(bodyKind, base.deepCopy(), route, r);
    }
    List<Header> headers = headers(r, body != null);
    if (headers.stream().anyMatch(h -> h.name().startsWith("X-Fuzz-Kind"))) {
      kind = kind + "/odd-header";
    }
    return new Case(
        index,
        kind,
        route,
        target,
        new Request(method, path, headers, body, body != null && r.nextInt(20) == 0, signer));
  }

  private static Case planned(int index, Plan p, Random r) {
    List<Header> json = List.of(new Header("Content-Type", "application/json"));
    if (p.special() != null) {
      Target active = byState(guarded, "ACTIVE");
      String deliver = "/agreements/" + active.id() + "/deliver";
      return switch (p.special()) {
        case "oversized" ->
            new Case(
                index,
                "oversized",
                Route.DELIVER,
                active,
                new Request("POST", deliver, json, hugeContent((int) MAX_BODY + 1), false, "bob"));
        case "oversized-chunked" ->
            new Case(
                index,
                "oversized-chunked",
                Route.DELIVER,
                active,
                new Request("POST", deliver, json, hugeContent((int) MAX_BODY + 1), true, "bob"));
        case "oversized-create" -> {
          byte[] b = new byte[(int) MAX_BODY + 7];
          r.nextBytes(b);
          yield new Case(
              index,
              "oversized-create",
              Route.CREATE,
              null,
              new Request("POST", "/agreements", json, b, false, "alice"));
        }
        default ->
            new Case(
                index,
                "at-limit",
                Route.DELIVER,
                active,
                new Request("POST", deliver, json, hugeContent((int) MAX_BODY), false, "bob"));
      };
    }
    Target target = null;
    if (p.route() != Route.CREATE) {
      List<Target> pool = p.guardedTarget() ? guarded : scratch;
      List<Target> inState = pool.stream().filter(t -> t.state().equals(p.route().state)).toList();
      target = inState.get(r.nextInt(inState.size()));
    }
    JsonNode base = base(p.route(), target, r, false);
    String signer = naturalSigner(p.route(), base, r);
    FuzzBodies.Slot slot = FuzzBodies.slots(base).get(p.slot());
    String[] raw = new String[1];
    slot.set(FuzzBodies.ofType(r, p.type(), raw));
    String path = path(p.route(), target == null ? null : target.id(), r);
    return new Case(
        index,
        "sweep/type-confusion "
            + slot.pointer()
            + " -> "
            + List.of("null", "number", "string", "array", "object", "boolean").get(p.type()),
        p.route(),
        target,
        new Request(p.route().method, path, json, FuzzBodies.write(base, raw[0]), false, signer));
  }

  /**
   * A deliver body whose total size is exactly {@code size} bytes; its content hash is wrong on
   * purpose.
   */
  static byte[] hugeContent(int size) {
    String head =
        "{\"content_hash\":\"" + ZERO_HASH + "\",\"format\":\"Not A Format!\",\"content\":\"";
    String tail = "\"}";
    byte[] b = new byte[size];
    byte[] h = head.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(h, 0, b, 0, h.length);
    java.util.Arrays.fill(b, h.length, size - tail.length(), (byte) 'x');
    b[size - 2] = '"';
    b[size - 1] = '}';
    return b;
  }

  static final List<String> PARTY_KEYS = List.of("alice", "bob", "eval-1");

  /**
   * Who signs: mostly the route's legitimate caller (for a body naming a party, that party's key),
   * sometimes nobody, a stranger, another party or the operator, so the authorization layer is
   * fuzzed too. Public routes are mostly called unsigned.
   */
  static String signer(Route route, JsonNode base, Random r) {
    int k = r.nextInt(100);
    if (route.signer == null) {
      return k < 90 ? null : FuzzBodies.pick(r, PARTY_KEYS);
    }
    if (k < 6) return null;
    if (k < 10) return "mallory";
    if (k < 14) return FuzzBodies.pick(r, List.of("alice", "bob", "eval-1", "operator"));
    return naturalSigner(route, base, r);
  }

  /**
   * The key the route's legitimate caller signs with; a body naming a party is signed by that
   * party.
   */
  static String naturalSigner(Route route, JsonNode base, Random r) {
    if (route.signer == null) return null;
    String party = base == null ? "" : base.path("party").asText();
    if (party.equals("client")) return "alice";
    if (party.equals("provider")) return "bob";
    return route.signer.equals("party") ? FuzzBodies.pick(r, PARTY_KEYS) : route.signer;
  }

  static Target byState(List<Target> pool, String state) {
    return pool.stream().filter(t -> t.state().equals(state)).findFirst().orElseThrow();
  }

  static String path(Route route, String id, Random r) {
    String p = route.path;
    if (route == Route.TEMPLATE) {
      p =
          p.replace(
              "{x}",
              FuzzBodies.pick(
                  r,
                  List.of(
                      "general",
                      "research",
                      "poetry",
                      "%00",
                      "GENERAL",
                      "x".repeat(3000),
                      "..",
                      "%2e%2e",
                      "gen%20eral",
                      "%C3%28")));
    } else if (route == Route.SCHEMA) {
      p =
          p.replace(
              "{x}",
              FuzzBodies.pick(
                  r,
                  List.of(
                      "1.0.0",
                      "9.0.0",
                      "1",
                      "",
                      "%00",
                      "..",
                      "1.0.0.0",
                      "9".repeat(500),
                      "-1.0.0",
                      "1.0.0%0a")));
    } else if (route == Route.LIST) {
      p = p + query(r);
    }
    return id == null ? p : p.replace("{id}", id);
  }

  static String oddId(Random r) {
    return FuzzBodies.pick(
        r,
        List.of(
            "asa-"
                + HexFormat.of()
                    .formatHex(
                        new byte[] {(byte) r.nextInt(), (byte) r.nextInt(), (byte) r.nextInt()}),
            "nope",
            "%00",
            "a".repeat(300),
            "a".repeat(4000),
            "..",
            "%2e%2e",
            ".",
            "%2F",
            "a%2Fb",
            "%20",
            "%C3%28",
            "%FF",
            "%F0%9F%98%80",
            "%27%20OR%201%3D1%20--",
            "%25",
            "a;b=c",
            "~",
            "%0A",
            "null",
            "0",
            "-1",
            "%5C",
            "x".repeat(9000)));
  }

  static String oddPath(Random r, Route route, String id) {
    String suffix = route.hasId() ? route.path.substring("/agreements/{id}".length()) : "";
    String i = id == null ? "nope" : id;
    return FuzzBodies.pick(
        r,
        List.of(
            "/agreements/" + i + "%00" + suffix,
            "/agreements/" + i.toUpperCase() + suffix,
            "/agreements/" + i + suffix + "/",
            "/agreements/" + i + "%20" + suffix,
            "/agreements/" + i + suffix + "/extra",
            "/agreements/" + i + "/" + suffix,
            "/agreements/" + i + suffix.toUpperCase(),
            "/agreements/" + i + suffix + ";x=y",
            "/agreements/" + i + ";x=y" + suffix,
            "/agreements/" + i + "/." + suffix,
            "/agreements/x/../" + i + suffix,
            "/agreements/" + i + "/%2e%2e/" + i + suffix,
            "/agreements/" + i + "%2F" + suffix.replace("/", ""),
            "/agreements/" + i + suffix + "?x=%00&x=" + "y".repeat(2000),
            "//agreements",
            "/AGREEMENTS",
            "/agreements//",
            "/health/",
            "/health/..",
            "/%2e%2e/%2e%2e/etc/passwd",
            "/templates/%00",
            "/templates/..%2F..%2Fetc",
            "/schemas/asa/%2e%2e/agreement.json",
            "/schemas/asa/1.0.0/agreement.json/x",
            "/*",
            "/agreements/*",
            "/agreements/%2A",
            "/agreements/%00/sign",
            "/agreements/" + "a".repeat(9000) + "/events",
            "/" + "%C3%28".repeat(50),
            "/agreements/%EF%BF%BF",
            "/agreements/%ED%A0%80/status"));
  }

  static String query(Random r) {
    List<String> parts = new ArrayList<>();
    String party =
        FuzzBodies.pick(
            r,
            List.of(
                "alice",
                "alice",
                "bob",
                "",
                "%00",
                "a".repeat(5000),
                "%FF",
                "%C3%28",
                "a%26limit%3D1",
                "%27%20OR%201%3D1%20--",
                "eval-1",
                "%20",
                "%C3%A9",
                "NONE"));
    if (!party.equals("NONE")) parts.add("party=" + party);
    String limit =
        FuzzBodies.pick(
            r,
            List.of(
                "NONE",
                "NONE",
                "-1",
                "0",
                "1",
                "200",
                "201",
                "abc",
                "1e3",
                "2147483648",
                "-2147483649",
                "",
                "%205",
                "5%20",
                "%00",
                "0x10",
                "%D9%A3",
                "99999999999999999999",
                "1.5",
                "+5",
                "-0"));
    if (!limit.equals("NONE")) parts.add("limit=" + limit);
    String cursor =
        FuzzBodies.pick(
            r,
            List.of(
                "NONE",
                "NONE",
                "VALID",
                "",
                "abc",
                "!!!",
                "djE6MA",
                "djE6LTE",
                "djE6OTk5OTk5OTk5OTk5OTk5OTk5OTk",
                "djE6YWJj",
                "djI6NQ",
                "djE6MTA=",
                "djE6MTA",
                "%00",
                "a".repeat(6000),
                "%FF%FE",
                "djE6",
                "=",
                "====",
                "dj",
                "AAAA"));
    if (!cursor.equals("NONE"))
      parts.add("cursor=" + (cursor.equals("VALID") ? validCursor : cursor));
    if (r.nextInt(10) == 0)
      parts.add(
          FuzzBodies.pick(
              r, List.of("limit=1", "party=bob", "cursor=x", "x=%00", "&&", "=", "party")));
    java.util.Collections.shuffle(parts, r);
    return parts.isEmpty() && r.nextBoolean() ? "" : "?" + String.join("&", parts);
  }

  static final List<String> BODY_KINDS =
      List.of(
          "empty",
          "base",
          "truncated",
          "truncated",
          "random-bytes",
          "invalid-utf8",
          "invalid-utf8",
          "deep-nesting",
          "huge-string",
          "huge-number",
          "huge-number",
          "type-confusion",
          "type-confusion",
          "type-confusion",
          "duplicate-key",
          "nul-text",
          "nul-text",
          "unknown-field",
          "mutated",
          "mutated",
          "mutated",
          "mutated",
          "not-an-object");

  static String bodyKind(Random r) {
    return FuzzBodies.pick(r, BODY_KINDS);
  }

  static byte[] body(String kind, JsonNode base, Route route, Random r) {
    byte[] valid = FuzzBodies.write(base, null);
    String[] raw = new String[1];
    List<FuzzBodies.Slot> slots = FuzzBodies.slots(base);
    FuzzBodies.Slot slot = slots.isEmpty() ? null : slots.get(r.nextInt(slots.size()));
    switch (kind) {
      case "empty" -> {
        return new byte[0];
      }
      case "base" -> {
        return valid;
      }
      case "truncated" -> {
        return FuzzBodies.truncated(r, valid);
      }
      case "random-bytes" -> {
        return FuzzBodies.randomBytes(r);
      }
      case "invalid-utf8" -> {
        return FuzzBodies.invalidUtf8(r, valid);
      }
      case "deep-nesting" -> {
        int depth = FuzzBodies.pick(r, List.of(65, 100, 1000, 10_000, 10_000, 100_000));
        String member =
            slot != null && slot.field() != null && r.nextBoolean() ? slot.field() : null;
        return FuzzBodies.deep(r, depth, member);
      }
      case "huge-string" -> {
        int size = r.nextInt(12) == 0 ? 4 << 20 : (64 << 10) + r.nextInt(1 << 20);
        String s = r.nextBoolean() ? "x".repeat(size) : "\u00e9\ud83d\ude00 ".repeat(size / 7);
        if (slot != null) slot.set(Json.mapper().getNodeFactory().textNode(s));
        else ((ObjectNode) base).put("x", s);
        return FuzzBodies.write(base, null);
      }
      case "huge-number" -> {
        raw[0] = FuzzBodies.pick(r, FuzzBodies.ODD_NUMBERS);
        if (slot != null) slot.set(Json.mapper().getNodeFactory().textNode(FuzzBodies.RAW));
        else ((ObjectNode) base).put("x", FuzzBodies.RAW);
        return FuzzBodies.write(base, raw[0]);
      }
      case "type-confusion" -> {
        if (slot == null) return valid;
        slot.set(FuzzBodies.ofType(r, r.nextInt(6), raw));
        return FuzzBodies.write(base, raw[0]);
      }
      case "duplicate-key" -> {
        return FuzzBodies.duplicateKey(r, base);
      }
      case "nul-text" -> {
        // A NUL in an otherwise untouched string or member name: PostgreSQL cannot store it, and
        // before issue 21 some reached a text column there (500).
        List<FuzzBodies.Slot> texts = slots.stream().filter(t -> t.get().isTextual()).toList();
        if (!texts.isEmpty() && r.nextInt(4) != 0) {
          FuzzBodies.Slot t = FuzzBodies.pick(r, texts);
          String text = t.get().textValue();
          int at = r.nextInt(text.length() + 1);
          t.set(
              Json.mapper()
                  .getNodeFactory()
                  .textNode(text.substring(0, at) + "\u0000" + text.substring(at)));
        } else if (slot != null && slot.field() != null) {
          ObjectNode parent = (ObjectNode) slot.parent();
          parent.set(slot.field() + "\u0000", parent.remove(slot.field()));
        } else if (base instanceof ObjectNode o) {
          o.put("note\u0000", "x");
        }
        return FuzzBodies.write(base, null);
      }
      case "unknown-field" -> {
        ObjectNode into = (ObjectNode) base;
        if (slot != null && r.nextBoolean() && slot.get() instanceof ObjectNode o) into = o;
        String key =
            r.nextBoolean()
                ? FuzzBodies.pick(r, FuzzBodies.ODD_KEYS)
                : "x_" + FuzzBodies.randomText(r, 10);
        if (into.has(key)) key = key + "_x";
        into.set(key, FuzzBodies.randomValue(r, 2, raw));
        return FuzzBodies.write(base, raw[0]);
      }
      case "mutated" -> {
        if (slot == null) return valid;
        switch (r.nextInt(6)) {
          case 0, 1 -> slot.set(FuzzBodies.randomValue(r, 2, raw));
          case 2 -> slot.remove();
          case 3 -> {
            raw[0] = FuzzBodies.pick(r, FuzzBodies.ODD_STRING_TOKENS);
            slot.set(Json.mapper().getNodeFactory().textNode(FuzzBodies.RAW));
          }
          case 4 -> {
            raw[0] = "[".repeat(70) + "]".repeat(70);
            slot.set(Json.mapper().getNodeFactory().textNode(FuzzBodies.RAW));
          }
          default -> {
            if (slot.parent() instanceof ObjectNode parent) {
              String key = FuzzBodies.pick(r, FuzzBodies.ODD_KEYS);
              if (parent.has(key)) key = key + "_x";
              parent.set(key, FuzzBodies.randomValue(r, 1, raw));
            } else {
              ((com.fasterxml.jackson.databind.node.ArrayNode) slot.parent())
                  .add(FuzzBodies.randomValue(r, 1, raw));
            }
          }
        }
        return FuzzBodies.write(base, raw[0]);
      }
      default -> {
        return FuzzBodies.pick(r, FuzzBodies.NOT_AN_OBJECT);
      }
    }
  }

  static final List<String> ODD_CONTENT_TYPES =
      List.of(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=xyz",
          "multipart/form-data",
          "application/json; charset=utf-16",
          "application/json; charset=\u00ff",
          "application/json; charset=",
          "",
          "\u00ff/\u00ff",
          "application/" + "j".repeat(1000),
          "application/xml",
          "*/*",
          "application/problem+json",
          "application/json;;;",
          "application/octet-stream");

  static final List<String> ODD_IDEMPOTENCY_KEYS =
      List.of(
          "",
          " ",
          "a b",
          "tab\there",
          "\u0085nel",
          "\u00ffx",
          "\u0080\u009f",
          "\u00e9",
          "x".repeat(256),
          "x".repeat(255),
          "k".repeat(10 * 1024),
          " lead",
          "trail ",
          "\t",
          "\u00a0");

  static List<Header> headers(Random r, boolean hasBody) {
    List<Header> h = new ArrayList<>();
    if (hasBody ? r.nextInt(100) < 75 : r.nextInt(100) < 5) {
      h.add(new Header("Content-Type", "application/json"));
    } else if (r.nextInt(100) < 60) {
      h.add(new Header("Content-Type", FuzzBodies.pick(r, ODD_CONTENT_TYPES)));
    }
    int k = r.nextInt(100);
    if (k < 10) {
      h.add(new Header("Idempotency-Key", "fuzz-" + Long.toHexString(r.nextLong())));
    } else if (k < 13) {
      h.add(new Header("Idempotency-Key", "fuzz-fixed-key"));
    } else if (k < 25) {
      h.add(new Header("Idempotency-Key", FuzzBodies.pick(r, ODD_IDEMPOTENCY_KEYS)));
      if (r.nextBoolean()) h.add(new Header("Idempotency-Key", "second-value"));
    }
    if (r.nextInt(100) < 8) {
      h.add(new Header("X-Fuzz-Kind", "odd"));
      switch (r.nextInt(6)) {
        case 0 ->
            h.add(
                new Header(
                    "Accept",
                    FuzzBodies.pick(
                        r,
                        List.of(
                            "application/xml",
                            "text/html",
                            "",
                            "application/json;q=0",
                            "\u00ff",
                            "*/*;q=abc"))));
        case 1 ->
            h.add(
                new Header(
                    "Content-Encoding",
                    FuzzBodies.pick(r, List.of("gzip", "deflate", "br", "x-unknown", ""))));
        case 2 -> h.add(new Header("X-Forwarded-For", "::1, \u00ff, " + "9".repeat(300)));
        case 3 -> h.add(new Header("Cookie", "a=" + "b".repeat(2000) + "; \u00ff=\u00ff"));
        case 4 -> h.add(new Header("X-Fuzz-Long", "v".repeat(10 * 1024)));
        default -> h.add(new Header("If-Match", "\"" + "9".repeat(100) + "\""));
      }
    }
    return h;
  }

  // ---- known server bugs ----------------------------------------------------------------------

  /**
   * Server bugs this fuzzer found (all fixed), each kept as a regression test below. The main run
   * fails on any of them; {@code -Dasa.fuzz.strict=false} would tolerate (and count) them, for
   * triage while a new one is being fixed.
   */
  enum KnownBug {
    LIST_CURSOR_500(
        "GET /agreements with an invalid cursor: 500 (ListCursor's IllegalArgumentException is not mapped)"),
    EXTREME_EXPONENT_500(
        "a number with an extreme exponent: 500 (Jackson NumberFormatException on parse; BigDecimal blow-ups in Scorer/Jcs on verify)"),
    LONE_SURROGATE_500(
        "a lone UTF-16 surrogate in a string that gets canonicalized (escaped as \\udc00, or from invalid UTF-8 such as "
            + "F4 90 80 80 that Jackson decodes without complaint): 500 (Jcs IllegalArgumentException)"),
    NEGOTIATE_INDEX_OVERFLOW_500(
        "a negotiable path with an index beyond int, e.g. quality_criteria.dimensions[2147483648].weight: "
            + "500 (Integer.parseInt in Negotiation.set)"),
    JETTY_BAD_URI_400(
        "an odd URI (%00, %2e%2e, .., bad UTF-8 escapes): Jetty's own text/html 400, and the connection is closed without Connection: close"),
    JETTY_URI_TOO_LONG_414("a request target over 8 KiB: Jetty's own text/html 414"),
    JETTY_HEADERS_TOO_LARGE_431(
        "request line and headers over 8 KiB (e.g. a 10 KB Idempotency-Key): Jetty's own text/html 431"),
    CHUNKED_TOO_LARGE_413(
        "a chunked body over 16 MiB: 413 text/plain \"Content Too Large\", not problem+json");

    final String description;

    KnownBug(String description) {
      this.description = description;
    }

    private static final java.util.regex.Pattern EXTREME_EXPONENT =
        java.util.regex.Pattern.compile("[0-9.][eE][+-]?[0-9]{6,}");
    private static final java.util.regex.Pattern INDEX_BEYOND_INT =
        java.util.regex.Pattern.compile("\\[0*[1-9][0-9]{9,}]");

    /**
     * UTF-8 bytes (read as ISO-8859-1) that decode to surrogates: ED A0..BF, or code points above
     * U+10FFFF.
     */
    private static final java.util.regex.Pattern SURROGATE_BYTES =
        java.util.regex.Pattern.compile(
            "\u00ed[\u00a0-\u00bf]|\u00f4[\u0090-\u00bf]|[\u00f5-\u00f7]");

    private static final java.util.regex.Pattern SURROGATE_ESCAPE =
        java.util.regex.Pattern.compile("\\\\[uU][dD][89a-fA-F][0-9a-fA-F]{2}");

    static KnownBug match(Case c, Answer a) {
      Request r = c.request();
      String ct = a.contentType();
      boolean problem = ct.split(";")[0].trim().equals("application/problem+json");
      boolean jettyPage = ct.isEmpty() || ct.startsWith("text/html");
      if (a.status() == 500) {
        String body = r.body() == null ? "" : new String(r.body(), StandardCharsets.ISO_8859_1);
        if (r.method().equals("GET")
            && r.target().startsWith("/agreements?")
            && r.target().contains("cursor=")) return LIST_CURSOR_500;
        if (EXTREME_EXPONENT.matcher(body).find()) return EXTREME_EXPONENT_500;
        if (r.target().endsWith("/negotiate") && INDEX_BEYOND_INT.matcher(body).find())
          return NEGOTIATE_INDEX_OVERFLOW_500;
        if (SURROGATE_ESCAPE.matcher(body).find() || SURROGATE_BYTES.matcher(body).find())
          return LONE_SURROGATE_500;
        return null;
      }
      if (problem) return null;
      if (a.status() == 400 && jettyPage && (r.target().contains("%") || r.target().contains("/.")))
        return JETTY_BAD_URI_400;
      // Jetty's limit is 8 KiB for the request line and the headers together.
      int head =
          r.target().length()
              + r.headers().stream()
                  .mapToInt(h -> h.name().length() + h.value().length() + 4)
                  .sum();
      if (a.status() == 414 && jettyPage && head > 8000) return JETTY_URI_TOO_LONG_414;
      if (a.status() == 431 && jettyPage && head > 8000) return JETTY_HEADERS_TOO_LARGE_431;
      if (a.status() == 413 && r.chunked()) return CHUNKED_TOO_LARGE_413;
      return null;
    }
  }

  static final boolean STRICT =
      !"false".equals(System.getProperty("asa.fuzz.strict")); // every known bug is fixed

  // ---- the run --------------------------------------------------------------------------------

  /** What went wrong with one answer, grouped for the report by {@code signature}. */
  record Failure(String signature, String message) {}

  static final Set<String> READ_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PROPFIND");

  /** The problems with one answer; empty when it is acceptable. */
  static List<String> check(Case c, Answer a) {
    List<String> problems = new ArrayList<>();
    int s = a.status();
    String method = c.request().method();
    if (s >= 500) {
      problems.add("5xx");
    } else if (s >= 400) {
      String mediaType = a.contentType().split(";")[0].trim();
      if (!mediaType.equals("application/problem+json")) {
        problems.add("4xx-not-problem+json");
      } else if (!method.equals("HEAD")) {
        try {
          JsonNode p = Json.parse(a.body());
          for (String field : List.of("type", "title", "detail")) {
            if (!p.path(field).isTextual() || p.path(field).asText().isBlank())
              problems.add("problem-without-" + field);
          }
          if (!p.path("status").isInt() || p.path("status").asInt() != s)
            problems.add("problem-status-mismatch");
        } catch (Exception e) {
          problems.add("problem-body-not-json");
        }
      }
    } else if (s >= 200 && s < 300) {
      if (!READ_METHODS.contains(method)) {
        for (Target t : guarded) {
          if (c.request().target().contains(t.id()))
            problems.add("guarded-agreement-accepted-a-change");
        }
      }
    } else {
      problems.add("unexpected-status-" + s);
    }
    return problems;
  }

  static String describe(Case c, Answer a) {
    String answer =
        a == null
            ? "(no answer)"
            : a.status()
                + " "
                + a.contentType()
                + " "
                + FuzzHttp.printable(FuzzHttp.abbreviate(a.bodyText(), 400));
    return "seed="
        + SEED
        + " case="
        + c.index()
        + " ["
        + c.kind()
        + "]"
        + (c.target() != null ? " target=" + c.target().label() : "")
        + "\n  request: "
        + c.request().describe()
        + "\n  answer: "
        + answer;
  }

  /**
   * Sends a case; a connection the server closed under a pooled request (it does so after some
   * error pages without saying Connection: close) is retried on a fresh one, at most twice.
   */
  static Answer sendWithRetry(Request r, LongAdder retries) throws Exception {
    for (int attempt = 0; ; attempt++) {
      try {
        return http.send(r);
      } catch (java.io.IOException e) {
        if (attempt == 2) throw e;
        retries.increment();
      }
    }
  }

  @Test
  void malformedRequestsNeverCause5xxAlwaysGetProblemDetailsAndLeaveAgreementsIntact()
      throws Exception {
    long started = System.nanoTime();
    ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();
    Map<String, LongAdder> statuses = new ConcurrentHashMap<>();
    Map<String, LongAdder> kinds = new ConcurrentHashMap<>();
    Map<KnownBug, LongAdder> known = new ConcurrentHashMap<>();
    Map<KnownBug, String> knownExample = new ConcurrentHashMap<>();
    Set<String> created = ConcurrentHashMap.newKeySet();
    LongAdder scratchChanges = new LongAdder();
    LongAdder unsendable = new LongAdder();
    LongAdder retries = new LongAdder();
    java.util.concurrent.ConcurrentSkipListMap<Long, String> slowest =
        new java.util.concurrent.ConcurrentSkipListMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> futures = new ArrayList<>();
    int total = totalCases();
    for (int i = 0; i < total; i++) {
      if (ONLY_CASE != null && i != ONLY_CASE) continue;
      int index = i;
      futures.add(
          pool.submit(() -> {
            Case c = generate(index);
            String[] kindParts = c.kind().split("[/ ]");
            kinds
                .computeIfAbsent(
                    kindParts.length > 1 ? kindParts[0] + "/" + kindParts[1] : kindParts[0],
                    k -> new LongAdder())
                .increment();
            Answer a;
            long t0 = System.nanoTime();
            try {
              a = sendWithRetry(c.request(), retries);
            } catch (IllegalArgumentException e) {
              unsendable
                  .increment(); // java.net.http refuses to build it (e.g. a forbidden method);
              // nothing was sent
              return;
            } catch (Exception e) {
              failures.add(
                  new Failure(
                      "no-answer " + c.route() + " " + e.getClass().getSimpleName(),
                      describe(c, null) + "\n  exception: " + e));
              return;
            }
            long micros = (System.nanoTime() - t0) / 1000 * 1000 + index % 1000;
            slowest.put(
                micros,
                "case "
                    + index
                    + " ["
                    + c.kind()
                    + "] "
                    + c.request().method()
                    + " "
                    + FuzzHttp.abbreviate(c.request().target(), 80)
                    + " -> "
                    + a.status());
            while (slowest.size() > 5) slowest.pollFirstEntry();
            statuses.computeIfAbsent(String.valueOf(a.status()), k -> new LongAdder()).increment();
            if (ONLY_CASE != null) System.out.println(describe(c, a));
            List<String> problems = check(c, a);
            KnownBug bug = problems.isEmpty() ? null : KnownBug.match(c, a);
            if (bug != null && !STRICT) {
              known.computeIfAbsent(bug, k -> new LongAdder()).increment();
              knownExample.putIfAbsent(bug, describe(c, a));
            } else {
              for (String p : problems) {
                failures.add(
                    new Failure(
                        p
                            + " "
                            + c.request().method()
                            + " "
                            + c.route()
                            + " -> "
                            + a.status()
                            + (bug != null ? " (known: " + bug + ")" : ""),
                        describe(c, a)));
              }
            }
            if (a.status() / 100 == 2
                && c.route() == Route.CREATE
                && c.request().method().equals("POST")
                && c.request().target().equals("/agreements")) {
              try {
                created.add(Json.parse(a.body()).path("agreement_id").asText());
              } catch (Exception e) {
                failures.add(new Failure("create-answer-not-json", describe(c, a)));
              }
            } else if (a.status() / 100 == 2 && !READ_METHODS.contains(c.request().method())) {
              scratchChanges.increment();
            }
          }));
    }
    for (Future<?> f : futures) f.get(10, TimeUnit.MINUTES);
    pool.shutdown();
    long fuzzMillis = (System.nanoTime() - started) / 1_000_000;

    // Afterwards: the server is alive, guarded agreements are untouched, every chain verifies.
    Answer health = http.send(new Request("GET", "/health", List.of(), null, false, null));
    if (health.status() != 200)
      failures.add(
          new Failure("health", "seed=" + SEED + " GET /health answered " + health.status()));
    for (Target t : guarded) {
      JsonNode[] before = snapshots.get(t.id());
      JsonNode envelope = client.agreement(t.id());
      JsonNode events = client.events(t.id());
      if (!envelope.equals(before[0])) {
        failures.add(
            new Failure(
                "guarded-changed " + t.label(),
                "seed="
                    + SEED
                    + " "
                    + t.label()
                    + " "
                    + t.id()
                    + " changed: state "
                    + before[0].path("state")
                    + " -> "
                    + envelope.path("state")
                    + ", version "
                    + before[0].path("version")
                    + " -> "
                    + envelope.path("version")));
      }
      if (!events.equals(before[1])) {
        failures.add(
            new Failure(
                "guarded-events-changed " + t.label(),
                "seed="
                    + SEED
                    + " "
                    + t.label()
                    + " "
                    + t.id()
                    + " events "
                    + before[1].path("events").size()
                    + " -> "
                    + events.path("events").size()));
      }
      checkChain(t.label(), events, envelope, failures);
    }
    List<String> others = new ArrayList<>();
    scratch.forEach(t -> others.add(t.id()));
    others.addAll(created);
    for (String id : others) {
      try {
        checkChain(id, client.events(id), client.agreement(id), failures);
      } catch (RuntimeException e) {
        failures.add(
            new Failure(
                "unreadable-after-fuzzing", "seed=" + SEED + " agreement " + id + ": " + e));
      }
    }
    long totalMillis = (System.nanoTime() - started) / 1_000_000;
    System.out.printf(
        "HttpFuzzTest on %s, seed=%d: %d cases (%d sweep, %d random, %d unsendable, %d retried) in %d ms (%d ms with the final checks), %d server errors (5xx)%n"
            + "  statuses %s%n  kinds %s%n  %d agreements created, %d accepted changes to scratch agreements%n  slowest: %s%n",
        storeName,
        SEED,
        futures.size(),
        SWEEP.size(),
        RANDOM_CASES,
        unsendable.sum(),
        retries.sum(),
        fuzzMillis,
        totalMillis,
        statuses.entrySet().stream()
            .filter(e -> e.getKey().startsWith("5"))
            .mapToLong(e -> e.getValue().sum())
            .sum(),
        new TreeMap<>(statuses),
        new TreeMap<>(kinds),
        created.size(),
        scratchChanges.sum(),
        slowest.descendingMap().values());
    known.forEach((bug, n) ->
        System.out.printf(
            "  tolerated known server bug %s x%d: %s%n    e.g. %s%n",
            bug, n.sum(), bug.description, knownExample.get(bug).replace("\n", "\n    ")));

    if (!failures.isEmpty()) {
      Map<String, List<Failure>> bySignature = new TreeMap<>();
      failures.forEach(
          f -> bySignature.computeIfAbsent(f.signature(), k -> new ArrayList<>()).add(f));
      StringBuilder report =
          new StringBuilder(
              "seed="
                  + SEED
                  + ": "
                  + failures.size()
                  + " bad answers, "
                  + bySignature.size()
                  + " distinct kinds (shortest example of each):\n");
      bySignature.forEach((sig, list) ->
          report
              .append("\n* ")
              .append(sig)
              .append(" (x")
              .append(list.size())
              .append(")\n")
              .append(
                  list.stream()
                      .min(java.util.Comparator.comparing(f -> f.message().length()))
                      .orElseThrow()
                      .message())
              .append('\n'));
      fail(report.toString());
    }
  }

  private static void checkChain(
      String label, JsonNode events, JsonNode envelope, ConcurrentLinkedQueue<Failure> failures) {
    var broken = EventChain.firstBreak(events);
    if (broken.isPresent() || !events.path("chain_valid").asBoolean()) {
      failures.add(
          new Failure(
              "chain-broken " + label,
              "seed=" + SEED + " " + label + ": " + broken.orElse("chain_valid=false")));
    }
    JsonNode list = events.path("events");
    String lastState =
        list.isEmpty() ? "" : list.get(list.size() - 1).path("payload").path("state").asText();
    if (!lastState.equals(envelope.path("state").asText())) {
      failures.add(
          new Failure(
              "state-not-in-last-event " + label,
              "seed="
                  + SEED
                  + " "
                  + label
                  + ": envelope state "
                  + envelope.path("state").asText()
                  + ", last event says "
                  + lastState));
    }
    if (list.size() < envelope.path("version").asLong()) {
      failures.add(
          new Failure(
              "fewer-events-than-versions " + label,
              "seed="
                  + SEED
                  + " "
                  + label
                  + ": version "
                  + envelope.path("version")
                  + " but "
                  + list.size()
                  + " events"));
    }
  }

  // ---- the server bugs found, one reproduction each --------------------------------------------

  private static Answer send(
      String signer, String method, String target, byte[] body, Header... headers)
      throws Exception {
    return http.send(new Request(method, target, List.of(headers), body, false, signer));
  }

  /** A 4xx problem+json answer with type, title, status and detail. */
  private static void assertProblem(Answer a, int status, String what) {
    assertThat(a.status())
        .as(
            "seed=%d %s: status; answer %s %s",
            SEED, what, a.contentType(), FuzzHttp.abbreviate(a.bodyText(), 300))
        .isEqualTo(status);
    assertThat(a.contentType())
        .as("seed=%d %s: content type", SEED, what)
        .startsWith("application/problem+json");
    JsonNode p;
    try {
      p = Json.parse(a.body());
    } catch (Exception e) {
      throw new AssertionError(
          "seed=" + SEED + " " + what + ": problem body is not JSON: " + a.bodyText(), e);
    }
    assertThat(
            p.path("type").isTextual()
                && p.path("title").isTextual()
                && p.path("detail").isTextual()
                && p.path("status").asInt() == status)
        .as("seed=%d %s: problem fields in %s", SEED, what, p)
        .isTrue();
  }

  private static final Header JSON = new Header("Content-Type", "application/json");

  @Test
  void anInvalidListCursorIsA400() throws Exception {
    for (String cursor : List.of("abc", "djE6MA", "AAAA", "djE6OTk5OTk5OTk5OTk5OTk5OTk5OTk")) {
      assertProblem(
          send("alice", "GET", "/agreements?party=alice&cursor=" + cursor, null),
          400,
          "cursor " + cursor);
    }
  }

  @Test
  void aNumberOutsideBigDecimalRangeIsMalformedJson() throws Exception {
    for (String n : List.of("1e-2147483649", "1.0e+999999999999")) {
      assertProblem(
          send(
              "bob",
              "POST",
              "/agreements/nope/deliver",
              FuzzBodies.utf8("{\"content\":\"x\",\"format\":" + n + "}"),
              JSON),
          400,
          n);
      assertProblem(
          send(
              "alice", "POST", "/agreements", FuzzBodies.utf8("{\"asa_version\":" + n + "}"), JSON),
          400,
          n);
    }
  }

  @Test
  void extremeNumbersInEvaluatorScoresAreRefusedWith422() throws Exception {
    String[][] cases = {
      {"score", "1E+2147483647"},
      {"score", "-1E+2147483647"},
      {"score", "1E-2147483647"},
      {"confidence", "1E-2147483647"},
      {"shadow_value", "1E+2147483647"},
      {"shadow_value", "1e999999"}
    };
    org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
    for (String[] c : cases) {
      String id = advanceTo("DELIVERED");
      ObjectNode scores = judgedScores(88, 82, 94);
      if (c[0].equals("confidence")) scores.put("confidence", FuzzBodies.RAW);
      else ((ObjectNode) scores.get("dimensions").get(0)).put(c[0], FuzzBodies.RAW);
      ObjectNode body = Json.object();
      body.set("evaluator_result", scores);
      Answer a =
          send(
              "eval-1",
              "POST",
              "/agreements/" + id + "/verify",
              FuzzBodies.write(body, c[1]),
              JSON);
      soft.check(() -> assertProblem(a, 422, c[0] + "=" + c[1]));
      soft.assertThat(client.agreement(id).path("state").asText())
          .as("seed=%d %s=%s", SEED, c[0], c[1])
          .isEqualTo("DELIVERED");
    }
    soft.assertAll();
  }

  @Test
  void aNegotiablePathWithAHugeIndexIsRefusedWith422() throws Exception {
    String id = advanceTo("PROPOSED");
    JsonNode before = client.events(id);
    byte[] body =
        FuzzBodies.utf8(
            "{\"party\":\"provider\",\"action\":\"counter\",\"proposed_changes\":"
                + "{\"quality_criteria.dimensions[2147483648].weight\":0.5}}");
    assertProblem(
        send("bob", "PATCH", "/agreements/" + id + "/negotiate", body, JSON),
        422,
        "dimensions[2147483648]");
    assertThat(client.events(id)).as("seed=%d events unchanged", SEED).isEqualTo(before);
  }

  @Test
  void aLoneSurrogateIsRefusedWith4xx() throws Exception {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.get("service")).put("description", FuzzBodies.RAW);
    Answer a = send("alice", "POST", "/agreements", FuzzBodies.write(doc, "\"\\udc00x\""), JSON);
    assertThat(a.status())
        .as("seed=%d lone surrogate: %s %s", SEED, a.status(), a.bodyText())
        .isIn(400, 422);
    assertProblem(a, a.status(), "lone surrogate");
    // The same through raw UTF-8: F4 90 80 80 (above U+10FFFF) is decoded by Jackson into two lone
    // surrogates.
    byte[] bytes = FuzzBodies.write(doc, "\"@@\"");
    String text =
        new String(bytes, StandardCharsets.ISO_8859_1)
            .replace("\"@@\"", "\"\u00f4\u0090\u0080\u0080\"");
    Answer b =
        send("alice", "POST", "/agreements", text.getBytes(StandardCharsets.ISO_8859_1), JSON);
    assertThat(b.status())
        .as("seed=%d bytes F4 90 80 80: %s %s", SEED, b.status(), b.bodyText())
        .isIn(400, 422);
    assertProblem(b, b.status(), "bytes F4 90 80 80");
  }

  @Test
  void anOddUriGetsAProblemDocument() throws Exception {
    for (String target :
        List.of(
            "/agreements/%00",
            "/agreements/%FF/deliver", "/agreements/%C3%28", "/%2e%2e/%2e%2e/etc/passwd")) {
      Answer a = send(null, "GET", target, null);
      assertThat(a.status()).as("seed=%d %s", SEED, target).isBetween(400, 499);
      assertProblem(a, a.status(), target);
    }
  }

  @Test
  void aTooLongUriGetsAProblemDocument() throws Exception {
    assertProblem(
        send("alice", "GET", "/agreements/" + "a".repeat(9000), null), 414, "9000-character id");
  }

  @Test
  void aTooLargeHeaderGetsAProblemDocument() throws Exception {
    assertProblem(
        send(
            "alice",
            "POST",
            "/agreements/nope/close",
            new byte[0],
            new Header("Idempotency-Key", "k".repeat(10 * 1024))),
        431,
        "10 KB Idempotency-Key");
  }

  @Test
  void aTooLargeChunkedBodyGetsAProblemDocument() throws Exception {
    Target active = byState(guarded, "ACTIVE");
    Answer a =
        http.send(
            new Request(
                "POST",
                "/agreements/" + active.id() + "/deliver",
                List.of(JSON),
                hugeContent((int) MAX_BODY + 1),
                true,
                "bob"));
    assertProblem(a, 413, "chunked 16 MiB + 1");
  }
}
