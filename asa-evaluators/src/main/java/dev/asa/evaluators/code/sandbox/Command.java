package dev.asa.evaluators.code.sandbox;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to run inside a sandbox.
 *
 * @param argv the program and its arguments, resolved inside the sandbox (its working directory is
 *     {@link Sandbox#WORK_DIR})
 * @param env variables added to the sandbox's small fixed environment
 * @param readOnly host directories to show read-only at the same path, for a runtime installed
 *     outside {@code /usr} (a JDK under {@code /opt}, say); never a data directory
 * @param collect work-directory files to read back after the run (regular files only, never through
 *     a link, capped at the output cap), for a harness's result file
 * @param seeds what some collected files hold when the command starts (path -> text), for a secret
 *     the harness reads and then erases: a collected file is bound from outside the input, so once
 *     the harness has truncated it the secret is nowhere in the sandbox's files
 */
public record Command(
    List<String> argv,
    Map<String, String> env,
    List<Path> readOnly,
    List<String> collect,
    Map<String, String> seeds) {

  public Command {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
    readOnly = List.copyOf(readOnly);
    collect = List.copyOf(collect);
    seeds = Map.copyOf(seeds);
    if (!collect.containsAll(seeds.keySet())) {
      throw new IllegalArgumentException("a seeded file must be collected: " + seeds.keySet());
    }
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("empty command");
    }
    for (Path p : readOnly) {
      if (!p.isAbsolute()) {
        throw new IllegalArgumentException("read-only bind must be absolute: " + p);
      }
    }
    collect.forEach(WorkFiles::checkPath);
  }

  public Command(
      List<String> argv, Map<String, String> env, List<Path> readOnly, List<String> collect) {
    this(argv, env, readOnly, collect, Map.of());
  }

  /** Just a program and its arguments. */
  public static Command of(String... argv) {
    return new Command(List.of(argv), Map.of(), List.of(), List.of());
  }

  public Command withEnv(Map<String, String> value) {
    return new Command(argv, value, readOnly, collect, seeds);
  }

  public Command withReadOnly(List<Path> value) {
    return new Command(argv, env, value, collect, seeds);
  }

  public Command withCollect(List<String> value) {
    return new Command(argv, env, readOnly, value, seeds);
  }

  /** This command with {@code path} collected too, holding {@code seed} when it starts. */
  public Command withCollectAlso(String path, String seed) {
    List<String> c = new java.util.ArrayList<>(collect);
    c.add(path);
    Map<String, String> s = new java.util.HashMap<>(seeds);
    s.put(path, seed);
    return new Command(argv, env, readOnly, c, s);
  }

  public Command withSeeds(Map<String, String> value) {
    return new Command(argv, env, readOnly, collect, value);
  }

  @Override
  public String toString() {
    return String.join(" ", Objects.requireNonNull(argv));
  }
}
