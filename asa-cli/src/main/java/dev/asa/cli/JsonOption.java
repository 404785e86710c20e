package dev.asa.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --json} for the commands that answer without a server. */
final class JsonOption {

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(
      names = "--json",
      order = Order.COMMON,
      description = "print the JSON itself (pretty) instead of a summary")
  boolean json;

  /** A session without a server. */
  Session session() {
    Asa root = Asa.of(command);
    return new Session(root.io(), null, null, json || root.json);
  }
}
