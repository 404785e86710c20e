package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code asa agreements counts [--party VALUE | --all] [filters]}: agreements by state. */
@Command(
    name = "counts",
    header = "Counts a party's agreements by state (GET /agreements/counts).",
    customSynopsis =
        "asa agreements counts [--party VALUE | --all] [--service-type TYPE]"
            + " [--created-after INSTANT] [--created-before INSTANT] [--min-amount AMOUNT]"
            + " [--max-amount AMOUNT] [--currency CODE]",
    description =
        "The same filters as asa agreements list but --state. A party's count covers at most"
            + " 5,000 of its agreements and says so when it stopped there; the operator's (--all)"
            + " is exact.")
final class CountsCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Mixin ListFilterOptions filters;

  @Option(
      names = "--party",
      paramLabel = "VALUE",
      description =
          "the did:key of a client, provider or evaluator (default: the did:key of your --key)")
  String party;

  @Option(
      names = "--all",
      description = "every agreement, whoever takes part (the operator key only; no --party)")
  boolean all;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    if (all && party != null) {
      throw new UsageException("--all counts every agreement; leave --party out");
    }
    String who = all ? null : ListCommand.party(party, session);
    ObjectNode answer = session.client().counts(who, filters.filter(null));
    if (session.json()) {
      session.printJson(answer);
      return Exit.OK;
    }
    Table table = Table.withHeaders("STATE", "AGREEMENTS");
    for (Map.Entry<String, JsonNode> e : answer.path("counts").properties()) {
      table.row(e.getKey(), e.getValue().asText());
    }
    table.row("total", answer.path("total").asText());
    session.out().print(table.render());
    if (!answer.path("complete").asBoolean()) {
      session
          .out()
          .println("incomplete: the count stopped after 5,000 agreements; narrow the filters");
    }
    return Exit.OK;
  }
}
