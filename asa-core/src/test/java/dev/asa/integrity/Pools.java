package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** Evaluators, parties and records for the integrity tests, derived from names. */
final class Pools {
  private Pools() {}

  static Ed25519PublicKey key(String name) {
    return Fixtures.key(name).publicKey();
  }

  static Party client() {
    return party(Role.CLIENT, "alice", "Alice Corp", null);
  }

  static Party provider() {
    return party(Role.PROVIDER, "bob", "Bob Industries", "sha256:bob-lineage");
  }

  static Party party(Role role, String name, String organization, String lineage) {
    return new Party(
        role, new Identity("api_key", name, lineage), name, organization, key(name), null);
  }

  static EvaluatorProfile profile(String name) {
    return profile(name, "Org of " + name, null);
  }

  static EvaluatorProfile profile(String name, String organization, BigDecimal price) {
    return new EvaluatorProfile(
        key(name),
        new Identity("api_key", name, null),
        name,
        organization,
        List.of("research"),
        null,
        price,
        List.of());
  }

  /** An evaluator that declared a conflict of interest with these parties' keys. */
  static EvaluatorProfile conflicted(String name, Party... parties) {
    return new EvaluatorProfile(
        key(name),
        new Identity("api_key", name, null),
        name,
        "Org of " + name,
        List.of("research"),
        null,
        null,
        List.of(),
        java.util.Arrays.stream(parties).map(Party::verificationKey).toList());
  }

  /** A record that clears the default bar: 60 evaluations, 19 of 20 canaries, 4 points off. */
  static TrackRecord qualifiedRecord() {
    return record(60, 20, 19, "4");
  }

  /** A record with {@code canaries} canaries (each one sample of 'accuracy' off by {@code dev}). */
  static TrackRecord record(int evaluations, int canaries, int passes, String deviation) {
    BigDecimal d = new BigDecimal(deviation);
    Calibration c =
        canaries == 0
            ? Calibration.EMPTY
            : new Calibration(
                Map.of(
                    "accuracy",
                    new Deviation(
                        canaries, d.multiply(BigDecimal.valueOf(canaries)), BigDecimal.ZERO)),
                Map.of());
    return new TrackRecord(evaluations, canaries, passes, c, Map.of());
  }

  /**
   * A record that clears the bar and is off probation: {@link #qualifiedRecord} with 12 scores of
   * real work compared with a panel's consensus.
   */
  static TrackRecord seasonedRecord() {
    return qualifiedRecord()
        .withCalibration(
            new Calibration(
                Map.of(),
                Map.of("accuracy", new Deviation(12, new BigDecimal("36"), BigDecimal.ZERO))));
  }

  static PoolMember seasoned(String name) {
    return new PoolMember(profile(name), seasonedRecord(), Standing.ACTIVE);
  }

  static PoolMember member(String name) {
    return new PoolMember(profile(name), qualifiedRecord(), Standing.ACTIVE);
  }

  static Seed seed(String text) {
    return new Seed(
        Fixtures.key("seed:" + text)
            .sign(text.getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .bytes());
  }

  /** A registration body with every member. */
  static ObjectNode registration() {
    ObjectNode b = Json.object();
    b.putObject("identity").put("scheme", "api_key").put("value", "judge-7");
    b.put("display_name", "Judge Seven");
    b.put("organization", "Impartial Ltd");
    b.put("lineage", "sha256:judge-lineage");
    b.putArray("service_types").add("research").add("code_generation");
    b.put("model", "judge-large-2");
    b.put("price_usd", new BigDecimal("0.30"));
    b.putArray("domains").add("medicine");
    return b;
  }
}
