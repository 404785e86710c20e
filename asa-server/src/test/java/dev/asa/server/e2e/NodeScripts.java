package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Node scripts beside the tests ({@code src/test/node/*}), which run software this project did not
 * write from the npm registry, pinned by each directory's lock file. Public for the other modules'
 * tests (asa-cli's MCP client test).
 */
public final class NodeScripts {
  private NodeScripts() {}

  /**
   * {@code npm ci} in {@code dir} unless {@code marker} (a package) is installed there. Without npm
   * or the registry the calling test is skipped, except on CI (CI=true), where it fails.
   */
  public static void install(Path dir, String marker) throws Exception {
    // The suite's test JVMs run side by side, and two classes may share a folder: the second waits
    // for the first's npm ci (a lock on a file, which holds across processes) and then finds it
    // done.
    try (FileChannel lockFile =
            FileChannel.open(
                dir.resolve(".npm-ci.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = lockFile.lock()) {
      installHoldingTheLock(dir, marker);
    }
  }

  private static void installHoldingTheLock(Path dir, String marker) throws Exception {
    if (Files.isDirectory(dir.resolve("node_modules").resolve(marker))) {
      return;
    }
    int exit;
    try {
      Process npm =
          new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund")
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .start();
      String log = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      exit = npm.waitFor(5, TimeUnit.MINUTES) ? npm.exitValue() : -1;
      if (exit != 0) {
        System.err.println("npm ci in " + dir + " failed:\n" + log);
      }
    } catch (IOException e) {
      exit = -1; // no npm on this machine
    }
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      assertThat(exit).as("npm ci in %s (CI=true: fails instead of skipping)", dir).isZero();
    }
    assumeTrue(exit == 0, "npm ci in " + dir + " did not succeed: skipping");
  }

  /** Runs {@code node script args...} in {@code dir} with {@code stdin}; its standard output. */
  public static String run(Path dir, String script, String stdin, String... args) throws Exception {
    return run(dir, script, stdin, Duration.ofSeconds(60), args);
  }

  /** As {@link #run(Path, String, String, String...)}, for a script that may take {@code limit}. */
  public static String run(Path dir, String script, String stdin, Duration limit, String... args)
      throws Exception {
    Process p = start(dir, script, args);
    try (var in = p.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(limit.toSeconds(), TimeUnit.SECONDS))
        .as("node %s finished", script)
        .isTrue();
    assertThat(p.exitValue()).as("node %s: %s", script, out).isZero();
    return out;
  }

  /** Starts {@code node script args...} in {@code dir}; its errors go to this process's. */
  static Process start(Path dir, String script, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("node", script));
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }
}
