package dev.asa.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code asa completion bash|zsh}: the shell completion script, generated from the command tree.
 */
@Command(
    name = "completion",
    header = "Prints a shell completion script for bash or zsh.",
    customSynopsis = "asa completion bash|zsh",
    description =
        "Load it in the current shell with  source <(asa completion bash)  (zsh: source <(asa"
            + " completion zsh)), or save it where your shell reads completions, e.g."
            + " ~/.local/share/bash-completion/completions/asa.")
final class CompletionCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "SHELL", description = "bash or zsh")
  String shell;

  @Override
  public Integer call() throws UsageException {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw new UsageException("SHELL must be bash or zsh, not '" + shell + "'");
    }
    // One script serves both: under zsh it loads zsh's bash-completion emulation itself.
    Asa.of(spec).io().out().print(AutoComplete.bash("asa", spec.root().commandLine()));
    return Exit.OK;
  }
}
