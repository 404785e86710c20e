package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.shadow.Category;
import dev.asa.shadow.Check;
import dev.asa.shadow.SealStatement;
import dev.asa.shadow.SealedCriteria;
import dev.asa.shadow.SealedCriterion;
import dev.asa.shadow.SealedEnvelope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code asa shadow verify-seal}: the revealed seal checked offline. */
class VerifySealCommandTest {

  private static final Ed25519PrivateKey SERVER = key(7);
  private static final Ed25519PrivateKey OTHER = key(8);

  @TempDir Path dir;

  record Result(int status, String out, String err) {}

  private static Ed25519PrivateKey key(int b) {
    byte[] seed = new byte[32];
    Arrays.fill(seed, (byte) b);
    return Ed25519PrivateKey.fromSeed(seed);
  }

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(Map.of())
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static SealedEnvelope envelope(Ed25519PrivateKey key) {
    SealedCriteria criteria =
        SealedCriteria.of(
            new SealedCriterion(
                "sc-01",
                Category.COMPLETENESS,
                "has limitations",
                "A Limitations section",
                new Check.HasSection("Limitations")),
            new SealedCriterion(
                "sc-02",
                Category.EDGE_CASE,
                "long enough",
                "At least 500 words",
                new Check.MinWords(500)));
    return SealedEnvelope.seal(
        SealStatement.Subject.agreement("agr_42"),
        criteria,
        "did:key:z6MkClient",
        Instant.parse("2025-01-15T10:30:00Z"),
        new SecureRandom(),
        key);
  }

  private Path write(String name, JsonNode json) throws IOException {
    return Files.writeString(dir.resolve(name), Json.writePretty(json));
  }

  @Test
  void aRevealedSealThatHoldsExitsZeroAndPrintsEachCheck() throws IOException {
    SealedEnvelope env = envelope(SERVER);
    Path file = write("seal.json", env.toJson());

    Result r =
        run(
            "shadow",
            "verify-seal",
            file.toString(),
            "--signer",
            DidKey.of(SERVER.publicKey()),
            "--commitment",
            env.commitment().toString());

    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .startsWith(
            "Seal of agreement agr_42, sealed 2025-01-15T10:30:00Z by did:key:z6MkClient, 2 criteria\n")
        .contains(
            "  ok    signature: ",
            "  ok    signer: ",
            "  ok    commitment: sha256 of JCS {nonce, criteria} is " + env.commitment(),
            "  ok    recorded_commitment: ")
        .endsWith("The seal holds.\n");
  }

  @Test
  void aTamperedCriterionExitsOne() throws IOException {
    ObjectNode json = envelope(SERVER).toJson();
    ((ObjectNode) json.path("criteria").get(1).path("check")).put("value", 50);
    Path file = write("seal.json", json);

    Result r = run("shadow", "verify-seal", file.toString());

    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out())
        .contains("  ok    signature: ", "  FAIL  commitment: the statement commits to")
        .endsWith("The seal is BROKEN.\n");

    Result asJson = run("shadow", "verify-seal", file.toString(), "--json");
    assertThat(asJson.status()).isEqualTo(1);
    JsonNode out = Json.parseTrusted(asJson.out());
    assertThat(out.path("valid").booleanValue()).isFalse();
    assertThat(out.path("checks").get(1).path("name").asText()).isEqualTo("commitment");
    assertThat(out.path("checks").get(1).path("passed").booleanValue()).isFalse();
    assertThat(out.path("statement").path("agreement_id").asText()).isEqualTo("agr_42");
  }

  @Test
  void aSealSignedByAnotherKeyFailsOnlyAgainstThePinnedSigner() throws IOException {
    Path file = write("seal.json", envelope(OTHER).toJson());

    assertThat(run("shadow", "verify-seal", file.toString()).status()).isZero();
    Result pinned =
        run("shadow", "verify-seal", file.toString(), "--signer", SERVER.publicKey().toBase64Url());
    assertThat(pinned.status()).isEqualTo(1);
    assertThat(pinned.out()).contains("  FAIL  signer: signed by " + DidKey.of(OTHER.publicKey()));

    ObjectNode json = envelope(SERVER).toJson();
    ((ObjectNode) json.path("statement")).put("agreement_id", "agr_43");
    Result altered = run("shadow", "verify-seal", write("altered.json", json).toString());
    assertThat(altered.status()).isEqualTo(1);
    assertThat(altered.out()).contains("  FAIL  signature: the Ed25519 signature does not verify");
  }

  @Test
  void unusableInputExitsTwoWithTheReason() throws IOException {
    Result missing = run("shadow", "verify-seal", dir.resolve("nope.json").toString());
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err())
        .isEqualTo("asa shadow verify-seal: no such file: " + dir.resolve("nope.json") + "\n");

    Path notJson = Files.writeString(dir.resolve("bad.json"), "{\"statement\":");
    Result bad = run("shadow", "verify-seal", notJson.toString());
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).startsWith("asa shadow verify-seal: " + notJson + ": not valid JSON");

    ObjectNode json = envelope(SERVER).toJson();
    json.remove("nonce");
    Result incomplete = run("shadow", "verify-seal", write("incomplete.json", json).toString());
    assertThat(incomplete.status()).isEqualTo(2);
    assertThat(incomplete.err()).contains("not a revealed seal: /nonce: is missing");
    assertThat(incomplete.out()).isEmpty();

    Result badSigner =
        run(
            "shadow",
            "verify-seal",
            write("ok.json", envelope(SERVER).toJson()).toString(),
            "--signer",
            "nope");
    assertThat(badSigner.status()).isEqualTo(2);
    assertThat(badSigner.err()).startsWith("asa shadow verify-seal: --signer must be a public key");
    Result badCommitment =
        run("shadow", "verify-seal", dir.resolve("ok.json").toString(), "--commitment", "md5:abc");
    assertThat(badCommitment.status()).isEqualTo(2);
    assertThat(run("shadow", "verify-seal").status()).isEqualTo(2);
  }

  @Test
  void theCommandIsListedNextToShadowScore() {
    assertThat(run("shadow").err()).contains("shadow score", "shadow verify-seal");
    Result help = run("shadow", "verify-seal", "--help");
    assertThat(help.status()).isZero();
    assertThat(help.out())
        .startsWith("usage: asa shadow verify-seal FILE [--signer KEY] [--commitment HASH]");
  }
}
