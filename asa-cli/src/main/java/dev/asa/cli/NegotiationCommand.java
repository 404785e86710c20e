package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements negotiation ID}: the negotiation as a transcript, round by round, each
 * changed term with its value before and after.
 */
@Command(
    name = "negotiation",
    header = "Shows the negotiation transcript, round by round, each term before and after.",
    customSynopsis = "asa agreements negotiation ID",
    description =
        "Each round names the party, its action (counter, accept or reject) and its rationale;"
            + " a counter lists the terms it changed with their values before and after, and any"
            + " price flag. --json prints the transcript as the server keeps it.")
final class NegotiationCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    ObjectNode transcript = session.client().negotiation(id);
    session.print(transcript, NegotiationCommand::transcript);
    return Exit.OK;
  }

  static String transcript(JsonNode t) {
    StringBuilder s = new StringBuilder();
    s.append("negotiation of ")
        .append(t.path("agreement_id").asText())
        .append("; state ")
        .append(t.path("state").asText())
        .append('\n');
    JsonNode rounds = t.path("rounds");
    if (rounds.isEmpty()) {
      return s.append("no negotiation yet: the terms are as proposed\n").toString();
    }
    for (JsonNode r : rounds) {
      s.append('\n')
          .append("round ")
          .append(r.path("round").asText("?"))
          .append(", ")
          .append(r.path("at").asText())
          .append(": ")
          .append(r.path("party").asText("the server"))
          .append(' ')
          .append(verb(r))
          .append(r.has("rationale_code") ? " (" + r.path("rationale_code").asText() + ")" : "")
          .append('\n');
      Table changes = Table.withHeaders("  TERM", "BEFORE", "AFTER");
      for (JsonNode c : r.path("changes")) {
        changes.row(
            "  " + c.path("path").asText(), value(c.path("before")), value(c.path("after")));
      }
      if (!changes.isEmpty()) {
        s.append(changes.render());
      }
      if (r.hasNonNull("price_note") && !r.path("price_note").asText().isEmpty()) {
        s.append("  price: ").append(r.path("price_note").asText()).append('\n');
      }
      if (r.has("price_flag")) {
        s.append("  price flag: ").append(Json.write(r.path("price_flag"))).append('\n');
      }
      if (r.has("reason")) {
        s.append("  reason: ").append(r.path("reason").asText()).append('\n');
      }
      if (r.has("agreement_hash")) {
        s.append("  agreement_hash ").append(r.path("agreement_hash").asText()).append('\n');
      }
    }
    return s.toString();
  }

  private static String verb(JsonNode round) {
    return switch (round.path("action").asText(round.path("event").asText())) {
      case "counter" -> "proposed " + round.path("changes").size() + " change(s)";
      case "accept" -> "accepted the terms";
      case "reject" -> "rejected the agreement";
      default -> round.path("event").asText();
    };
  }

  /** A term's value as JSON text ({@code "12.00"} keeps its quotes: it is a string); absent: -. */
  private static String value(JsonNode v) {
    return v == null || v.isMissingNode() || v.isNull() ? "-" : Json.write(v);
  }
}
