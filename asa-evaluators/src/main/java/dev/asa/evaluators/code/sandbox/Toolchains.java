package dev.asa.evaluators.code.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the runtimes are on the host. Each must be visible inside the sandbox: under {@code /usr}
 * (bound read-only whole), or bound read-only by the runner (a JDK elsewhere).
 */
final class Toolchains {
  private Toolchains() {}

  /** A system python3: not a per-user one (pyenv under /root is not in the sandbox). */
  static Optional<Path> python() {
    return firstExecutable("/usr/bin/python3", "/usr/local/bin/python3");
  }

  static Optional<Path> node() {
    return firstExecutable("/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs");
  }

  /**
   * A JDK home with {@code javac}: this JVM's own when it is a JDK, else the newest under {@code
   * /usr/lib/jvm}.
   */
  static Optional<Path> jdk() {
    Path own = Path.of(System.getProperty("java.home"));
    if (Files.isExecutable(own.resolve("bin/javac"))) {
      return Optional.of(real(own));
    }
    try (Stream<Path> homes = Files.list(Path.of("/usr/lib/jvm"))) {
      return homes
          .filter(h -> Files.isExecutable(h.resolve("bin/javac")) && !Files.isSymbolicLink(h))
          .max(Comparator.comparing(Path::toString))
          .map(Toolchains::real);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<Path> firstExecutable(String... candidates) {
    return Stream.of(candidates).map(Path::of).filter(Files::isExecutable).findFirst();
  }

  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p;
    }
  }
}
