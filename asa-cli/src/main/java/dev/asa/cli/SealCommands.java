package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Shadow Scoring seals on a server: an agreement's ({@code asa agreements seal|sealed|hardening})
 * and standalone ones ({@code asa seals create|validate|report}). The answers are protocol
 * documents (commitments, signed statements, reports), printed as the JSON they are.
 */
final class SealCommands {
  private SealCommands() {}

  /** {@code asa agreements seal ID FILE}: {@code POST /agreements/{id}/seal}. */
  @Command(
      name = "seal",
      header = "Seals Shadow Scoring criteria into a proposed agreement (the client's call).",
      customSynopsis = "asa agreements seal ID FILE",
      description =
          "FILE (or - for standard input) holds {criteria, scale?, sealer?}. Allowed before anyone"
              + " signs; the commitment, signed statement and hardening policy go into the terms."
              + " Prints the seal without its criteria.")
  static final class Seal implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(index = "0", paramLabel = "ID", description = "the agreement id")
    String id;

    @Parameters(index = "1", paramLabel = "FILE", description = "the seal request, JSON (or -)")
    String file;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      JsonNode body = Inputs.jsonFileOrStdin(file, session.in());
      session.printJson(session.client().seal(id, body));
      return Exit.OK;
    }
  }

  /** {@code asa agreements sealed ID}: {@code GET /agreements/{id}/seal}. */
  @Command(
      name = "sealed",
      header = "Prints an agreement's sealed envelope: criteria, nonce, statement and signature.",
      customSynopsis = "asa agreements sealed ID",
      description =
          "Before verification only the client (the sealer) and the operator may read it, after"
              + " it any party; every read is logged. Save it and check it offline with asa shadow"
              + " verify-seal FILE.")
  static final class Sealed implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "ID", description = "the agreement id")
    String id;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().sealOf(id));
      return Exit.OK;
    }
  }

  /** {@code asa agreements hardening ID}: {@code GET /agreements/{id}/hardening}. */
  @Command(
      name = "hardening",
      header = "Prints the failure messages of an open Shadow Scoring hardening cycle.",
      customSynopsis = "asa agreements hardening ID")
  static final class Hardening implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "ID", description = "the agreement id")
    String id;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().hardening(id));
      return Exit.OK;
    }
  }

  /** {@code asa seals ...}: standalone seals. */
  @Command(
      name = "seals",
      header = "Creates standalone Shadow Scoring seals and validates work against them.",
      customSynopsis = "asa seals COMMAND ...",
      subcommands = {Create.class, Validate.class, Report.class})
  static final class Seals extends Group {}

  /** {@code asa seals create FILE}: {@code POST /shadow/seals}. */
  @Command(
      name = "create",
      header = "Seals criteria on the server, without an agreement, and prints the seal.",
      customSynopsis = "asa seals create FILE",
      description =
          "FILE (or - for standard input) holds {criteria, scale?}. The answer is the seal id,"
              + " the commitment and the signed statement; the criteria stay on the server.")
  static final class Create implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "FILE", description = "the seal request, JSON (or -)")
    String file;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      JsonNode body = Inputs.jsonFileOrStdin(file, session.in());
      session.printJson(session.client().sealStandalone(body));
      return Exit.OK;
    }
  }

  /** {@code asa seals validate SEAL_ID --file F}: {@code POST /shadow/seals/{id}/validate}. */
  @Command(
      name = "validate",
      header = "Validates work against your standalone seal and prints the report and gate.",
      customSynopsis = "asa seals validate SEAL_ID --file F [--format F]")
  static final class Validate implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "SEAL_ID", description = "the seal, as seals create printed it")
    String sealId;

    @Option(
        names = "--file",
        paramLabel = "F",
        required = true,
        description = "a UTF-8 text file with the work")
    String file;

    @Option(names = "--format", paramLabel = "F", description = "markdown, json, code...")
    String format;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().validateSeal(sealId, Inputs.textFile(file), format));
      return Exit.OK;
    }
  }

  /** {@code asa seals report SEAL_ID}: {@code GET /shadow/seals/{id}/report}. */
  @Command(
      name = "report",
      header = "Prints the latest report of your standalone seal.",
      customSynopsis = "asa seals report SEAL_ID")
  static final class Report implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "SEAL_ID", description = "the seal, as seals create printed it")
    String sealId;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().sealReport(sealId));
      return Exit.OK;
    }
  }
}
