package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.NegotiationTranscript;
import dev.asa.client.NegotiationTranscript.Change;
import dev.asa.client.NegotiationTranscript.PriceFlag;
import dev.asa.client.NegotiationTranscript.Round;
import dev.asa.json.Json;
import java.util.Optional;
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
    NegotiationTranscript transcript = session.client().agreements().negotiation(id);
    session.print(transcript.json(), json -> transcript(transcript));
    return Exit.OK;
  }

  static String transcript(NegotiationTranscript t) {
    StringBuilder s = new StringBuilder();
    s.append("negotiation of ")
        .append(t.agreementId())
        .append("; state ")
        .append(t.state().name())
        .append('\n');
    if (t.rounds().isEmpty()) {
      return s.append("no negotiation yet: the terms are as proposed\n").toString();
    }
    for (Round r : t.rounds()) {
      s.append('\n')
          .append("round ")
          .append(r.round())
          .append(", ")
          .append(r.at())
          .append(": ")
          .append(r.party().orElse("the server"))
          .append(' ')
          .append(verb(r))
          .append(r.rationaleCode().map(code -> " (" + code + ")").orElse(""))
          .append('\n');
      Table changes = Table.withHeaders("  TERM", "BEFORE", "AFTER");
      for (Change c : r.changes()) {
        changes.row("  " + c.path(), value(c.before()), value(c.after()));
      }
      if (!changes.isEmpty()) {
        s.append(changes.render());
      }
      r.priceNote().ifPresent(note -> s.append("  price: ").append(note).append('\n'));
      r.priceFlag().ifPresent(flag -> s.append("  price flag: ").append(flag(flag)).append('\n'));
      r.reason().ifPresent(reason -> s.append("  reason: ").append(reason).append('\n'));
      r.agreementHash().ifPresent(hash -> s.append("  agreement_hash ").append(hash).append('\n'));
    }
    return s.toString();
  }

  private static String verb(Round round) {
    return switch (round.action().orElse(round.event())) {
      case "counter" -> "proposed " + round.changes().size() + " change(s)";
      case "accept" -> "accepted the terms";
      case "reject" -> "rejected the agreement";
      default -> round.event();
    };
  }

  /** A term's value as JSON text ({@code "12.00"} keeps its quotes: it is a string); absent: -. */
  private static String value(Optional<JsonNode> v) {
    return v.map(Json::write).orElse("-");
  }

  /** The flag in the JSON form the server records it in. */
  private static String flag(PriceFlag flag) {
    return Json.write(
        Json.object()
            .put("amount", flag.amount().toPlainString())
            .put("median", flag.median().toPlainString())
            .put("source", flag.source())
            .put("ratio", flag.ratio().toPlainString()));
  }
}
