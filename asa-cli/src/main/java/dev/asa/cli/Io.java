package dev.asa.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * Where a run of {@code asa} reads and prints, and the environment it sees; tests pass their own.
 */
record Io(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {

  Io {
    env = Map.copyOf(env);
  }

  /** An environment variable, or null when it is unset or blank. */
  String env(String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? null : v;
  }
}
