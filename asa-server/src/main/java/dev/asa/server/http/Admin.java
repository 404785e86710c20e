package dev.asa.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.pool.CanarySetInfo;
import dev.asa.server.pool.EvaluatorRegistry;
import java.util.TreeMap;

/**
 * The server's own key (public) and the operator's routes (declared {@link Access#OPERATOR} in
 * {@link Routes}).
 */
public final class Admin {
  private final ServerConfig config;
  private final Ed25519PublicKey serverKey;
  private final String storeDescription;
  private final EvaluatorRegistry registry;

  public Admin(
      ServerConfig config,
      Ed25519PublicKey serverKey,
      String storeDescription,
      EvaluatorRegistry registry) {
    this.config = config;
    this.serverKey = serverKey;
    this.storeDescription = storeDescription;
    this.registry = registry;
  }

  ObjectNode serverKey() {
    ObjectNode o = Json.object();
    o.put("scheme", "ed25519");
    o.put("value", serverKey.toBase64Url());
    return o;
  }

  /** The configuration in force, for the operator (secrets never appear: there are none here). */
  ObjectNode config() {
    ObjectNode o = Json.object();
    o.put("host", config.host());
    o.put("port", config.port());
    o.put("store", storeDescription);
    o.put("data_dir", config.dataDir().toAbsolutePath().toString());
    o.put("max_body_bytes", config.maxBodyBytes());
    o.put("requests_per_second_per_key", config.requestsPerSecondPerKey());
    o.put("burst_per_key", config.burstPerKey());
    o.set("server_key", serverKey());
    o.put("operator_key", config.operatorKey().toBase64Url());
    var n = config.negotiationPolicy();
    o.putObject("negotiation")
        .put("max_rounds", n.maxRounds())
        .put("max_shift", n.maxShift())
        .put("price_band_low", n.priceBandLow())
        .put("price_band_high", n.priceBandHigh())
        .put("timeout_seconds", n.timeoutSeconds())
        .put("min_closed_for_median", n.minClosedForMedian());
    var sources = o.putArray("trusted_market_sources");
    config.trustedMarketSources().stream().sorted().forEach(sources::add);
    ObjectNode verification = o.putObject("verification");
    verification.put("default_evaluator", config.verification().defaultType());
    ObjectNode offered = verification.putObject("evaluators");
    config.verification().description().forEach(offered::put);
    verification.put(
        "rotation_max_consecutive", config.assignment().defaultRotation().maxConsecutive());
    var e = config.escrow();
    ObjectNode escrow = o.putObject("escrow");
    var prefixes = escrow.putArray("callback_url_prefixes");
    e.callbackUrlPrefixes().forEach(prefixes::add);
    escrow.put(
        "x402_facilitator", e.x402Facilitator() == null ? null : e.x402Facilitator().toString());
    ObjectNode disputes = escrow.putObject("dispute_endpoints");
    new TreeMap<>(e.disputeEndpoints())
        .forEach((protocol, uri) -> disputes.put(protocol, uri.toString()));
    var arbiters = escrow.putArray("arbiter_keys");
    e.arbiterKeys().stream().map(Ed25519PublicKey::toBase64Url).sorted().forEach(arbiters::add);
    escrow.put("delivery_timeout_seconds", e.deliveryTimeout().toSeconds());
    var publicUrls = o.putArray("public_urls"); // empty: the listen address and its localhost forms
    config.publicUrls().urls().forEach(u -> publicUrls.add(u.toString()));
    var allowFetch = o.putArray("allowed_fetch_prefixes");
    config.fetchPolicy().allowedPrefixes().forEach(allowFetch::add);
    o.set("evaluators", evaluators());
    return o;
  }

  /**
   * The registry's settings and state: the qualification bar, how many evaluators registered, and
   * the canary set in force (described, never shown).
   */
  private ObjectNode evaluators() {
    ObjectNode o = Json.object();
    var q = registry.policy();
    o.putObject("qualification")
        .put("min_evaluations", q.minEvaluations())
        .put("min_canary_pass_rate", q.minCanaryPassRate())
        .put("max_deviation_points", q.maxDeviationPoints())
        .put("min_consensus_samples", q.minConsensusSamples());
    o.put("registered", registry.size());
    o.set("canary_set", registry.canarySet().<JsonNode>map(CanarySetInfo::toJson).orElse(null));
    return o;
  }
}
