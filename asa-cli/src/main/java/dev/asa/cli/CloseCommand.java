package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.AgreementView;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements close ID}: settles a verified agreement once nobody can challenge it any
 * more.
 */
@Command(
    name = "close",
    header = "Closes a verified agreement and settles the payment.",
    customSynopsis = "asa agreements close ID",
    description = "Allowed once the challenge window has passed without a challenge.")
final class CloseCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    AgreementView answer = session.client().agreements().close(id);
    if (session.json()) {
      session.printJson(answer.json());
      return Exit.OK;
    }
    session.out().println("closed " + id + "; state " + answer.state().name());
    // The settlement is a fact in the document's metadata, which the SDK's view does not type.
    JsonNode settlement = answer.document().path("metadata").path("settlement");
    if (settlement.has("amount")) {
      String currency = " " + settlement.path("currency").asText();
      session
          .out()
          .println(
              "released "
                  + settlement.path("released_to_provider").asText()
                  + currency
                  + " to the provider ("
                  + Formats.number(settlement.path("release_percent"))
                  + "%), "
                  + settlement.path("refunded_to_client").asText()
                  + currency
                  + " back to the client");
    }
    return Exit.OK;
  }
}
