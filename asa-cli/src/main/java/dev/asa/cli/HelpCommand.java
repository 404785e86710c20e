package dev.asa.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code asa help [COMMAND ...]}: the help of any command, however deep. */
@Command(
    name = "help",
    header = "Explains a command: asa help agreements create.",
    customSynopsis = "asa help [COMMAND ...]")
final class HelpCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "the command's words")
  List<String> words = new ArrayList<>();

  @Override
  public Integer call() throws UsageException {
    CommandLine command = spec.root().commandLine();
    for (String word : words) {
      CommandLine sub = command.getSubcommands().get(word);
      if (sub == null) {
        throw new UsageException(
            "no command '"
                + String.join(" ", words)
                + "'; the commands are: "
                + String.join(", ", command.getSubcommands().keySet()));
      }
      command = sub;
    }
    command.usage(Asa.of(spec).io().out());
    return Exit.OK;
  }
}
