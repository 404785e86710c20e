package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements stake ID}: the provider stakes the collateral the terms ask for ({@code
 * escrow.collateral}), so it may deliver.
 */
@Command(
    name = "stake",
    header = "Stakes the provider's collateral of an ACTIVE agreement (the provider's call).",
    customSynopsis = "asa agreements stake ID",
    description =
        "For terms with escrow.collateral (ledger escrow only): the stake is held beside the escrow until the agreement ends, slashed to the client on the events its slash_on names and returned otherwise; the provider can deliver only once it is staked. asa agreements escrow ID shows where it stands.")
final class StakeCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    ObjectNode answer = session.client().stakeCollateral(id);
    session.print(answer, StakeCommand::summary);
    return Exit.OK;
  }

  /** {@code staked 3.00 USD into collateral:asa-1; state ACTIVE}. */
  static String summary(JsonNode envelope) {
    JsonNode collateral = envelope.path("agreement").path("metadata").path("collateral");
    return "staked "
        + collateral.path("amount").asText()
        + " "
        + collateral.path("currency").asText()
        + " into "
        + collateral.path("collateral_account").asText()
        + "; state "
        + envelope.path("state").asText()
        + "\n";
  }
}
