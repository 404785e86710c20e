package dev.asa.cli;

import java.util.Locale;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The environment as defaults for {@code asa serve}: each flag {@code --some-flag} may be given as
 * {@code ASA_SOME_FLAG} instead; the command line wins. {@code --db} also honours the older {@code
 * ASA_DB_URL}. A value from the environment is converted and checked as the flag's would be, and a
 * bad one is reported naming both.
 *
 * <p>The environment is {@link Io#env}'s, not the process's (as picocli's {@code ${env:...}} would
 * read), so that tests can give their own.
 */
final class EnvDefaults implements IDefaultValueProvider {

  private final Io io;

  EnvDefaults(Io io) {
    this.io = io;
  }

  /** {@code --rate-limit} is {@code ASA_RATE_LIMIT}. */
  static String variable(OptionSpec option) {
    return "ASA_"
        + option.longestName().replaceFirst("^--", "").replace('-', '_').toUpperCase(Locale.ROOT);
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    if (!(arg instanceof OptionSpec option) || option.usageHelp()) {
      return null;
    }
    String variable = setting(option);
    return variable == null ? null : io.env(variable);
  }

  /** The variable that sets the option, or null when none does. */
  private String setting(OptionSpec option) {
    if (io.env(variable(option)) != null) {
      return variable(option);
    }
    if (option.longestName().equals("--db") && io.env("ASA_DB_URL") != null) {
      return "ASA_DB_URL";
    }
    return null;
  }

  /**
   * {@code " (from ASA_PORT)"} when the value picocli refused came from the environment; empty when
   * it came from the command line, or the command reads no environment.
   */
  static String origin(ParameterException e, String[] argv) {
    if (e.getCommandLine().getDefaultValueProvider() instanceof EnvDefaults env
        && e.getArgSpec() instanceof OptionSpec option
        && !onCommandLine(option, argv)) {
      String variable = env.setting(option);
      return variable == null ? "" : " (from " + variable + ")";
    }
    return "";
  }

  /** Whether {@code --flag V} or {@code --flag=V} is on the command line, before any {@code --}. */
  private static boolean onCommandLine(OptionSpec option, String[] argv) {
    for (String token : argv) {
      if (token.equals("--")) {
        return false;
      }
      for (String name : option.names()) {
        if (token.equals(name) || token.startsWith(name + "=")) {
          return true;
        }
      }
    }
    return false;
  }
}
