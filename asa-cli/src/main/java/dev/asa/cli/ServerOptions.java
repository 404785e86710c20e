package dev.asa.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options of every command that talks to a server: {@code --server}, {@code --key} and {@code
 * --json}. They may also come before the command word ({@code asa --server URL agreements get ID});
 * given in both places, the command's own wins.
 */
final class ServerOptions {

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(
      names = "--server",
      order = Order.COMMON,
      paramLabel = "URL",
      description = "the ASA server (default: $ASA_SERVER, else " + Session.DEFAULT_SERVER + ")")
  String server;

  @Option(
      names = "--key",
      order = Order.COMMON,
      paramLabel = "FILE",
      description = "your key file: every request is signed with it (default: $ASA_KEY)")
  String key;

  @Option(
      names = "--json",
      order = Order.COMMON,
      description = "print the JSON itself (pretty) instead of a summary")
  boolean json;

  /** The session of this run, with the options given before the command word as fallbacks. */
  Session session() {
    Asa root = Asa.of(command);
    return new Session(
        root.io(),
        server != null ? server : root.server,
        key != null ? key : root.key,
        json || root.json);
  }
}
