package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.EventChain;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements events ID}: the agreement's evidence trail, with the hash chain checked
 * here rather than taken on the server's word. Exit status 1 when the chain is broken.
 */
@Command(
    name = "events",
    header = "Lists the agreement's event log and checks its hash chain here.",
    customSynopsis = "asa agreements events ID",
    description = "Prints \"chain verifies\", or where the chain breaks (exit status 1).")
final class EventsCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    ObjectNode answer = session.client().events(id);
    Optional<String> broken = firstBreak(answer);
    if (session.json()) {
      session.printJson(answer);
      broken.ifPresent(b -> session.err().println("asa agreements events: chain BROKEN: " + b));
    } else {
      session.out().print(table(answer));
      session
          .out()
          .println(
              broken
                  .map(b -> "chain BROKEN: " + b)
                  .orElse("chain verifies (" + answer.path("events").size() + " events)"));
    }
    return broken.isPresent() ? Exit.FAIL : Exit.OK;
  }

  static String table(JsonNode answer) {
    Table table = Table.withHeaders("SEQ", "TYPE", "ACTOR", "AT", "HASH");
    for (JsonNode e : answer.path("events")) {
      JsonNode actor = e.path("actor");
      table.row(
          e.path("seq").asText(),
          e.path("type").asText(),
          actor.path("role").asText()
              + (actor.path("authenticated").asBoolean() ? "" : " (claimed)"),
          e.path("at").asText(),
          Formats.shortHash(e.path("hash").asText()));
    }
    return table.render();
  }

  /** Rebuilds the core's events from the JSON and lets {@link EventChain} judge them. */
  static Optional<String> firstBreak(JsonNode answer) {
    return EventChain.firstBreak(answer);
  }
}
