package dev.asa.evaluators.code.sandbox;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a command on untrusted files with bubblewrap ({@code bwrap}): a fresh temporary work
 * directory, no network, a read-only view of {@code /usr} and a few files of {@code /etc}, nothing
 * else of the host (no {@code /home}, {@code /root}, {@code /tmp}, {@code /work}, {@code /var} or
 * data directory), a read-only {@code /dev} whose only writable part is a 16 MiB {@code /dev/shm},
 * rlimits from {@link Limits} set by {@code prlimit} inside, and a wall clock kept by this JVM that
 * kills the whole sandbox (its PID namespace dies with bubblewrap). Every writable mount is a
 * size-capped tmpfs, and what its files hold counts against the total memory.
 *
 * <p>When this JVM runs as root the sandbox runs as {@code nobody} (via {@code setpriv}): the
 * kernel does not apply RLIMIT_NPROC to root, so a fork bomb would only be stopped by the wall
 * clock.
 *
 * <p>Instances hold no state; {@link #run} may be called from many threads at once.
 */
public final class Sandbox {

  /** Where the work directory appears inside the sandbox, and the command's working directory. */
  public static final String WORK_DIR = "/sandbox";

  /** Where the input files are shown read-only, to be copied into the work directory. */
  private static final String INPUT_DIR = "/.sandbox-input";

  private static final int NOBODY = 65534;
  private static final Duration KILL_GRACE = Duration.ofSeconds(10);
  private static final long TMPFS_BYTES = 64L * 1024 * 1024;

  /**
   * POSIX shared memory (Python's multiprocessing locks, say) needs a writable {@code /dev/shm}; a
   * few megabytes serve that. bubblewrap's own {@code /dev} is a tmpfs of half the host's RAM,
   * writable: it is made read-only and this small one mounted on {@code /dev/shm}.
   */
  private static final long SHM_BYTES = 16L * 1024 * 1024;

  // The few files of /etc a runtime reads; the rest of /etc (and any secret in it) stays out.
  private static final List<String> ETC =
      List.of(
          "/etc/alternatives",
          "/etc/ld.so.cache",
          "/etc/ld.so.conf",
          "/etc/ld.so.conf.d",
          "/etc/localtime",
          "/etc/passwd",
          "/etc/group",
          "/etc/nsswitch.conf",
          "/etc/ssl",
          "/etc/ca-certificates",
          "/etc/mime.types");
  private static final List<String> TOP_LEVEL =
      List.of("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32");

  private final Path bwrap;
  private final Optional<Path> setpriv;
  private final String prlimit;
  private final List<Path> hidden;

  private Sandbox(Path bwrap, Optional<Path> setpriv, String prlimit, List<Path> hidden) {
    this.bwrap = bwrap;
    this.setpriv = setpriv;
    this.prlimit = prlimit;
    this.hidden = List.copyOf(hidden);
  }

  /**
   * This sandbox with {@code paths} covered by an empty read-only directory in every run. The
   * server's data directory is not in the sandbox's view unless it lies under {@code /usr} (an
   * image's {@code /usr/src/app/asa-data}, say) or a runtime's read-only bind: this hides it there.
   * Paths that do not exist are ignored.
   */
  public Sandbox hiding(List<Path> paths) {
    List<Path> all = new ArrayList<>(hidden);
    for (Path p : paths) {
      try {
        all.add(p.toRealPath());
      } catch (IOException e) {
        // Nothing there, nothing to hide.
      }
    }
    return new Sandbox(bwrap, setpriv, prlimit, all);
  }

  /**
   * Whether sandboxes can be made here, and why not when they cannot. Probes once (runs {@code
   * true} in a sandbox) and remembers the answer.
   */
  public static Availability available() {
    return Probe.RESULT;
  }

  /** A sandbox, or {@link SandboxUnavailableException} saying why there is none. */
  public static Sandbox create() {
    Availability a = available();
    if (!a.available()) {
      throw new SandboxUnavailableException(a.reason());
    }
    return locate().orElseThrow();
  }

  /**
   * Runs {@code command} in a fresh work directory holding {@code files}, then deletes the
   * directory. Throws {@link RejectedFilesException} before anything runs when the files are
   * refused; whatever the command does, returns how it ended.
   */
  public SandboxResult run(Map<String, String> files, Command command, Limits limits) {
    WorkFiles checked = WorkFiles.of(files, limits);
    Path dir = null;
    try {
      dir =
          Files.createTempDirectory(
              "asa-sandbox-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      dir = dir.toRealPath();
      Path input = Files.createDirectory(dir.resolve("in"));
      checked.writeTo(input);
      Path output = Files.createDirectory(dir.resolve("out"));
      for (int i = 0; i < command.collect().size(); i++) {
        Path collected = Files.createFile(output.resolve(Integer.toString(i)));
        String seed = command.seeds().get(command.collect().get(i));
        if (seed != null) {
          Files.writeString(collected, seed, java.nio.charset.StandardCharsets.UTF_8);
        }
      }
      if (setpriv.isPresent()) {
        chownTree(dir, NOBODY);
      }
      return execute(dir, command, limits);
    } catch (IOException e) {
      throw new SandboxException("the sandbox's work directory failed: " + e.getMessage(), e);
    } finally {
      if (dir != null) {
        deleteTree(dir);
      }
    }
  }

  private SandboxResult execute(Path dir, Command command, Limits limits) throws IOException {
    List<String> argv = argv(dir, command, limits);
    ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(new File("/dev/null"));
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/bin:/bin");
    long start = System.nanoTime();
    Process process = pb.start();
    OutputCapture out =
        new OutputCapture(process.getInputStream(), limits.outputBytes(), () -> kill(process));
    OutputCapture err =
        new OutputCapture(process.getErrorStream(), limits.outputBytes(), () -> kill(process));
    Thread outThread = Thread.ofPlatform().daemon().name("sandbox-stdout").start(out);
    Thread errThread = Thread.ofPlatform().daemon().name("sandbox-stderr").start(err);
    // Every writable mount is a tmpfs, and what it holds is memory no process's RSS shows.
    MemoryWatch memory =
        new MemoryWatch(
            process,
            limits.totalMemoryBytes(),
            Map.of(WORK_DIR, limits.workDirBytes(), "/tmp", TMPFS_BYTES, "/dev/shm", SHM_BYTES),
            INPUT_DIR,
            () -> kill(process));
    Thread memoryThread = Thread.ofPlatform().daemon().name("sandbox-memory").start(memory);
    boolean timedOut = false;
    try {
      if (!process.waitFor(limits.wallClock().toNanos(), TimeUnit.NANOSECONDS)) {
        timedOut = true;
        kill(process);
      }
      if (!process.waitFor(KILL_GRACE.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new SandboxException("bubblewrap outlived SIGKILL", null);
      }
      outThread.join(KILL_GRACE);
      errThread.join(KILL_GRACE);
      memoryThread.interrupt();
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      throw new SandboxException("interrupted while the sandbox ran", e);
    }
    Duration wall = Duration.ofNanos(System.nanoTime() - start);
    boolean overrun = out.overrun() || err.overrun();
    int exit = timedOut || overrun || memory.overrun() ? -1 : process.exitValue();
    return new SandboxResult(
        exit,
        out.text(),
        err.text(),
        wall,
        timedOut,
        overrun,
        memory.overrun(),
        collect(dir.resolve("out"), command.collect(), limits.outputBytes()));
  }

  private List<String> argv(Path dir, Command command, Limits limits) {
    List<String> a = new ArrayList<>();
    setpriv.ifPresent(p ->
        a.addAll(
            List.of(
                p.toString(),
                "--reuid=" + NOBODY,
                "--regid=" + NOBODY,
                "--clear-groups",
                "--inh-caps=-all",
                "--")));
    a.addAll(
        List.of(
            bwrap.toString(),
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "asa-sandbox",
            "--clearenv",
            "--ro-bind",
            "/usr",
            "/usr"));
    for (String top : TOP_LEVEL) {
      Path p = Path.of(top);
      if (Files.isSymbolicLink(p)) {
        try {
          a.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), top));
        } catch (IOException e) {
          // An unreadable link is left out; the runtime will say what it missed.
        }
      } else if (Files.isDirectory(p)) {
        a.addAll(List.of("--ro-bind", top, top));
      }
    }
    for (String etc : ETC) {
      a.addAll(List.of("--ro-bind-try", etc, etc));
    }
    a.addAll(
        List.of(
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--remount-ro",
            "/dev",
            "--size",
            Long.toString(SHM_BYTES),
            "--tmpfs",
            "/dev/shm",
            "--size",
            Long.toString(TMPFS_BYTES),
            "--tmpfs",
            "/tmp",
            // The input, read-only, copied into a size-capped tmpfs: the code can fill neither
            // the host's disk nor its memory beyond the cap, whatever number of files it makes.
            "--ro-bind",
            dir.resolve("in").toString(),
            INPUT_DIR,
            "--size",
            Long.toString(limits.workDirBytes()),
            "--tmpfs",
            WORK_DIR));
    // Each collected file is a host file bound alone: writable up to RLIMIT_FSIZE, and neither
    // replaceable nor removable (it is a mount point), so what is read back is what was written.
    for (int i = 0; i < command.collect().size(); i++) {
      a.addAll(
          List.of(
              "--bind",
              dir.resolve("out").resolve(Integer.toString(i)).toString(),
              WORK_DIR + "/" + command.collect().get(i)));
    }
    a.addAll(List.of("--chdir", WORK_DIR));
    for (Path p : command.readOnly()) {
      a.addAll(List.of("--ro-bind", p.toString(), p.toString()));
    }
    for (Path p : hidden) {
      if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        a.addAll(List.of("--size", "4096", "--tmpfs", p.toString(), "--remount-ro", p.toString()));
      } else if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
        a.addAll(List.of("--ro-bind", "/dev/null", p.toString()));
      }
    }
    // bubblewrap builds the root from a writable tmpfs (the mount points for /etc's files, say):
    // read-only too, once every mount is in place, so only /sandbox, /tmp and /dev/shm take writes.
    a.addAll(List.of("--remount-ro", "/"));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("HOME", WORK_DIR);
    env.put("TMPDIR", "/tmp");
    env.put("LANG", "C.UTF-8");
    env.putAll(command.env());
    env.forEach((k, v) -> a.addAll(List.of("--setenv", k, v)));
    a.addAll(
        List.of(
            "--",
            "/bin/sh",
            "-c",
            "cp -R " + INPUT_DIR + "/. . && exec \"$0\" \"$@\"",
            prlimit,
            "--as=" + limits.memoryBytes(),
            "--cpu=" + limits.cpuSeconds(),
            "--nproc=" + limits.processes(),
            "--fsize=" + limits.fileSizeBytes(),
            "--nofile=" + limits.openFiles(),
            "--core=0",
            "--"));
    a.addAll(command.argv());
    return a;
  }

  /**
   * Kills bubblewrap and everything under it: the processes seen now, then bubblewrap, whose death
   * takes the sandbox's PID namespace (and anything forked since) with it.
   */
  private static void kill(Process process) {
    List<ProcessHandle> below;
    try (Stream<ProcessHandle> s = process.descendants()) {
      below = s.toList();
    }
    process.destroyForcibly();
    below.forEach(ProcessHandle::destroyForcibly);
  }

  /** Reads back the collected files, each from the host file that was bound in its place. */
  private static Map<String, String> collect(Path outDir, List<String> paths, int cap) {
    Map<String, String> found = new LinkedHashMap<>();
    for (int i = 0; i < paths.size(); i++) {
      Path p = outDir.resolve(Integer.toString(i));
      try (var in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
        byte[] bytes = in.readNBytes(cap);
        if (bytes.length > 0) {
          found.put(paths.get(i), new String(bytes, StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        // Unreadable: the caller reports the absence.
      }
    }
    return found;
  }

  private static void chownTree(Path dir, int uid) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(p, "unix:gid", uid, LinkOption.NOFOLLOW_LINKS);
      }
    }
  }

  /** Deletes without following links; makes directories writable first (the code may chmod). */
  private static void deleteTree(Path dir) {
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
              d.toFile().setWritable(true, true);
              d.toFile().setReadable(true, true);
              d.toFile().setExecutable(true, true);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
              Files.deleteIfExists(f);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.deleteIfExists(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // A leftover temporary directory is untidy, not unsafe: nothing reads it again.
    }
  }

  private static Optional<Sandbox> locate() {
    Optional<Path> bwrap = onPath("bwrap");
    Optional<String> prlimit =
        Stream.of("/usr/bin/prlimit", "/bin/prlimit")
            .filter(p -> Files.isExecutable(Path.of(p)))
            .findFirst();
    if (bwrap.isEmpty() || prlimit.isEmpty()) {
      return Optional.empty();
    }
    Optional<Path> setpriv = Optional.empty();
    if (runningAsRoot()) {
      setpriv = onPath("setpriv");
      if (setpriv.isEmpty()) {
        return Optional.empty();
      }
    }
    return Optional.of(new Sandbox(bwrap.get(), setpriv, prlimit.get(), List.of()));
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/bin:/usr/sbin:/sbin";
    return Stream.of(path.split(":"))
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, name))
        .filter(Files::isExecutable)
        .findFirst();
  }

  static boolean runningAsRoot() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return line.split("\\s+")[1].equals("0");
        }
      }
    } catch (IOException e) {
      // No /proc: not Linux, and bubblewrap will not be found either.
    }
    return false;
  }

  /**
   * Whether sandboxes can be made.
   *
   * @param available true when a probe sandbox ran
   * @param reason why not (bubblewrap missing, user namespaces refused, ...); "ok" when available
   */
  public record Availability(boolean available, String reason) {}

  // Holder idiom: the probe runs on first use, once, thread-safely.
  private static final class Probe {
    static final Availability RESULT = probe();

    private static Availability probe() {
      if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
        return new Availability(false, "the sandbox needs Linux (bubblewrap)");
      }
      if (onPath("bwrap").isEmpty()) {
        return new Availability(
            false, "bubblewrap (bwrap) is not installed: apt-get install bubblewrap");
      }
      Optional<Sandbox> sandbox = locate();
      if (sandbox.isEmpty()) {
        return new Availability(
            false, "prlimit (util-linux) is missing, or setpriv is, which a root server needs");
      }
      try {
        SandboxResult r =
            sandbox
                .get()
                .run(
                    Map.of(),
                    Command.of("/usr/bin/true"),
                    Limits.defaults().withWallClock(Duration.ofSeconds(20)));
        if (r.exitCode() != 0) {
          return new Availability(
              false,
              "bubblewrap cannot make a sandbox here (user namespaces refused?): "
                  + r.stderr().strip());
        }
        return new Availability(true, "ok");
      } catch (RuntimeException e) {
        return new Availability(false, "bubblewrap failed to start: " + e.getMessage());
      }
    }
  }
}
