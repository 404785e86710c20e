package dev.asa.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code asa}: the root of the command tree. It holds what the whole run shares (the streams and
 * the environment) and the server options that may come before the command word.
 */
@Command(
    name = "asa",
    header = "Agent Service Agreements from the command line.",
    customSynopsis = "asa [--server URL] [--key FILE] [--json] COMMAND [ARGUMENTS] [--help]",
    description =
        "Run 'asa help COMMAND' or 'asa COMMAND --help' for a command's options. The server is"
            + " --server URL, else $ASA_SERVER, else "
            + Session.DEFAULT_SERVER
            + "; requests are signed with --key FILE, else $ASA_KEY.",
    versionProvider = Version.class,
    footer = "%n" + Exit.TABLE,
    subcommands = {
      ServeCommand.class,
      KeysCommands.class,
      TemplatesCommand.class,
      AgreementsCommands.class,
      AccountsCommands.class,
      EvaluatorsCommands.class,
      EvaluatorTaskCommands.class,
      StandaloneVerifyCommand.class,
      VerificationsCommands.class,
      JudgeEvalCommand.class,
      ShadowCommands.class,
      SealCommands.Seals.class,
      MarketCommand.class,
      ReputationCommand.class,
      McpCommand.class,
      ServerCommands.class,
      AdminCommands.class,
      ArchiveCommands.class,
      CompletionCommand.class,
      HelpCommand.class
    })
final class Asa implements Callable<Integer> {

  private final Io io;

  @Spec CommandSpec spec;

  @Option(
      names = "--server",
      paramLabel = "URL",
      description = "the ASA server of the command (default: $ASA_SERVER)")
  String server;

  @Option(
      names = "--key",
      paramLabel = "FILE",
      description = "the key file the command signs with (default: $ASA_KEY)")
  String key;

  @Option(names = "--json", description = "the command prints JSON instead of a summary")
  boolean json;

  @Option(
      names = {"-V", "--version"},
      versionHelp = true,
      description = "print the version of asa")
  boolean version;

  Asa(Io io) {
    this.io = io;
  }

  Io io() {
    return io;
  }

  /** The root of the tree {@code command} belongs to. */
  static Asa of(CommandSpec command) {
    return (Asa) command.root().userObject();
  }

  /** {@code asa} alone: the overview, on standard error, as a usage error. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return Exit.USAGE;
  }
}
