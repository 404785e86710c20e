package dev.asa.facts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.asa.agreement.Role;
import dev.asa.coc.CocSummary;
import dev.asa.crypto.Digest;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The CoC chains the server verified for parties with a {@code coc} identity (whitepaper 9.1), by
 * role: how long each chain was and over what time when last verified, and where it ended then, so
 * a later verification (at activation, at anchoring) can insist that this prefix is unchanged. What
 * reputation's Sybil rules can read: a length and an age the server checked, not claimed ones.
 *
 * <p>Stored as one member per role that has a chain, in role order.
 */
public record ProvenanceFact(Map<Role, Chain> chains) implements TypedFact {

  /** Where the chain came from: fetched from {@code chain_url}, or sent inline. */
  public enum Source {
    URL,
    INLINE;

    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * One party's verified chain, stored flat: {@code scheme} (always {@code coc}), the summary's
   * members and its operational age in seconds (both written for readers, the age derived from the
   * summary), then the source and when it was verified.
   */
  @JsonPropertyOrder({
    "scheme",
    "genesis",
    "length",
    "head",
    "genesis_at",
    "latest_at",
    "operational_age_seconds",
    "source",
    "verified_at"
  })
  // The scheme and the age are written for readers only: read back, the summary is what counts.
  @JsonIgnoreProperties(
      value = {"scheme", "operational_age_seconds"},
      allowGetters = true)
  public record Chain(@JsonIgnore CocSummary summary, Source source, Instant verifiedAt) {
    public Chain {
      Objects.requireNonNull(summary, "summary");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(verifiedAt, "verifiedAt");
    }

    @JsonCreator
    private static Chain stored(
        @JsonProperty("genesis") Digest genesis,
        @JsonProperty("length") long length,
        @JsonProperty("head") Digest head,
        @JsonProperty("genesis_at") Instant genesisAt,
        @JsonProperty("latest_at") Instant latestAt,
        @JsonProperty("source") Source source,
        @JsonProperty("verified_at") Instant verifiedAt) {
      return new Chain(
          new CocSummary(length, genesis, head, genesisAt, latestAt), source, verifiedAt);
    }

    @JsonProperty("scheme")
    private String scheme() {
      return "coc";
    }

    @JsonProperty("genesis")
    private Digest genesis() {
      return summary.genesis();
    }

    @JsonProperty("length")
    private long length() {
      return summary.length();
    }

    @JsonProperty("head")
    private Digest head() {
      return summary.head();
    }

    @JsonProperty("genesis_at")
    private Instant genesisAt() {
      return summary.genesisAt();
    }

    @JsonProperty("latest_at")
    private Instant latestAt() {
      return summary.latestAt();
    }

    @JsonProperty("operational_age_seconds")
    private long operationalAgeSeconds() {
      return summary.age().toSeconds();
    }
  }

  public static final ProvenanceFact NONE = new ProvenanceFact(Map.of());

  public ProvenanceFact {
    chains = chains.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(chains));
  }

  public Optional<Chain> of(Role role) {
    return Optional.ofNullable(chains.get(role));
  }

  public boolean isEmpty() {
    return chains.isEmpty();
  }

  @JsonValue
  private Map<Role, Chain> stored() {
    Map<Role, Chain> inRoleOrder = new EnumMap<>(Role.class);
    inRoleOrder.putAll(chains);
    return inRoleOrder;
  }

  @JsonCreator
  private static ProvenanceFact stored(Map<Role, Chain> chains) {
    return new ProvenanceFact(chains);
  }

  /** These chains with one party's replaced. */
  public ProvenanceFact with(Role role, Chain chain) {
    Map<Role, Chain> next = new EnumMap<>(Role.class);
    next.putAll(chains);
    next.put(role, chain);
    return new ProvenanceFact(next);
  }
}
