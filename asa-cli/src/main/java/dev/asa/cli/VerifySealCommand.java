package dev.asa.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.shadow.Commitment;
import dev.asa.shadow.SealStatement;
import dev.asa.shadow.SealVerification;
import dev.asa.shadow.SealedEnvelope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa shadow verify-seal FILE}: checks a revealed seal (the bundle of {@code GET
 * /agreements/{id}/seal}) offline: the signature over the statement, and the commitment recomputed
 * from the revealed nonce and criteria. Exit statuses follow {@code shadow score}: 1 is the answer
 * "the seal does not hold", so input that cannot be checked at all is 2, not 1.
 */
@Command(
    name = "verify-seal",
    header = "Verifies a revealed shadow seal offline and prints each check.",
    customSynopsis = "asa shadow verify-seal FILE [--signer KEY] [--commitment HASH]",
    description =
        "Checks the Ed25519 signature over its statement, and that its nonce and criteria"
            + " recompute to the commitment it states (sha256 over JCS {nonce, criteria}). Exit 0"
            + " when the seal holds, 1 when it does not (tampered, or not the expected signer or"
            + " commitment), 2 when the file cannot be used.")
final class VerifySealCommand implements Callable<Integer> {

  @Mixin JsonOption json;

  @Parameters(paramLabel = "FILE", description = "the bundle of GET /agreements/{id}/seal")
  String file;

  @Option(
      names = "--signer",
      paramLabel = "KEY",
      description =
          "the key that must have signed it (the server's), did:key or base64url; without it, any"
              + " self-consistent bundle passes")
  String signerKey;

  @Option(
      names = "--commitment",
      paramLabel = "HASH",
      description = "the commitment recorded elsewhere (the agreement's terms or event log)")
  String expectedCommitment;

  @Override
  public Integer call() throws Exception {
    Session session = json.session();
    Optional<Ed25519PublicKey> signer =
        signerKey != null ? Optional.of(Inputs.publicKey("--signer", signerKey)) : Optional.empty();
    Optional<Commitment> commitment = Optional.empty();
    if (expectedCommitment != null) {
      try {
        commitment = Optional.of(Commitment.parse(expectedCommitment));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--commitment: " + e.getMessage());
      }
    }
    SealedEnvelope envelope;
    try {
      envelope = read(file);
    } catch (CliException e) {
      session.err().println("asa shadow verify-seal: " + e.getMessage());
      return 2;
    }
    SealVerification v = SealVerification.check(envelope, signer, commitment);
    if (session.json()) {
      ObjectNode out = v.toJson();
      out.set("statement", envelope.seal().statement().toJson());
      out.put("criteria", envelope.criteria().size());
      session.printJson(out);
    } else {
      session.out().print(summary(envelope, v));
    }
    return v.valid() ? 0 : 1;
  }

  private static String summary(SealedEnvelope envelope, SealVerification v) {
    SealStatement s = envelope.seal().statement();
    StringBuilder out = new StringBuilder();
    out.append("Seal of ")
        .append(
            s.subject().kind() == SealStatement.Kind.AGREEMENT ? "agreement " : "standalone seal ")
        .append(s.subject().id())
        .append(", sealed ")
        .append(s.sealedAt())
        .append(" by ")
        .append(s.sealer())
        .append(", ")
        .append(envelope.criteria().size())
        .append(envelope.criteria().size() == 1 ? " criterion\n" : " criteria\n");
    for (SealVerification.Outcome c : v.checks()) {
      out.append(c.passed() ? "  ok    " : "  FAIL  ")
          .append(c.name())
          .append(": ")
          .append(c.detail())
          .append('\n');
    }
    out.append(v.valid() ? "The seal holds.\n" : "The seal is BROKEN.\n");
    return out.toString();
  }

  private static SealedEnvelope read(String file) throws CliException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(Path.of(file));
    } catch (IOException e) {
      throw Inputs.fileProblem(file, e);
    } catch (java.nio.file.InvalidPathException e) {
      throw new CliException(file + ": not a usable file name");
    }
    JsonNode json;
    try {
      json = Json.parse(bytes);
    } catch (JsonProcessingException e) {
      throw new CliException(file + ": not valid JSON: " + e.getOriginalMessage());
    }
    try {
      return SealedEnvelope.parse(json);
    } catch (InvalidDocumentException e) {
      throw new CliException(file + ": not a revealed seal: " + e.getMessage());
    }
  }
}
