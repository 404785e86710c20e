package dev.asa.server.store.archive;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * What stays of an archived agreement in the hot store: where it went, when, and whose keys may be
 * told (the parties'; to anyone else the id stays unknown, as a live agreement's does).
 */
public record Tombstone(String id, String archive, Set<String> readers, Instant archivedAt) {
  public Tombstone {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(archive, "archive");
    readers = Set.copyOf(readers);
    Objects.requireNonNull(archivedAt, "archivedAt");
  }
}
