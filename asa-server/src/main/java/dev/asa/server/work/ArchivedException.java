package dev.asa.server.work;

import java.time.Instant;

/**
 * The agreement left the hot store for an archive after retention: answered 410 with where it went,
 * to its parties and the operator (anyone else gets the 404 of an unknown id).
 */
public final class ArchivedException extends RuntimeException {
  private final String archive;
  private final Instant archivedAt;

  ArchivedException(String id, String archive, Instant archivedAt) {
    super(
        "agreement "
            + id
            + " was archived at "
            + archivedAt
            + " into "
            + archive
            + "; the operator holds that file");
    this.archive = archive;
    this.archivedAt = archivedAt;
  }

  /** The archive file's name. */
  public String archive() {
    return archive;
  }

  public Instant archivedAt() {
    return archivedAt;
  }
}
