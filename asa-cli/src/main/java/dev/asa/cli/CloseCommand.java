package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code asa agreements close ID}: settles a verified agreement once nobody can challenge it any
 * more.
 */
final class CloseCommand implements Command {

  private static final Usage USAGE =
      Usage.of(
              "agreements close",
              "ID",
              "Closes a verified agreement and settles the payment.\n"
                  + "Allowed once the challenge window has passed without a challenge.")
          .positional("ID")
          .server();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    String id = args.positional(0);
    ObjectNode answer = session.client().close(id);
    if (session.json()) {
      session.printJson(answer);
      return 0;
    }
    session.out().println("closed " + id + "; state " + answer.path("state").asText());
    JsonNode settlement = answer.path("agreement").path("metadata").path("settlement");
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
    return 0;
  }
}
