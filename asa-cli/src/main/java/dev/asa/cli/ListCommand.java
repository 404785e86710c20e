package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@code asa agreements list --party VALUE}: one page of a party's agreements. */
final class ListCommand implements Command {

  private static final Usage USAGE =
      Usage.of(
              "agreements list",
              "--party VALUE [--cursor C] [--limit N]",
              "Lists the agreements a party takes part in, a page at a time.")
          .option(
              Option.required(
                  "--party",
                  "VALUE",
                  "the identity value of a client, provider or evaluator (e.g. its did:key)"))
          .option(Option.value("--cursor", "C", "where the previous page ended (printed under it)"))
          .option(Option.value("--limit", "N", "page size, 1 to 200 (default 50)"))
          .server();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    String party = args.value("--party");
    ObjectNode page =
        session.client().list(party, args.value("--cursor"), args.intValue("--limit", 0, 1, 200));
    if (session.json()) {
      session.printJson(page);
      return 0;
    }
    Table table = Table.withHeaders("AGREEMENT", "STATE", "SERVICE", "CREATED", "UPDATED");
    for (JsonNode item : page.path("items")) {
      table.row(
          item.path("agreement_id").asText(),
          item.path("state").asText(),
          item.path("service_type").asText(),
          item.path("created_at").asText(),
          item.path("updated_at").asText());
    }
    if (table.isEmpty()) {
      session.out().println("no agreements for " + party);
    } else {
      session.out().print(table.render());
    }
    JsonNode next = page.path("next_cursor");
    if (next.isTextual()) {
      session
          .out()
          .println("more: asa agreements list --party " + party + " --cursor " + next.asText());
    }
    return 0;
  }
}
