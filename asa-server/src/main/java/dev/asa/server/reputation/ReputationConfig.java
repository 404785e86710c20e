package dev.asa.server.reputation;

import dev.asa.crypto.Ed25519PublicKey;
import java.net.URI;
import java.util.Objects;
import java.util.Set;

/**
 * How reputation is published and whom it listens to.
 *
 * @param arpEndpoint where each changed aggregate is pushed as a signed webhook ({@code
 *     --arp-endpoint}); null: nowhere, the aggregates are only served at {@code GET /reputation}
 * @param trusted the keys of ARP issuers (other ASA servers, aggregation nodes) whose signals are
 *     accepted and combined with this server's ({@code --arp-trust}); none by default
 * @param windowDays how far back the aggregates look ({@code --arp-window-days}, 365 by default, as
 *     ARP's)
 */
public record ReputationConfig(URI arpEndpoint, Set<Ed25519PublicKey> trusted, int windowDays) {

  public static final ReputationConfig DEFAULTS = new ReputationConfig(null, Set.of(), 365);

  public ReputationConfig {
    trusted = Set.copyOf(Objects.requireNonNull(trusted, "trusted"));
    if (windowDays < 1 || windowDays > 36_500) {
      throw new IllegalArgumentException(
          "the reputation window is 1 to 36500 days, not " + windowDays);
    }
    if (arpEndpoint != null
        && !("https".equals(arpEndpoint.getScheme()) || "http".equals(arpEndpoint.getScheme()))) {
      throw new IllegalArgumentException("the ARP endpoint is an http(s) URL: " + arpEndpoint);
    }
  }

  public ReputationFeed feed() {
    return new ReputationFeed(arpEndpoint);
  }
}
