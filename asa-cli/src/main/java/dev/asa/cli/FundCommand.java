package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements fund ID}: the client puts the agreement's amount into escrow, so the
 * provider may deliver.
 */
@Command(
    name = "fund",
    header = "Funds the escrow of an ACTIVE agreement (the client's call).",
    customSynopsis =
        "asa agreements fund ID [--x402-payload FILE | --erc8183-job JOB_ID[,JOB_ID...]]",
    description =
        "The agreement's amount is held until the agreement closes; the provider can deliver only once it is funded. A ledger or http_callback escrow needs nothing more; an x402 escrow needs the signed payment; an erc8183 escrow needs the jobs you created and funded on chain, in order (asa agreements escrow ID lists them under jobs_to_create).")
final class FundCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Option(
      names = "--x402-payload",
      paramLabel = "FILE",
      description = "a JSON file with the x402 PaymentPayload, for an x402 escrow")
  String x402Payload;

  @Option(
      names = "--erc8183-job",
      paramLabel = "JOB_ID[,JOB_ID...]",
      description =
          "the ERC-8183 jobs you created and funded for this agreement, comma-separated in the"
              + " order of jobs_to_create, for an erc8183 escrow (one id when it is one job)")
  String erc8183Job;

  @Override
  public Integer call() throws Exception {
    if (x402Payload != null && erc8183Job != null) {
      throw new UsageException(
          "--x402-payload and --erc8183-job fund different escrows: give the one the agreement's"
              + " binding takes");
    }
    Session session = server.session();
    ObjectNode body =
        x402Payload != null ? body(x402Payload) : erc8183Job != null ? jobBody(erc8183Job) : null;
    ObjectNode answer = body == null ? session.client().fund(id) : session.client().fund(id, body);
    session.print(answer, FundCommand::summary);
    return Exit.OK;
  }

  /** {@code {"x402": <the file's PaymentPayload>}}. */
  static ObjectNode body(String file) throws CliException {
    JsonNode payload = Inputs.jsonFile(file);
    if (!payload.isObject()) {
      throw new CliException(
          "--x402-payload " + file + " must hold a JSON object: the x402 PaymentPayload");
    }
    ObjectNode body = Json.object();
    body.set("x402", payload);
    return body;
  }

  /**
   * {@code {"erc8183": {"job_id": "7"}}} for one job, {@code {"erc8183": {"job_ids": ["7", "8",
   * "9"]}}} for a budget split over several: the server checks each job on chain.
   */
  static ObjectNode jobBody(String jobIds) throws UsageException {
    String[] ids = jobIds.split(",", -1);
    for (String jobId : ids) {
      if (!jobId.matches("[1-9][0-9]{0,76}")) {
        throw new UsageException(
            "--erc8183-job is the job's id, a whole number from 1 (several comma-separated), not '"
                + jobId
                + "'");
      }
    }
    ObjectNode body = Json.object();
    if (ids.length == 1) {
      body.putObject("erc8183").put("job_id", ids[0]);
    } else {
      var list = body.putObject("erc8183").putArray("job_ids");
      for (String jobId : ids) {
        list.add(jobId);
      }
    }
    return body;
  }

  /** {@code funded 10.00 USD into escrow:asa-1 (ledger); state ACTIVE}. */
  static String summary(JsonNode envelope) {
    JsonNode escrow = envelope.path("agreement").path("metadata").path("escrow");
    return "funded "
        + escrow.path("amount").asText()
        + " "
        + escrow.path("currency").asText()
        + " into "
        + escrow.path("escrow_account").asText()
        + " ("
        + escrow.path("binding").asText()
        + "); state "
        + envelope.path("state").asText()
        + "\n";
  }
}
