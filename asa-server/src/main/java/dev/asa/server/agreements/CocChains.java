package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.coc.CocChainVerifier;
import dev.asa.coc.CocCheck;
import dev.asa.coc.CocIdentity;
import dev.asa.coc.CocSummary;
import dev.asa.document.Agreement;
import dev.asa.facts.ProvenanceFact;
import dev.asa.server.net.FetchLimits;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.net.OutboundRequest;
import dev.asa.server.net.OutboundResponse;
import dev.asa.server.work.Command;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets parties' CoC chains (from {@code chain_url} through the {@link GuardedHttpClient}, or
 * inline) and has the core verify them ({@link CocChainVerifier}): at creation, again at
 * activation, and when a party shows its chain holding an anchor entry.
 *
 * <p>A fetched chain is bounded like a deliverable: the request body limit in bytes (a chain sent
 * inline could be no larger), a connect deadline and a total deadline; an answer past the limit is
 * refused without reading the rest, so a chain of ten million lines costs the limit in memory and
 * no more, and verification reads it line by line. As for deliverables, every fetch failure reads
 * the same to the caller (no scanner of the server's networks); the details go to the log. A chain
 * that was fetched but does not verify is refused naming the entry and member that break it.
 */
public final class CocChains {
  private static final Logger LOG = LoggerFactory.getLogger(CocChains.class);

  /** What a caller is told about any failure to fetch a chain. */
  public static final String COULD_NOT_FETCH =
      "the chain could not be fetched from chain_url (or it is larger than the request body limit)";

  /** How far in the future an entry's timestamp may be: clocks differ. */
  static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration TOTAL_TIMEOUT = Duration.ofSeconds(30);

  private final GuardedHttpClient http;
  private final FetchLimits limits;

  /**
   * @param http the guarded client, or null: then a {@code chain_url} is refused, inline chains
   *     only
   * @param maxBytes the largest chain fetched
   */
  public CocChains(GuardedHttpClient http, long maxBytes) {
    this.http = http;
    this.limits = new FetchLimits(CONNECT_TIMEOUT, TOTAL_TIMEOUT, maxBytes);
  }

  /** Chains sent inline only (no outbound client). */
  public static CocChains inlineOnly() {
    return new CocChains(null, 0);
  }

  /**
   * The chains of the parties whose identity is chain-backed, verified now; NONE when no party's
   * is.
   *
   * @throws InvalidDocumentException a chain that cannot be fetched or does not verify, named
   */
  ProvenanceFact atCreation(Agreement a, Instant now) {
    ProvenanceFact fact = ProvenanceFact.NONE;
    for (Map.Entry<Role, CocIdentity> e : identities(a).entrySet()) {
      Role role = e.getKey();
      CocIdentity id = e.getValue();
      CocSummary summary = verify(id, expectations(id, null, now), pointer(role));
      fact = fact.with(role, chain(id, summary, now));
    }
    return fact;
  }

  /** Whether activation must fetch a chain again (one came from a URL and may have grown). */
  boolean fetchesAtActivation(Agreement a) {
    return identities(a).values().stream().anyMatch(CocIdentity::fetched);
  }

  /**
   * The chains fetched again at activation: each must still verify, still start at the identity's
   * genesis and still hold, unchanged, the prefix recorded before; it may have grown.
   */
  ProvenanceFact atActivation(Agreement a, Instant now) {
    ProvenanceFact recorded = a.facts().provenance();
    ProvenanceFact fact = recorded;
    for (Map.Entry<Role, CocIdentity> e : identities(a).entrySet()) {
      Role role = e.getKey();
      CocIdentity id = e.getValue();
      if (!id.fetched()) {
        continue; // inline: part of the signed terms, it cannot have changed
      }
      Optional<ProvenanceFact.Chain> before = recorded.of(role);
      CocChainVerifier.Prefix prefix =
          before
              .map(c -> new CocChainVerifier.Prefix(c.summary().length(), c.summary().head()))
              .orElse(null);
      CocSummary summary = verify(id, expectations(id, prefix, now), pointer(role));
      fact = fact.with(role, chain(id, summary, now));
    }
    return fact;
  }

  /**
   * A party's chain shown for anchoring: verified against its identity and its recorded prefix, and
   * searched for anchor entries holding one of {@code anchorData}.
   *
   * @param base the JSON pointer of the chain in the request ({@code /chain})
   */
  CocCheck.Valid anchoring(
      CocIdentity id,
      Command.Anchor shown,
      ProvenanceFact.Chain recorded,
      java.util.Set<String> anchorData,
      Instant now) {
    CocChainVerifier.Expectations expected =
        expectations(
                id,
                new CocChainVerifier.Prefix(recorded.summary().length(), recorded.summary().head()),
                now)
            .withAnchorData(anchorData);
    CocCheck check =
        shown.chainUrl() != null
            ? fetchAndVerify(shown.chainUrl(), expected, "/chain_url")
            : CocChainVerifier.verifyArray(shown.chain(), expected);
    return switch (check) {
      case CocCheck.Valid valid -> valid;
      case CocCheck.Broken broken ->
          throw new InvalidDocumentException(
              broken.failure().pointer("/chain"), broken.failure().reason());
    };
  }

  /** Chain-backed identities by role (client, provider, a named evaluator). */
  static Map<Role, CocIdentity> identities(Agreement a) {
    JsonNode parties = a.member("parties");
    Map<Role, CocIdentity> out = new java.util.EnumMap<>(Role.class);
    for (Role role : Role.values()) {
      JsonNode identity = parties.path(role.wireName()).path("identity");
      if (identity.isObject()) {
        CocIdentity.read(identity, pointer(role)).ifPresent(id -> out.put(role, id));
      }
    }
    return out;
  }

  static String pointer(Role role) {
    return "/parties/" + role.wireName() + "/identity";
  }

  private static ProvenanceFact.Chain chain(CocIdentity id, CocSummary summary, Instant now) {
    return new ProvenanceFact.Chain(
        summary, id.fetched() ? ProvenanceFact.Source.URL : ProvenanceFact.Source.INLINE, now);
  }

  private static CocChainVerifier.Expectations expectations(
      CocIdentity id, CocChainVerifier.Prefix prefix, Instant now) {
    return CocChainVerifier.Expectations.none(now.plus(CLOCK_SKEW))
        .withGenesis(id.genesis())
        .withKey(id.chainKey())
        .withPrefix(prefix);
  }

  /** Verifies an identity's chain; refusals point under {@code <identity>/chain}. */
  private CocSummary verify(CocIdentity id, CocChainVerifier.Expectations expected, String at) {
    CocCheck check =
        id.fetched()
            ? fetchAndVerify(id.chainUrl(), expected, at + "/chain_url")
            : CocChainVerifier.verifyArray(id.chain(), expected);
    return switch (check) {
      case CocCheck.Valid valid -> valid.summary();
      case CocCheck.Broken broken ->
          throw new InvalidDocumentException(
              broken.failure().pointer(at + "/chain"), broken.failure().reason());
    };
  }

  private CocCheck fetchAndVerify(
      String url, CocChainVerifier.Expectations expected, String urlPointer) {
    if (http == null) {
      throw new InvalidDocumentException(urlPointer, COULD_NOT_FETCH);
    }
    URI uri;
    try {
      uri = URI.create(url);
      OutboundResponse response =
          http.send(
              OutboundRequest.get(
                  uri, Map.of("Accept", "application/jsonl, application/x-ndjson, */*")),
              limits);
      if (response.status() / 100 != 2) {
        throw refused(uri, "it answered HTTP " + response.status(), urlPointer);
      }
      if (response.truncated()) {
        throw refused(
            uri, "it answered more than " + limits.maxResponseBytes() + " bytes", urlPointer);
      }
      return CocChainVerifier.verifyJsonLines(new ByteArrayInputStream(response.body()), expected);
    } catch (IllegalArgumentException e) {
      LOG.warn("a chain_url is not an http(s) URL: {}", e.getMessage());
      throw new InvalidDocumentException(urlPointer, COULD_NOT_FETCH);
    } catch (IOException e) {
      LOG.warn(
          "could not fetch a CoC chain from {}: {}",
          GuardedHttpClient.describe(URI.create(url)),
          e.toString());
      throw new InvalidDocumentException(urlPointer, COULD_NOT_FETCH);
    }
  }

  private static InvalidDocumentException refused(URI uri, String why, String urlPointer) {
    LOG.warn("could not use the CoC chain at {}: {}", GuardedHttpClient.describe(uri), why);
    return new InvalidDocumentException(urlPointer, COULD_NOT_FETCH);
  }
}
