package dev.asa.server.store.archive;

import java.time.Instant;
import java.util.Objects;

/**
 * One archive run as the store records it: what decides which agreements its file holds.
 *
 * @param name the file's name in the server's archive directory
 * @param closedBefore the cutoff: agreements that ended before it were taken
 * @param completedAt null while writing
 * @param agreements how many agreements the committed part of the file holds
 * @param bytes the committed length of the file: bytes past it are a batch that did not commit
 * @param fileSha256 the finished file's digest ({@code sha256:<hex>}), null while writing
 */
public record ArchiveRow(
    String name,
    Status status,
    Instant closedBefore,
    Instant startedAt,
    Instant completedAt,
    long agreements,
    long bytes,
    String fileSha256) {

  /** An archive is written batch by batch, then closed by its signed manifest. */
  public enum Status {
    WRITING,
    COMPLETE
  }

  public ArchiveRow {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(closedBefore, "closedBefore");
    Objects.requireNonNull(startedAt, "startedAt");
    if ((status == Status.COMPLETE) != (completedAt != null && fileSha256 != null)) {
      throw new IllegalArgumentException(
          "an archive has a completion time and a digest exactly when it is complete");
    }
  }
}
