package dev.asa.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command group such as {@code asa agreements}: named alone, it lists its commands on standard
 * error and exits with a usage error.
 */
abstract class Group implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return Exit.USAGE;
  }
}
