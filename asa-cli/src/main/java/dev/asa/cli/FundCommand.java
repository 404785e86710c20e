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
    customSynopsis = "asa agreements fund ID [--x402-payload FILE]",
    description =
        "The agreement's amount is held until the agreement closes; the provider can deliver only once it is funded. A ledger or http_callback escrow needs nothing more; an x402 escrow needs the signed payment.")
final class FundCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Option(
      names = "--x402-payload",
      paramLabel = "FILE",
      description = "a JSON file with the x402 PaymentPayload, for an x402 escrow")
  String x402Payload;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    ObjectNode body = x402Payload != null ? body(x402Payload) : null;
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
