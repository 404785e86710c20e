package dev.asa.server.escrow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.json.Json;
import dev.asa.server.escrow.x402.Authorization;
import dev.asa.server.escrow.x402.Requirements;
import dev.asa.server.escrow.x402.X402;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A local x402 (protocol version 2) facilitator for tests: a real HTTP server on the loopback
 * interface that answers {@code POST /verify}, {@code POST /settle} and {@code GET /supported} in
 * the v2 wire format, and keeps the books in memory.
 *
 * <p>It behaves like a facilitator in what matters to the escrow: request bodies are validated
 * strictly (400 with an {@code error} when malformed); {@code /verify} checks the authorization
 * against the requirements (recipient, asset, amount covered, time window against a settable clock,
 * a signature present); {@code /settle} re-checks, moves at most the authorized value (for {@code
 * exact}, the whole signed value, as EIP-3009 does), and settles each nonce at most once. A
 * repeated settlement of a settled nonce for the same amount gets the first answer again (same
 * transaction), as an outbox that retries needs.
 *
 * <p>Out of scope: real EIP-712 signature checking, balances, allowances and any chain; signatures
 * are only checked to be present and well formed, and transaction hashes are made up.
 *
 * <p>Failure modes for tests: {@link #failNext} (503), {@link #refuseSettlements} and {@link
 * #refuseVerifications} ({@code success:false} / {@code isValid:false} with a reason), {@link
 * #hangNext} (answer only after a delay, having done the work: a lost answer).
 */
public final class FakeFacilitator implements AutoCloseable {

  /**
   * The fake's signer; an {@code upto} authorization's {@code witness.facilitator} must name it.
   */
  public static final String ADDRESS = "0xfac17a70000000000000000000000000000000fa";

  /** Stands in for the x402 upto Permit2 proxy, the spender every upto authorization names. */
  public static final String UPTO_PROXY = "0x4020000000000000000000000000000000000002";

  /** The payer of the payloads {@link #paymentPayload} builds. */
  public static final String PAYER = "0x1111111111111111111111111111111111111111";

  private static final int MAX_BODY_BYTES = 1024 * 1024;
  private static final Pattern ADDRESS_FORM = Pattern.compile("0x[0-9a-fA-F]{40}");
  private static final Pattern UINT = Pattern.compile("0|[1-9][0-9]{0,77}");
  private static final Pattern BYTES32 = Pattern.compile("0x[0-9a-fA-F]{64}");
  private static final Pattern SIGNATURE = Pattern.compile("0x(?:[0-9a-fA-F]{2}){65,}");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** One settlement that moved money. */
  public record Settlement(
      String nonce,
      String amount,
      String payTo,
      String transaction,
      String payer,
      String asset,
      String network) {}

  /** One request as received, for tests that check what was sent. */
  public record Request(String method, String path, String body) {}

  private record Answer(int status, JsonNode body) {}

  /** What a settled nonce was settled for, and the answer to repeat. */
  private record Settled(String requestedAmount, String payTo, ObjectNode response) {}

  private record Parsed(
      Requirements requirements,
      Requirements accepted,
      JsonNode payload,
      Authorization authorization) {}

  private static final class BadRequest extends Exception {
    BadRequest(String message) {
      super(message);
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final Object books = new Object();
  private final Map<String, Settled> settledNonces = new HashMap<>();
  private final List<Settlement> settlements = new ArrayList<>();
  private final List<Request> requests = new ArrayList<>();
  private final AtomicInteger unavailableCalls = new AtomicInteger();
  private final AtomicInteger hangingCalls = new AtomicInteger();
  private volatile Duration hangFor = Duration.ZERO;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile String settleRefusal;
  private volatile String verifyRefusal;

  /**
   * The text for people a refusal carries beside its reason (x402's invalidMessage, errorMessage).
   */
  private volatile String refusalMessage;

  private volatile Instant now;

  public FakeFacilitator() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the fake x402 facilitator", e);
    }
    executor =
        Executors.newCachedThreadPool(r -> {
          Thread t = new Thread(r, "fake-x402-facilitator");
          t.setDaemon(true);
          return t;
        });
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  public URI uri() {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().getHostAddress();
    return URI.create(
        "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort());
  }

  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    server.stop(0);
    executor.shutdownNow(); // wakes handlers that hang on purpose
  }

  // --- settings -------------------------------------------------------------------------------

  /**
   * Sets the facilitator's clock, against which authorizations expire; null returns to real time.
   */
  public void setNow(Instant instant) {
    now = instant;
  }

  public Instant now() {
    Instant n = now;
    return n == null ? Instant.now() : n;
  }

  /** The next {@code calls} requests, of any kind, are answered 503 without being looked at. */
  public void failNext(int calls) {
    unavailableCalls.set(calls);
  }

  /**
   * Settlements not yet made answer {@code success:false} with this reason; null stops refusing.
   */
  public void refuseSettlements(String errorReason) {
    settleRefusal = errorReason;
  }

  /** Verifications answer {@code isValid:false} with this reason; null stops refusing. */
  public void refuseVerifications(String invalidReason) {
    verifyRefusal = invalidReason;
  }

  /** Refusals from now on carry this {@code invalidMessage} or {@code errorMessage}; null: none. */
  public void refuseWithMessage(String message) {
    refusalMessage = message;
  }

  /**
   * The next {@code calls} requests are processed (a settlement is made) but answered only after
   * {@code delay}: longer than a client's timeout, this is a lost answer.
   */
  public void hangNext(int calls, Duration delay) {
    hangFor = delay;
    hangingCalls.set(calls);
  }

  // --- the books ------------------------------------------------------------------------------

  public List<Settlement> settlements() {
    synchronized (books) {
      return List.copyOf(settlements);
    }
  }

  public List<Request> requests() {
    synchronized (books) {
      return List.copyOf(requests);
    }
  }

  // --- client side helper ---------------------------------------------------------------------

  /** A valid client PaymentPayload for the requirements, valid from now for at least an hour. */
  public static ObjectNode paymentPayload(Requirements requirements) {
    return paymentPayload(requirements, Instant.now());
  }

  /**
   * A well-formed x402 v2 PaymentPayload that this fake (and {@link X402#parsePayload}) accepts for
   * {@code requirements}, as a client would send it: {@code accepted} echoes the requirements;
   * {@code upto} carries a Permit2 authorization, {@code exact} an EIP-3009 one; a random nonce,
   * valid from ten minutes before {@code now} until an hour after it (or {@code maxTimeoutSeconds},
   * when longer), and a dummy 65-byte signature.
   */
  public static ObjectNode paymentPayload(Requirements requirements, Instant now) {
    long start = Math.max(0, now.getEpochSecond() - 600);
    long end = now.getEpochSecond() + Math.max(3600, requirements.maxTimeoutSeconds());
    ObjectNode payload = Json.object();
    payload.put("x402Version", X402.VERSION);
    payload.set("accepted", requirements.toJson());
    ObjectNode inner = payload.putObject("payload");
    inner.put("signature", "0x" + HexFormat.of().formatHex(randomBytes(65)));
    if (requirements.scheme().equals(X402.UPTO)) {
      ObjectNode a = inner.putObject("permit2Authorization");
      a.put("from", PAYER);
      ObjectNode permitted = a.putObject("permitted");
      permitted.put("token", requirements.asset());
      permitted.put("amount", requirements.amount());
      a.put("spender", UPTO_PROXY);
      a.put(
          "nonce",
          new BigInteger(1, randomBytes(32)).toString()); // Permit2 nonces are decimal uint256
      a.put("deadline", Long.toString(end));
      ObjectNode witness = a.putObject("witness");
      witness.put("to", requirements.payTo());
      ObjectNode extra = requirements.extra();
      witness.put(
          "facilitator",
          extra != null && extra.path("facilitatorAddress").isTextual()
              ? extra.get("facilitatorAddress").textValue()
              : ADDRESS);
      witness.put("validAfter", Long.toString(start));
    } else {
      ObjectNode a = inner.putObject("authorization");
      a.put("from", PAYER);
      a.put("to", requirements.payTo());
      a.put("value", requirements.amount());
      a.put("validAfter", Long.toString(start));
      a.put("validBefore", Long.toString(end));
      a.put(
          "nonce", "0x" + HexFormat.of().formatHex(randomBytes(32))); // EIP-3009 nonces are bytes32
    }
    return payload;
  }

  private static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  // --- HTTP -----------------------------------------------------------------------------------

  private void handle(HttpExchange exchange) {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
      synchronized (books) {
        requests.add(new Request(method, path, new String(body, StandardCharsets.UTF_8)));
      }
      if (unavailableCalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        respond(
            exchange,
            new Answer(503, error("temporarily unavailable (a failure the test asked for)")));
        return;
      }
      boolean hang = hangingCalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
      Answer answer = route(method, path, body);
      if (hang) {
        try {
          Thread.sleep(hangFor.toMillis());
        } catch (InterruptedException e) {
          return; // closing
        }
      }
      respond(exchange, answer);
    } catch (IOException | RuntimeException e) {
      // The client went away (or a bug here); the client sees a broken exchange either way.
    }
  }

  private Answer route(String method, String path, byte[] body) {
    return switch (path) {
      case "/verify", "/settle" -> {
        if (!method.equals("POST")) {
          yield new Answer(405, error(path + " takes POST"));
        }
        Parsed parsed;
        try {
          parsed = parseRequest(body);
        } catch (BadRequest e) {
          yield new Answer(400, error(e.getMessage()));
        }
        yield path.equals("/verify") ? verify(parsed) : settle(parsed);
      }
      case "/supported" ->
          method.equals("GET")
              ? new Answer(200, supported())
              : new Answer(405, error("/supported takes GET"));
      default -> new Answer(404, error("no such facilitator endpoint: " + path));
    };
  }

  private static void respond(HttpExchange exchange, Answer answer) throws IOException {
    byte[] bytes = Json.write(answer.body()).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(answer.status(), bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private static ObjectNode error(String message) {
    ObjectNode o = Json.object();
    o.put("error", message);
    return o;
  }

  private static ObjectNode supported() {
    ObjectNode o = Json.object();
    ArrayNode kinds = o.putArray("kinds");
    for (String scheme : List.of(X402.EXACT, X402.UPTO)) {
      ObjectNode kind = kinds.addObject();
      kind.put("x402Version", X402.VERSION);
      kind.put("scheme", scheme);
      kind.put("network", "eip155:84532");
      if (scheme.equals(X402.UPTO)) {
        // As the official upto facilitator's getExtra(): the signer a Permit2 witness must name.
        kind.putObject("extra").put("facilitatorAddress", ADDRESS);
      }
    }
    o.putArray("extensions");
    o.putObject("signers").putArray("eip155:*").add(ADDRESS);
    return o;
  }

  // --- request validation ---------------------------------------------------------------------

  /** The structure of a /verify or /settle body; what it asks for is judged afterwards. */
  private static Parsed parseRequest(byte[] body) throws BadRequest {
    if (body.length > MAX_BODY_BYTES) {
      throw new BadRequest("the request body exceeds " + MAX_BODY_BYTES + " bytes");
    }
    JsonNode root;
    try {
      root = Json.parse(body);
    } catch (JsonProcessingException e) {
      throw new BadRequest("the request body is not JSON: " + e.getOriginalMessage());
    }
    if (!root.isObject()) {
      throw new BadRequest(
          "the request body must be an object {x402Version, paymentPayload, paymentRequirements}");
    }
    only(root, "", Set.of("x402Version", "paymentPayload", "paymentRequirements"));
    version(root, "/x402Version");
    Requirements requirements;
    Requirements accepted;
    try {
      requirements = Requirements.fromJson(root.get("paymentRequirements"), "/paymentRequirements");
      JsonNode payload = root.get("paymentPayload");
      if (payload == null || !payload.isObject()) {
        throw new BadRequest("/paymentPayload must be a PaymentPayload object");
      }
      only(
          payload,
          "/paymentPayload",
          Set.of("x402Version", "resource", "accepted", "payload", "extensions"));
      version(payload, "/paymentPayload/x402Version");
      accepted = Requirements.fromJson(payload.get("accepted"), "/paymentPayload/accepted");
    } catch (InvalidDocumentException e) {
      throw new BadRequest(e.getMessage());
    }
    JsonNode payload = root.get("paymentPayload");
    JsonNode inner = payload.get("payload");
    if (inner == null || !inner.isObject()) {
      throw new BadRequest("/paymentPayload/payload must be an object");
    }
    String at = "/paymentPayload/payload";
    if (inner.has("signature") && !inner.get("signature").isTextual()) {
      throw new BadRequest(at + "/signature must be a string");
    }
    if (inner.has("authorization") == inner.has("permit2Authorization")) {
      throw new BadRequest(
          at
              + " must hold exactly one of authorization (EIP-3009) and permit2Authorization (Permit2)");
    }
    if (inner.has("authorization")) {
      only(inner, at, Set.of("signature", "authorization"));
      JsonNode a = object(inner, "authorization", at);
      at += "/authorization";
      only(a, at, Set.of("from", "to", "value", "validAfter", "validBefore", "nonce"));
      string(a, "from", at, ADDRESS_FORM);
      string(a, "to", at, ADDRESS_FORM);
      string(a, "value", at, UINT);
      string(a, "validAfter", at, UINT);
      string(a, "validBefore", at, UINT);
      string(a, "nonce", at, BYTES32);
    } else {
      only(inner, at, Set.of("signature", "permit2Authorization"));
      JsonNode a = object(inner, "permit2Authorization", at);
      at += "/permit2Authorization";
      only(a, at, Set.of("from", "permitted", "spender", "nonce", "deadline", "witness"));
      string(a, "from", at, ADDRESS_FORM);
      string(a, "spender", at, ADDRESS_FORM);
      string(a, "nonce", at, UINT);
      string(a, "deadline", at, UINT);
      JsonNode permitted = object(a, "permitted", at);
      only(permitted, at + "/permitted", Set.of("token", "amount"));
      string(permitted, "token", at + "/permitted", ADDRESS_FORM);
      string(permitted, "amount", at + "/permitted", UINT);
      JsonNode witness = object(a, "witness", at);
      only(witness, at + "/witness", Set.of("to", "validAfter", "facilitator", "extra"));
      string(witness, "to", at + "/witness", ADDRESS_FORM);
      string(witness, "validAfter", at + "/witness", UINT);
      if (witness.has("facilitator")) {
        string(witness, "facilitator", at + "/witness", ADDRESS_FORM);
      }
    }
    return new Parsed(requirements, accepted, payload, Authorization.of(payload));
  }

  private static void version(JsonNode node, String pointer) throws BadRequest {
    String field = pointer.substring(pointer.lastIndexOf('/') + 1);
    JsonNode v = node.get(field);
    if (v == null || !v.isIntegralNumber() || v.asLong() != X402.VERSION) {
      throw new BadRequest(pointer + " must be 2");
    }
  }

  private static void only(JsonNode node, String pointer, Set<String> allowed) throws BadRequest {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!allowed.contains(name)) {
        throw new BadRequest(pointer + "/" + name + " is not part of the x402 v2 format");
      }
    }
  }

  private static JsonNode object(JsonNode parent, String field, String pointer) throws BadRequest {
    JsonNode n = parent.get(field);
    if (n == null || !n.isObject()) {
      throw new BadRequest(pointer + "/" + field + " must be an object");
    }
    return n;
  }

  private static void string(JsonNode parent, String field, String pointer, Pattern form)
      throws BadRequest {
    JsonNode n = parent.get(field);
    if (n == null || !n.isTextual() || !form.matcher(n.textValue()).matches()) {
      throw new BadRequest(pointer + "/" + field + (n == null ? " is missing" : " is malformed"));
    }
  }

  // --- verification and settlement ------------------------------------------------------------

  /** Why the authorization cannot pay these requirements now (an x402 error code), or null. */
  private String problem(Parsed p, boolean settling) {
    Requirements r = p.requirements();
    Authorization a = p.authorization();
    boolean upto = r.scheme().equals(X402.UPTO);
    if (!p.accepted().scheme().equals(r.scheme())) {
      return "invalid_scheme";
    }
    if (!p.accepted().network().equals(r.network()) || !r.network().startsWith("eip155:")) {
      return "invalid_network";
    }
    if (upto != a.method().equals(Authorization.PERMIT2)) {
      return "invalid_payload"; // upto is Permit2-only; exact here is EIP-3009
    }
    String prefix = upto ? "invalid_upto_evm_payload_" : "invalid_exact_evm_payload_";
    if (a.signature() == null || !SIGNATURE.matcher(a.signature()).matches()) {
      return prefix + "signature";
    }
    if (!X402.sameAddress(a.to(), r.payTo())) {
      return upto
          ? "invalid_permit2_recipient_mismatch"
          : "invalid_exact_evm_payload_recipient_mismatch";
    }
    if (upto) {
      JsonNode auth = p.payload().path("payload").path("permit2Authorization");
      if (!X402.sameAddress(auth.path("permitted").path("token").asText(), r.asset())) {
        return "permit2_token_mismatch";
      }
      if (!X402.sameAddress(auth.path("spender").asText(), UPTO_PROXY)) {
        return "invalid_permit2_spender";
      }
      JsonNode facilitator = auth.path("witness").path("facilitator");
      if (facilitator.isTextual() && !X402.sameAddress(facilitator.textValue(), ADDRESS)) {
        return "invalid_upto_evm_facilitator_mismatch";
      }
    }
    if (a.value().compareTo(r.atomic()) < 0) {
      if (!upto) {
        return "invalid_exact_evm_payload_authorization_value";
      }
      return settling
          ? "invalid_upto_evm_payload_settlement_exceeds_amount"
          : "invalid_upto_evm_payload_amount_mismatch";
    }
    BigInteger t = BigInteger.valueOf(now().getEpochSecond());
    if (a.validAfter().compareTo(t) > 0) {
      return upto ? "permit2_not_yet_valid" : "invalid_exact_evm_payload_authorization_valid_after";
    }
    if (a.validBefore().compareTo(t) <= 0) {
      return upto
          ? "permit2_deadline_expired"
          : "invalid_exact_evm_payload_authorization_valid_before";
    }
    return null;
  }

  private Answer verify(Parsed p) {
    String reason = verifyRefusal;
    if (reason == null) {
      reason = problem(p, false);
    }
    if (reason == null) {
      synchronized (books) {
        if (settledNonces.containsKey(nonceKey(p))) {
          reason = "nonce_already_used";
        }
      }
    }
    ObjectNode o = Json.object();
    o.put("isValid", reason == null);
    if (reason != null) {
      o.put("invalidReason", reason);
      if (refusalMessage != null) {
        o.put("invalidMessage", refusalMessage);
      }
    }
    o.put("payer", p.authorization().from());
    return new Answer(200, o);
  }

  private Answer settle(Parsed p) {
    Requirements r = p.requirements();
    Authorization a = p.authorization();
    synchronized (books) {
      String key = nonceKey(p);
      Settled prior = settledNonces.get(key);
      if (prior != null) {
        // At most once per nonce: the same request again (an outbox retry) gets the same answer.
        if (prior.requestedAmount().equals(r.amount())
            && X402.sameAddress(prior.payTo(), r.payTo())) {
          return new Answer(200, prior.response().deepCopy());
        }
        return new Answer(200, settleFailure(p, "nonce_already_used"));
      }
      String reason = settleRefusal != null ? settleRefusal : problem(p, true);
      if (reason != null) {
        return new Answer(200, settleFailure(p, reason));
      }
      // EIP-3009 moves exactly the signed value whatever was asked; Permit2 through the upto proxy
      // moves the requested amount (at most the permitted one, checked above).
      BigInteger moved = r.scheme().equals(X402.UPTO) ? r.atomic() : a.value();
      String transaction = moved.signum() == 0 ? "" : transactionHash(r.network(), key);
      ObjectNode response = Json.object();
      response.put("success", true);
      response.put("payer", a.from());
      response.put("transaction", transaction);
      response.put("network", r.network());
      if (r.scheme().equals(X402.UPTO)) {
        response.put("settledAmount", moved.toString());
      }
      settledNonces.put(key, new Settled(r.amount(), r.payTo(), response));
      if (moved.signum() > 0) {
        settlements.add(
            new Settlement(
                a.nonce(),
                moved.toString(),
                r.payTo(),
                transaction,
                a.from(),
                r.asset(),
                r.network()));
      }
      return new Answer(200, response.deepCopy());
    }
  }

  private ObjectNode settleFailure(Parsed p, String reason) {
    ObjectNode o = Json.object();
    o.put("success", false);
    o.put("errorReason", reason);
    if (refusalMessage != null) {
      o.put("errorMessage", refusalMessage);
    }
    o.put("payer", p.authorization().from());
    o.put("transaction", "");
    o.put("network", p.requirements().network());
    return o;
  }

  /** Nonces are per payer and token on chain; the fake keys them the same way. */
  private static String nonceKey(Parsed p) {
    return (p.requirements().network()
            + "|"
            + p.requirements().asset()
            + "|"
            + p.authorization().from()
            + "|"
            + p.authorization().nonce())
        .toLowerCase(Locale.ROOT);
  }

  private static String transactionHash(String network, String nonceKey) {
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256")
              .digest((network + "|" + nonceKey).getBytes(StandardCharsets.UTF_8));
      return "0x" + HexFormat.of().formatHex(h);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
