package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DrawTest {

  private static final List<Ed25519PublicKey> FIVE =
      IntStream.range(0, 5).mapToObj(i -> Pools.key("judge-" + i)).toList();
  private static final Seed SEED = Pools.seed("asa-0001");

  @Test
  void theSameSeedAndCandidatesAlwaysChooseTheSameInAnyInputOrder() {
    Draw a = Draw.perform("evaluator", SEED, FIVE, 2);
    List<Ed25519PublicKey> shuffled = new ArrayList<>(FIVE);
    Collections.shuffle(shuffled, new Random(7));
    Draw b = Draw.perform("evaluator", SEED, shuffled, 2);
    assertThat(b).isEqualTo(a);
    assertThat(a.chosen()).hasSize(2).doesNotHaveDuplicates();
    assertThat(FIVE).containsAll(a.chosen());
    assertThat(a.candidates()).isEqualTo(Draw.canonical(FIVE));
  }

  @Test
  void purposeAndSeedEachChangeTheDraw() {
    // Over several seeds, a different purpose or seed must sometimes change the choice.
    int differentPurpose = 0;
    int differentSeed = 0;
    for (int i = 0; i < 20; i++) {
      Draw d = Draw.perform("evaluator", Pools.seed("s" + i), FIVE, 1);
      if (!Draw.perform("backup-1", Pools.seed("s" + i), FIVE, 1).chosen().equals(d.chosen())) {
        differentPurpose++;
      }
      if (!Draw.perform("evaluator", Pools.seed("t" + i), FIVE, 1).chosen().equals(d.chosen())) {
        differentSeed++;
      }
    }
    assertThat(differentPurpose).isGreaterThan(5);
    assertThat(differentSeed).isGreaterThan(5);
  }

  @Test
  void theDocumentedRecipeReproducesTheDraw() {
    // An independent implementation of the recipe in Draw's and HashStream's documentation, with
    // BigInteger arithmetic: if this agrees, the documentation is enough to verify a draw.
    for (int i = 0; i < 30; i++) {
      Seed seed = Pools.seed("recipe-" + i);
      int count = 1 + i % 4;
      Draw d = Draw.perform("evaluator", seed, FIVE, count);
      assertThat(recipe("evaluator", seed.bytes(), FIVE, count)).isEqualTo(d.chosen());
    }
  }

  @Test
  void aKnownAnswerPinsTheRecipe() {
    // Fixed input, fixed output: a change to the recipe breaks every recorded draw, so it must
    // never happen silently.
    byte[] seed = new byte[64];
    for (int i = 0; i < seed.length; i++) {
      seed[i] = (byte) i;
    }
    Draw d = Draw.perform("evaluator", new Seed(seed), FIVE, 3);
    assertThat(d.candidatesDigest().toString())
        .isEqualTo(Draw.digestOf(FIVE).toString())
        .startsWith("sha256:");
    assertThat(d.chosen()).isEqualTo(recipe("evaluator", seed, FIVE, 3));
    assertThat(d.chosen().stream().map(k -> FIVE.indexOf(k)).toList()).isEqualTo(KNOWN_ANSWER);
  }

  // Indices into FIVE of the draw above, computed once (both implementations agree on it).
  private static final List<Integer> KNOWN_ANSWER = List.of(2, 0, 3);

  @Test
  void everyCandidateIsEquallyLikely() {
    // Property: over many seeds, each of 7 candidates is drawn first about 1/7 of the time
    // (chi-squared with 6 degrees of freedom; 22.5 is the 0.1% critical value).
    List<Ed25519PublicKey> seven =
        IntStream.range(0, 7).mapToObj(i -> Pools.key("fair-" + i)).toList();
    Map<Ed25519PublicKey, Integer> counts = new HashMap<>();
    int draws = 7000;
    Random random = new Random(42);
    for (int i = 0; i < draws; i++) {
      byte[] s = new byte[64];
      random.nextBytes(s);
      counts.merge(
          Draw.perform("evaluator", new Seed(s), seven, 1).chosen().getFirst(), 1, Integer::sum);
    }
    double expected = draws / 7.0;
    double chi2 =
        counts.values().stream().mapToDouble(c -> (c - expected) * (c - expected) / expected).sum();
    assertThat(counts).hasSize(7);
    assertThat(chi2).isLessThan(22.5);
  }

  @Test
  void rejectionKeepsSmallRangesUnbiased() {
    HashStream s = new HashStream("test", new byte[] {1});
    for (int i = 0; i < 1000; i++) {
      assertThat(s.below(1)).isZero();
      assertThat(s.below(3)).isBetween(0, 2);
      assertThat(s.below(Integer.MAX_VALUE)).isBetween(0, Integer.MAX_VALUE - 1);
    }
    assertThatThrownBy(() -> s.below(0)).hasMessageContaining("nothing to choose from");
  }

  @Test
  void aRecordedDrawRoundTripsAndRecomputes() {
    Draw d = Draw.perform("evaluator", SEED, FIVE, 2);
    ObjectNode json = d.toJson();
    assertThat(json.path("candidates")).hasSize(5);
    assertThat(json.path("candidates_digest").asText()).isEqualTo(Draw.digestOf(FIVE).toString());
    assertThat(Draw.fromJson(Json.parseTrusted(Json.write(json)))).isEqualTo(d);
    assertThat(Draw.problemWith(json, FIVE)).isEmpty();
  }

  @Test
  void aTamperedRecordCannotBeRead() {
    Draw d = Draw.perform("evaluator", SEED, FIVE, 1);
    Ed25519PublicKey other =
        FIVE.stream().filter(k -> !k.equals(d.chosen().getFirst())).findFirst().orElseThrow();

    ObjectNode swapped = d.toJson();
    ((ArrayNode) swapped.get("chosen")).removeAll().add(other.toBase64Url());
    assertThatThrownBy(() -> Draw.fromJson(swapped))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/chosen")
        .hasMessageContaining("do not follow from the seed");
    assertThat(Draw.problemWith(swapped, FIVE)).get().asString().contains("do not follow");

    ObjectNode shrunk = d.toJson();
    ((ArrayNode) shrunk.get("candidates")).remove(0);
    assertThatThrownBy(() -> Draw.fromJson(shrunk)).hasMessageContaining("/candidates_digest");

    ObjectNode reseeded = d.toJson();
    reseeded.put("seed", Pools.seed("other").toBase64Url());
    // Another seed may by chance pick the same evaluator; the record then still recomputes.
    boolean same =
        Draw.perform("evaluator", Pools.seed("other"), FIVE, 1).chosen().equals(d.chosen());
    assertThat(Draw.problemWith(reseeded, FIVE).isEmpty()).isEqualTo(same);
  }

  @Test
  void aCandidateListThatIsNotTheRecordedOneIsNamedAsSuch() {
    Draw d = Draw.perform("evaluator", SEED, FIVE, 1);
    List<Ed25519PublicKey> four = FIVE.subList(0, 4);
    assertThat(Draw.problemWith(d.toJson(), four))
        .get()
        .asString()
        .contains("not the list the draw was made from");
    assertThat(Draw.problemWith(Json.object(), FIVE)).get().asString().contains("cannot be read");
    List<Ed25519PublicKey> twice = new ArrayList<>(FIVE);
    twice.add(FIVE.getFirst());
    assertThat(Draw.problemWith(d.toJson(), twice)).contains("a candidate is listed twice");
  }

  @Test
  void impossibleDrawsAreRefused() {
    assertThatThrownBy(() -> Draw.perform("evaluator", SEED, FIVE, 6))
        .hasMessageContaining("cannot draw 6 evaluators from 5 candidates");
    assertThatThrownBy(() -> Draw.perform("evaluator", SEED, FIVE, 0))
        .hasMessageContaining("cannot draw 0");
    assertThatThrownBy(() -> Draw.perform("Evaluator!", SEED, FIVE, 1))
        .hasMessageContaining("purpose");
    List<Ed25519PublicKey> twice = new ArrayList<>(FIVE);
    twice.add(FIVE.get(2));
    assertThatThrownBy(() -> Draw.perform("evaluator", SEED, twice, 1))
        .hasMessageContaining("listed twice");
    assertThatThrownBy(() -> new Draw("evaluator", SEED, FIVE, List.of()))
        .hasMessageContaining("canonical order");
    assertThatThrownBy(() -> new Seed(new byte[31])).hasMessageContaining("32 to 1024 bytes");
  }

  @Test
  void seedsCompareByValueAndRoundTrip() {
    Seed s = Pools.seed("x");
    assertThat(Seed.fromBase64Url(s.toBase64Url())).isEqualTo(s).hasSameHashCodeAs(s);
    byte[] b = s.bytes();
    b[0] ^= 1;
    assertThat(s.bytes()).isNotEqualTo(b);
  }

  /** The recipe, written out from the documentation. */
  private static List<Ed25519PublicKey> recipe(
      String purpose, byte[] seed, List<Ed25519PublicKey> candidates, int count) {
    List<Ed25519PublicKey> left = new ArrayList<>(candidates);
    left.sort((a, b) -> new BigInteger(1, a.bytes()).compareTo(new BigInteger(1, b.bytes())));
    ArrayNode ids = Json.mapper().createArrayNode();
    left.forEach(k -> ids.add(k.toBase64Url()));
    byte[] digest = Digest.ofCanonicalJson(ids).bytes();
    ByteBuffer prefix = ByteBuffer.allocate(1024);
    for (byte[] part :
        List.of(
            "asa/evaluator-draw/v1".getBytes(StandardCharsets.UTF_8),
            purpose.getBytes(StandardCharsets.UTF_8),
            seed,
            digest)) {
      prefix.putInt(part.length).put(part);
    }
    byte[] p = java.util.Arrays.copyOf(prefix.array(), prefix.position());
    BigInteger two64 = BigInteger.ONE.shiftLeft(64);
    List<BigInteger> values = new ArrayList<>();
    long block = 0;
    List<Ed25519PublicKey> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      BigInteger n = BigInteger.valueOf(left.size());
      BigInteger threshold = two64.mod(n);
      while (true) {
        if (values.isEmpty()) {
          byte[] h = sha256(p, ByteBuffer.allocate(8).putLong(block++).array());
          for (int j = 0; j < 4; j++) {
            values.add(new BigInteger(1, java.util.Arrays.copyOfRange(h, 8 * j, 8 * j + 8)));
          }
        }
        BigInteger v = values.removeFirst();
        if (v.compareTo(threshold) >= 0) {
          out.add(left.remove(v.mod(n).intValueExact()));
          break;
        }
      }
    }
    return out;
  }

  private static byte[] sha256(byte[] a, byte[] b) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(a);
      md.update(b);
      return md.digest();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
