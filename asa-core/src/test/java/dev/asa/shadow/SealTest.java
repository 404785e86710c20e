package dev.asa.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class SealTest {

  static final Nonce ZERO_NONCE = Nonce.fromBase64Url("A".repeat(43));
  static final Ed25519PrivateKey SERVER_KEY = Ed25519PrivateKey.fromSeed(seed(1));
  static final Ed25519PrivateKey OTHER_KEY = Ed25519PrivateKey.fromSeed(seed(2));
  static final Instant NOW = Instant.parse("2025-01-15T10:30:00.123Z");

  static byte[] seed(int b) {
    byte[] s = new byte[32];
    Arrays.fill(s, (byte) b);
    return s;
  }

  static final SealedCriterion LIMITATIONS =
      new SealedCriterion(
          "sc-01",
          Category.HAPPY_PATH,
          "Has a limitations section",
          "A Limitations heading",
          new Check.HasSection("Limitations"));

  @Test
  void theCommitmentIsSha256OfTheCanonicalNonceAndCriteria() {
    // By hand (Python: json.dumps(sort_keys=True, separators=(',', ':')), then hashlib.sha256) over
    // {"criteria":[{"assertion":"Has a limitations
    // section","category":"happy_path","check":{"title":"Limitations",
    //  "type":"has_section"},"expected":"A Limitations heading","id":"sc-01","message":"A
    // Limitations heading"}],
    //  "nonce":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}
    Commitment c = Commitment.compute(ZERO_NONCE, SealedCriteria.of(LIMITATIONS));

    assertThat(c.toString())
        .isEqualTo("sha256:62eb4994b8be936a2fbb51087baf446f15d5bde25d9e090a1c176bd88adfe0d4");
    assertThat(Commitment.parse(c.toString())).isEqualTo(c);
  }

  @Test
  void theCommitmentChangesWhenAnyFieldOrTheNonceChanges() {
    Commitment base = Commitment.compute(ZERO_NONCE, SealedCriteria.of(LIMITATIONS));
    Check check = LIMITATIONS.check();
    List<SealedCriterion> variants =
        List.of(
            new SealedCriterion(
                "sc-02",
                Category.HAPPY_PATH,
                "Has a limitations section",
                "A Limitations heading",
                check),
            new SealedCriterion(
                "sc-01",
                Category.COMPLETENESS,
                "Has a limitations section",
                "A Limitations heading",
                check),
            new SealedCriterion(
                "sc-01",
                Category.HAPPY_PATH,
                "Has a limitation section",
                "A Limitations heading",
                check),
            new SealedCriterion(
                "sc-01",
                Category.HAPPY_PATH,
                "Has a limitations section",
                "A Limitations heading.",
                check),
            new SealedCriterion(
                "sc-01",
                Category.HAPPY_PATH,
                "Has a limitations section",
                "A Limitations heading",
                "other message",
                check),
            new SealedCriterion(
                "sc-01",
                Category.HAPPY_PATH,
                "Has a limitations section",
                "A Limitations heading",
                new Check.HasSection("Limitation")),
            new SealedCriterion(
                "sc-01",
                Category.HAPPY_PATH,
                "Has a limitations section",
                "A Limitations heading",
                new Check.Contains("Limitations", true)));
    for (SealedCriterion v : variants) {
      assertThat(Commitment.compute(ZERO_NONCE, SealedCriteria.of(v)))
          .as(v.toString())
          .isNotEqualTo(base);
    }
    assertThat(
            Commitment.compute(
                Nonce.fromBase64Url("A".repeat(42) + "E"), SealedCriteria.of(LIMITATIONS)))
        .isNotEqualTo(base);
    // the contains default and its explicit spelling are one criterion, one commitment
    assertThat(new Check.Contains("x", true).toJson())
        .isEqualTo(
            Check.parse(
                    Json.object().put("type", "contains").put("value", "x"), "", new StrictJson())
                .toJson());
    // order is part of it
    SealedCriterion other =
        new SealedCriterion("sc-02", Category.EDGE_CASE, "a", "e", new Check.MinWords(3));
    assertThat(Commitment.compute(ZERO_NONCE, SealedCriteria.of(LIMITATIONS, other)))
        .isNotEqualTo(Commitment.compute(ZERO_NONCE, SealedCriteria.of(other, LIMITATIONS)));
  }

  @Test
  void aFreshNonceIs256RandomBitsAndNeverPrinted() {
    Nonce a = Nonce.generate(new SecureRandom());
    Nonce b = Nonce.generate(new SecureRandom());
    assertThat(a).isNotEqualTo(b);
    assertThat(a.toBase64Url()).hasSize(43);
    assertThat(a.toString()).doesNotContain(a.toBase64Url());
    assertThatThrownBy(() -> Nonce.fromBase64Url("AAAA")).hasMessageContaining("32 bytes");
  }

  static SealedEnvelope envelope() {
    return SealedEnvelope.seal(
        SealStatement.Subject.agreement("agr_123"),
        SealedCriteria.of(LIMITATIONS),
        "did:key:z6MkClient",
        NOW,
        new SecureRandom(),
        SERVER_KEY);
  }

  @Test
  void aSealSignsTheCanonicalStatement() {
    SealedEnvelope env = envelope();
    Seal seal = env.seal();

    assertThat(Json.write(seal.statement().toJson()))
        .isEqualTo(
            "{\"agreement_id\":\"agr_123\",\"commitment\":\""
                + env.commitment()
                + "\",\"sealed_at\":\"2025-01-15T10:30:00Z\",\"sealer\":\"did:key:z6MkClient\"}");
    assertThat(env.commitment()).isEqualTo(Commitment.compute(env.nonce(), env.criteria()));
    assertThat(seal.verify(SERVER_KEY.publicKey())).isTrue();
    assertThat(seal.verify(OTHER_KEY.publicKey())).as("the wrong key").isFalse();
    assertThat(
            SERVER_KEY
                .publicKey()
                .verify(dev.asa.json.Jcs.canonicalize(seal.statement().toJson()), seal.signature()))
        .isTrue();
    assertThat(SealVerification.check(env).valid()).isTrue();
  }

  @Test
  void theRevealedBundleRoundTripsAndVerifiesOffline() throws Exception {
    SealedEnvelope env = envelope();
    ObjectNode json = env.toJson();

    assertThat(json.properties().stream().map(e -> e.getKey()).toList())
        .containsExactly("statement", "signature", "signer", "nonce", "criteria");
    assertThat(json.path("signer").asText()).isEqualTo(DidKey.of(SERVER_KEY.publicKey()));
    SealedEnvelope back = SealedEnvelope.parse(Json.parse(Json.write(json)));
    assertThat(back.toJson()).isEqualTo(json);

    SealVerification v =
        SealVerification.check(
            back, Optional.of(SERVER_KEY.publicKey()), Optional.of(env.commitment()));
    assertThat(v.valid()).isTrue();
    assertThat(v.checks())
        .extracting(SealVerification.Outcome::name)
        .containsExactly("signature", "signer", "commitment", "recorded_commitment");
    assertThat(v.recomputed()).isEqualTo(env.commitment());
  }

  private static SealVerification tampered(UnaryOperator<ObjectNode> change) throws Exception {
    ObjectNode json = envelope().toJson();
    return SealVerification.check(
        SealedEnvelope.parse(change.apply(json)),
        Optional.of(SERVER_KEY.publicKey()),
        Optional.empty());
  }

  @Test
  void tamperingWithAnyPartIsDetected() throws Exception {
    SealVerification criterion =
        tampered(j -> {
          ((ObjectNode) j.path("criteria").get(0).path("check")).put("title", "Overview");
          return j;
        });
    assertThat(criterion.valid()).isFalse();
    assertThat(criterion.checks())
        .extracting(SealVerification.Outcome::passed)
        .containsExactly(true, true, false);
    assertThat(criterion.problem().orElseThrow())
        .contains("commitment: the statement commits to")
        .contains("criteria or nonce changed after sealing");

    SealVerification nonce = tampered(j -> j.put("nonce", "B".repeat(42) + "A"));
    assertThat(nonce.valid()).isFalse();

    SealVerification statement =
        tampered(j -> {
          ((ObjectNode) j.path("statement")).put("sealer", "did:key:z6MkSomeoneElse");
          return j;
        });
    assertThat(statement.checks().get(0).passed()).isFalse();
    assertThat(statement.checks().get(0).detail()).contains("does not verify");

    // re-sealed wholesale under another key: consistent in itself, caught only by the pinned signer
    SealedEnvelope forged =
        SealedEnvelope.seal(
            SealStatement.Subject.agreement("agr_123"),
            SealedCriteria.of(LIMITATIONS),
            "x",
            NOW,
            new SecureRandom(),
            OTHER_KEY);
    assertThat(SealVerification.check(forged).valid()).isTrue();
    SealVerification pinned =
        SealVerification.check(forged, Optional.of(SERVER_KEY.publicKey()), Optional.empty());
    assertThat(pinned.valid()).isFalse();
    assertThat(pinned.problem().orElseThrow()).startsWith("signer: signed by did:key:");
  }

  @Test
  void aBundleThatCannotBeReadSaysWhere() throws Exception {
    ObjectNode json = envelope().toJson();
    json.put("signature", "not base64!");
    ((ObjectNode) json.path("statement")).put("sealed_at", "2025-01-15T10:30:00.000Z");
    ((ArrayNode) json.path("criteria")).removeAll();
    json.put("note", 1);

    assertThatThrownBy(() -> SealedEnvelope.parse(json))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/note: unknown member")
        .hasMessageContaining("/signature: Ed25519 signature is not base64url")
        .hasMessageContaining(
            "/statement/sealed_at: must be UTC to the second, as 2025-01-15T10:30:00Z")
        .hasMessageContaining("/criteria: holds 0 criteria");
  }

  @Test
  void aStandaloneSealNamesItsSealIdSoItCannotPassForAnAgreementSeal() {
    SealedEnvelope env =
        SealedEnvelope.seal(
            SealStatement.Subject.standalone("seal_9"),
            SealedCriteria.of(LIMITATIONS),
            "orchestrator",
            NOW,
            new SecureRandom(),
            SERVER_KEY);
    assertThat(env.seal().statement().toJson().has("seal_id")).isTrue();
    assertThat(env.seal().statement().toJson().has("agreement_id")).isFalse();
    assertThat(SealedEnvelope.parse(env.toJson()).seal().statement().subject())
        .isEqualTo(SealStatement.Subject.standalone("seal_9"));
  }
}
