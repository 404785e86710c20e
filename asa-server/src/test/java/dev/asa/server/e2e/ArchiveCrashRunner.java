package dev.asa.server.e2e;

import dev.asa.server.ServerKey;
import dev.asa.server.archive.Archiver;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;

/**
 * The archiving process a test kills with SIGKILL: archives, in batches of 50, what ended before
 * the cutoff, on the database and archive directory it is given, with the server's key. Prints
 * {@code STARTED} once it runs; the test kills it at a seeded moment.
 */
public final class ArchiveCrashRunner {
  private ArchiveCrashRunner() {}

  /** Arguments: database URL, data directory, cutoff (RFC 3339). */
  public static void main(String[] args) {
    Path dataDir = Path.of(args[1]);
    try (Store store = Stores.open(args[0], dataDir)) {
      Archiver archiver =
          new Archiver(
              store.archives(),
              ServerKey.loadOrCreate(dataDir),
              dataDir.resolve("archives"),
              Clock.systemUTC(),
              50);
      System.out.println("STARTED");
      System.out.flush();
      archiver.runIfAny(Instant.parse(args[2]));
      System.out.println("DONE");
    }
  }
}
