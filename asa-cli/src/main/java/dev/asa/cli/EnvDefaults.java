package dev.asa.cli;

import java.util.Locale;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The environment as defaults for {@code asa serve}: each flag {@code --some-flag} may be given as
 * {@code ASA_SOME_FLAG} instead; the command line wins. {@code --db} also honours the older {@code
 * ASA_DB_URL}.
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
    String value = io.env(variable(option));
    if (value == null && option.longestName().equals("--db")) {
      value = io.env("ASA_DB_URL");
    }
    return value;
  }
}
