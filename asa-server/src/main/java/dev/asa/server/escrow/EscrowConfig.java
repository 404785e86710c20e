package dev.asa.server.escrow;

import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.server.escrow.erc8183.Erc8183Settings;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The operator's escrow settings. By default only the built-in ledger is available: the server
 * sends webhooks only to payment systems the operator lists (a client must not be able to make the
 * server POST to any URL it likes), and uses x402 only with a configured facilitator.
 *
 * @param callbackUrlPrefixes URL prefixes an {@code http_callback} binding's {@code url} may start
 *     with
 * @param x402Facilitator the x402 facilitator's base URL, or null when x402 is not offered
 * @param disputeEndpoints where disputes are filed, by {@code dispute.protocol} (e.g. ajp)
 * @param arbiterKeys keys besides the operator's that may rule on disputes
 * @param deliveryTimeout how long one webhook or facilitator call may take
 * @param erc8183 the chain and attestor key of the {@code erc8183} binding, or null when it is not
 *     offered
 */
public record EscrowConfig(
    List<String> callbackUrlPrefixes,
    URI x402Facilitator,
    Map<String, URI> disputeEndpoints,
    Set<Ed25519PublicKey> arbiterKeys,
    Duration deliveryTimeout,
    Erc8183Settings erc8183) {

  public static final EscrowConfig DEFAULTS =
      new EscrowConfig(List.of(), null, Map.of(), Set.of(), Duration.ofSeconds(10), null);

  public EscrowConfig {
    callbackUrlPrefixes = List.copyOf(callbackUrlPrefixes);
    disputeEndpoints = Map.copyOf(disputeEndpoints);
    arbiterKeys = Set.copyOf(arbiterKeys);
    Objects.requireNonNull(deliveryTimeout, "deliveryTimeout");
    for (String prefix : callbackUrlPrefixes) {
      URI uri = URI.create(prefix);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw new IllegalArgumentException(
            "a callback URL prefix is an http(s) URL with a host, not '" + prefix + "'");
      }
    }
  }

  public EscrowConfig withCallbackUrlPrefixes(List<String> prefixes) {
    return new EscrowConfig(
        prefixes, x402Facilitator, disputeEndpoints, arbiterKeys, deliveryTimeout, erc8183);
  }

  public EscrowConfig withX402Facilitator(URI facilitator) {
    return new EscrowConfig(
        callbackUrlPrefixes, facilitator, disputeEndpoints, arbiterKeys, deliveryTimeout, erc8183);
  }

  public EscrowConfig withDisputeEndpoints(Map<String, URI> endpoints) {
    return new EscrowConfig(
        callbackUrlPrefixes, x402Facilitator, endpoints, arbiterKeys, deliveryTimeout, erc8183);
  }

  public EscrowConfig withArbiterKeys(Set<Ed25519PublicKey> keys) {
    return new EscrowConfig(
        callbackUrlPrefixes, x402Facilitator, disputeEndpoints, keys, deliveryTimeout, erc8183);
  }

  public EscrowConfig withErc8183(Erc8183Settings settings) {
    return new EscrowConfig(
        callbackUrlPrefixes,
        x402Facilitator,
        disputeEndpoints,
        arbiterKeys,
        deliveryTimeout,
        settings);
  }

  public EscrowConfig withDeliveryTimeout(Duration timeout) {
    return new EscrowConfig(
        callbackUrlPrefixes, x402Facilitator, disputeEndpoints, arbiterKeys, timeout, erc8183);
  }
}
