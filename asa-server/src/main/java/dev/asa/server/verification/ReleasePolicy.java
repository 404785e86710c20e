package dev.asa.server.verification;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.GraduatedRelease;
import dev.asa.agreement.Tier;
import dev.asa.crypto.Base64Url;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.scoring.DynamicTiers;
import dev.asa.scoring.ThresholdNoise;
import dev.asa.server.store.verification.VerificationStore;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The two cliff-optimisation mitigations of section 8.2, applied by the server at verification:
 * threshold noise and dynamic tiers (the rules themselves are in {@link ThresholdNoise} and {@link
 * DynamicTiers}).
 *
 * <p>The noise seed of an agreement is SHA-256 of the server's Ed25519 signature over {@code
 * "asa/threshold-noise/v1/" + agreement id}. Ed25519 signatures are deterministic, so the server
 * cannot shop for a convenient seed; the seed's commitment is recorded when the agreement becomes
 * ACTIVE (the provider cannot compute the offsets while working), and the signature is revealed
 * with the verification, so anyone can check it against the server key, hash it, compare with the
 * commitment and recompute the offsets.
 */
public final class ReleasePolicy {
  private static final String NOISE_CONTEXT = "asa/threshold-noise/v1/";

  private final Ed25519PrivateKey serverKey;
  private final VerificationStore verifications;

  ReleasePolicy(Ed25519PrivateKey serverKey, VerificationStore verifications) {
    this.serverKey = serverKey;
    this.verifications = verifications;
  }

  /** What the agreement records at activation when its terms use threshold noise. */
  public Optional<ObjectNode> commitment(Agreement a) {
    return graduated(a)
        .filter(g -> g.thresholdNoise().enabled())
        .map(g ->
            Json.object()
                .put("seed_commitment", ThresholdNoise.commitment(seed(a.id())).toString())
                .put(
                    "seed_rule",
                    "sha256 of the server's ed25519 signature over \""
                        + NOISE_CONTEXT
                        + "<agreement_id>\""));
  }

  /**
   * The payment terms with the tiers this verification applies, and the audit record of how they
   * were made.
   */
  record Applied(Escrow.Payment payment, ObjectNode audit) {}

  Applied apply(Agreement a) {
    Escrow.Payment payment = a.terms().escrow().paymentTerms().orElse(null);
    Optional<GraduatedRelease> g =
        graduated(a).filter(r -> r.thresholdNoise().enabled() || r.dynamicTiers().enabled());
    if (g.isEmpty()) {
      return new Applied(payment, null);
    }
    GraduatedRelease release = g.get();
    List<BigDecimal> past =
        release.dynamicTiers().enabled()
            ? pastScores(a, release.dynamicTiers().window())
            : List.of();
    ThresholdNoise.Effective effective =
        ThresholdNoise.effectiveTiers(release, past, seed(a.id()), a.id());
    ObjectNode audit = Json.object();
    audit.set("written_tiers", tiers(release.tiers()));
    audit.set("effective_tiers", tiers(effective.tiers()));
    if (release.thresholdNoise().enabled()) {
      ObjectNode noise = audit.putObject("threshold_noise");
      noise.put("seed_signature", serverKey.sign(noiseMessage(a.id())).toBase64Url());
      noise.put("seed", Base64Url.encode(seed(a.id())));
      noise.put("seed_commitment", ThresholdNoise.commitment(seed(a.id())).toString());
      ArrayNode offsets = noise.putArray("offsets");
      effective.offsets().forEach(offsets::add);
    }
    if (release.dynamicTiers().enabled()) {
      ObjectNode dynamic = audit.putObject("dynamic_tiers");
      dynamic.put("scores_considered", effective.dynamic().scoresConsidered());
      ArrayNode moves = dynamic.putArray("moves");
      for (DynamicTiers.Move m : effective.dynamic().moves()) {
        moves
            .addObject()
            .put("from", m.from())
            .put("to", m.to())
            .put("share", m.share())
            .put("scores_in_band", m.scoresInBand());
      }
    }
    GraduatedRelease applied =
        new GraduatedRelease(
            release.enabled(),
            release.mode(),
            effective.tiers(),
            release.thresholdNoise(),
            release.dynamicTiers());
    return new Applied(new Escrow.Payment(payment.amount(), applied), audit);
  }

  /**
   * The provider's most recent composite scores on other agreements (oldest first), from the
   * agreements where its identity is the provider and a verification was recorded.
   */
  List<BigDecimal> pastScores(Agreement a, int window) {
    String provider = a.terms().parties().provider().identity().value();
    return verifications.pastComposites(provider, a.id(), window);
  }

  private byte[] seed(String agreementId) {
    return Digest.sha256(serverKey.sign(noiseMessage(agreementId)).bytes()).bytes();
  }

  private static byte[] noiseMessage(String agreementId) {
    return (NOISE_CONTEXT + agreementId).getBytes(StandardCharsets.UTF_8);
  }

  private static Optional<GraduatedRelease> graduated(Agreement a) {
    return a.terms()
        .escrow()
        .paymentTerms()
        .map(Escrow.Payment::release)
        .filter(r -> r.enabled() && r.mode() == GraduatedRelease.Mode.TIERS);
  }

  private static ArrayNode tiers(List<Tier> tiers) {
    ArrayNode list = Json.mapper().createArrayNode();
    for (Tier t : tiers) {
      list.addObject()
          .put(
              t.bound() == Tier.Bound.GTE ? "composite_score_gte" : "composite_score_lt", t.score())
          .put("release_percent", t.releasePercent());
    }
    return list;
  }
}
