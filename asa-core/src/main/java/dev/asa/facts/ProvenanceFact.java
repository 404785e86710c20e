package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.coc.CocSummary;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
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
 */
public record ProvenanceFact(Map<Role, Chain> chains) {

  /** Where the chain came from: fetched from {@code chain_url}, or sent inline. */
  public enum Source {
    URL,
    INLINE;

    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** One party's verified chain. */
  public record Chain(CocSummary summary, Source source, Instant verifiedAt) {
    public Chain {
      Objects.requireNonNull(summary, "summary");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(verifiedAt, "verifiedAt");
    }

    ObjectNode toJson() {
      ObjectNode o = Json.object();
      o.put("scheme", "coc");
      o.put("genesis", summary.genesis().toString());
      o.put("length", summary.length());
      o.put("head", summary.head().toString());
      o.put("genesis_at", summary.genesisAt().toString());
      o.put("latest_at", summary.latestAt().toString());
      o.put("operational_age_seconds", summary.age().toSeconds());
      o.put("source", source.wireName());
      o.put("verified_at", verifiedAt.toString());
      return o;
    }

    static Chain fromJson(JsonNode o) {
      return new Chain(
          new CocSummary(
              o.path("length").asLong(),
              Digest.parse(FactJson.text(o, "genesis")),
              Digest.parse(FactJson.text(o, "head")),
              FactJson.instant(o, "genesis_at"),
              FactJson.instant(o, "latest_at")),
          Source.valueOf(FactJson.text(o, "source").toUpperCase(java.util.Locale.ROOT)),
          FactJson.instant(o, "verified_at"));
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

  /** These chains with one party's replaced. */
  public ProvenanceFact with(Role role, Chain chain) {
    Map<Role, Chain> next = new EnumMap<>(Role.class);
    next.putAll(chains);
    next.put(role, chain);
    return new ProvenanceFact(next);
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    for (Role role : Role.values()) {
      Chain c = chains.get(role);
      if (c != null) {
        o.set(role.wireName(), c.toJson());
      }
    }
    return o;
  }

  static ProvenanceFact fromJson(JsonNode o) {
    Map<Role, Chain> chains = new EnumMap<>(Role.class);
    for (Role role : Role.values()) {
      JsonNode c = o.path(role.wireName());
      if (c.isObject()) {
        chains.put(role, Chain.fromJson(c));
      }
    }
    return new ProvenanceFact(chains);
  }
}
