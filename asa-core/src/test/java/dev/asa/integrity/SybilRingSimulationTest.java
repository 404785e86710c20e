package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.crypto.Digest;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The sybil-ring scenario's emulation of the mechanics before issue 53, and its determinism. */
class SybilRingSimulationTest {

  private static final long SEED = 20260314L;

  @Test
  void theEmulatedOrderBeforeIssue53GivesEachEvaluatorTheWholeSetEveryRound() {
    byte[] secret = Digest.sha256("secret".getBytes(StandardCharsets.UTF_8)).bytes();
    CanarySet set = Canaries.set(12);
    List<String> a = order(secret, set, "key-a");
    List<String> b = order(secret, set, "key-b");
    // Each round of 12 is the whole set: what let throwaway keys learn every canary.
    for (List<String> o : List.of(a, b)) {
      assertThat(new HashSet<>(o.subList(0, 12))).hasSize(12);
      assertThat(new HashSet<>(o.subList(12, 24))).hasSize(12);
    }
    assertThat(a).as("each evaluator has an order of its own").isNotEqualTo(b);
    assertThat(a.subList(0, 12)).as("a new order each round").isNotEqualTo(a.subList(12, 24));
  }

  private static List<String> order(byte[] secret, CanarySet set, String evaluator) {
    return LongStream.range(0, 24)
        .mapToObj(
            n -> SybilRingSimulation.perEvaluatorCanary(secret, set, evaluator, "research", n).id())
        .toList();
  }

  @Test
  void aSeedGivesTheSameFiguresEveryTime() {
    System.out.println("seed " + SEED);
    for (SybilRingSimulation.World world : SybilRingSimulation.World.values()) {
      var variant =
          new SybilRingSimulation.Variant(world, 3, SybilRingSimulation.Target.EVERYONE, true);
      var first = new SybilRingSimulation(SEED, 120, 200, variant).run().result();
      var again = new SybilRingSimulation(SEED, 120, 200, variant).run().result();
      assertThat(again).isEqualTo(first);
      assertThat(first.ringQualified()).as("the ring's keys qualify (%s)", world).isEqualTo(3);
    }
  }

  @Test
  void afterIssue53ThePartnersClaimExcludesNobody() {
    System.out.println("seed " + SEED);
    Set<Integer> judged = new HashSet<>();
    for (boolean claim : new boolean[] {false, true}) {
      var variant =
          new SybilRingSimulation.Variant(
              SybilRingSimulation.World.AFTER, 3, SybilRingSimulation.Target.PARTNER, claim);
      judged.add(new SybilRingSimulation(SEED, 120, 200, variant).run().result().ringOnPartner());
    }
    assertThat(judged).as("the claim changes nothing").hasSize(1);
  }
}
