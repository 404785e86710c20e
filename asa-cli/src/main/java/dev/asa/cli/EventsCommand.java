package dev.asa.cli;

import dev.asa.client.EventLog;
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
    EventLog log = session.client().agreements().events(id);
    Optional<String> broken = log.firstBreak();
    if (session.json()) {
      session.printJson(log.json());
      broken.ifPresent(b -> session.err().println("asa agreements events: chain BROKEN: " + b));
    } else {
      session.out().print(table(log));
      session
          .out()
          .println(
              broken
                  .map(b -> "chain BROKEN: " + b)
                  .orElse("chain verifies (" + log.events().size() + " events)"));
    }
    return broken.isPresent() ? Exit.FAIL : Exit.OK;
  }

  static String table(EventLog log) {
    Table table = Table.withHeaders("SEQ", "TYPE", "ACTOR", "AT", "HASH");
    for (EventLog.Entry e : log.events()) {
      table.row(
          e.seq(),
          e.type(),
          e.actorRole() + (e.actorAuthenticated() ? "" : " (claimed)"),
          e.at(),
          Formats.shortHash(e.hash()));
    }
    return table.render();
  }
}
