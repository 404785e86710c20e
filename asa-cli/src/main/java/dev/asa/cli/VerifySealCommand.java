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

/**
 * {@code asa shadow verify-seal FILE}: checks a revealed seal (the bundle of {@code GET
 * /agreements/{id}/seal}) offline: the signature over the statement, and the commitment recomputed
 * from the revealed nonce and criteria. Exit statuses follow {@code shadow score}: 1 is the answer
 * "the seal does not hold", so input that cannot be checked at all is 2, not 1.
 */
final class VerifySealCommand implements Command {

  private static final Usage USAGE =
      Usage.of(
              "shadow verify-seal",
              "FILE [--signer KEY] [--commitment HASH]",
              "Verifies a revealed shadow seal offline: the Ed25519 signature over its statement, and that its nonce and\n"
                  + "criteria recompute to the commitment it states (sha256 over JCS {nonce, criteria}). Prints each check.\n"
                  + "Exit 0 when the seal holds, 1 when it does not (tampered, or not the expected signer or commitment),\n"
                  + "2 when the file cannot be used.")
          .positional("FILE")
          .option(
              Option.value(
                  "--signer",
                  "KEY",
                  "the key that must have signed it (the server's), did:key or base64url;"
                      + " without it, any self-consistent bundle passes"))
          .option(
              Option.value(
                  "--commitment",
                  "HASH",
                  "the commitment recorded elsewhere (the agreement's terms or event log)"))
          .json();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    Optional<Ed25519PublicKey> signer =
        args.has("--signer")
            ? Optional.of(Inputs.publicKey("--signer", args.value("--signer")))
            : Optional.empty();
    Optional<Commitment> commitment = Optional.empty();
    if (args.has("--commitment")) {
      try {
        commitment = Optional.of(Commitment.parse(args.value("--commitment")));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--commitment: " + e.getMessage());
      }
    }
    String file = args.positional(0);
    SealedEnvelope envelope;
    try {
      envelope = read(file);
    } catch (CliException e) {
      session.err().println("asa " + USAGE.command() + ": " + e.getMessage());
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
