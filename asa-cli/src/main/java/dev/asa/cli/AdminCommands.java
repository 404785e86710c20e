package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa admin ...}: the operator's routes, signed with the operator key. */
@Command(
    name = "admin",
    header = "Reads the server's configuration and loads its canary set (the operator's key).",
    customSynopsis = "asa admin COMMAND ...",
    subcommands = {AdminCommands.Config.class, AdminCommands.Canaries.class})
final class AdminCommands extends Group {

  /** {@code asa admin config}: {@code GET /admin/config}. */
  @Command(
      name = "config",
      header = "Shows the configuration the server runs with (GET /admin/config).",
      customSynopsis = "asa admin config --key OPERATOR_KEY_FILE",
      description =
          "The listen address, store, rate limits, negotiation rules, evaluators and the rest;"
              + " printed as JSON, as the server gives it. Only the operator key may read it.")
  static final class Config implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().adminConfig());
      return Exit.OK;
    }
  }

  /** {@code asa admin canaries FILE}: {@code PUT /admin/canaries}. */
  @Command(
      name = "canaries",
      header = "Replaces the server's canary set (PUT /admin/canaries).",
      customSynopsis = "asa admin canaries FILE --key OPERATOR_KEY_FILE",
      description =
          "FILE is a JSON array of canaries, as asa serve --canaries takes it (or - for standard"
              + " input). The server checks every canary and refuses the set, naming each problem,"
              + " if any is wrong.")
  static final class Canaries implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "FILE", description = "the canary set, a JSON array (or -)")
    String file;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      JsonNode set = Inputs.jsonFileOrStdin(file, session.in());
      JsonNode answer = session.client().loadCanaries(set);
      if (session.json()) {
        session.printJson(answer);
      } else {
        session.out().println("loaded the canary set from " + file);
      }
      return Exit.OK;
    }
  }
}
