package dev.asa.server.store.pool;

import java.time.Instant;
import java.util.Objects;

/**
 * The operator's canary set as stored: the canaries themselves (a JSON array, secret), how many,
 * their digest, and who loaded them when.
 *
 * @param canaries the JSON array of the canaries, as {@code Canary.toJson} writes each
 * @param digest {@code sha256:...} of {@code canaries}, to tell sets apart without showing them
 * @param loadedBy who loaded it: {@code "--canaries FILE"} at start-up, or the operator's key
 * @param version how many times a set was loaded on this database (1 for the first)
 */
public record CanarySetRow(
    String canaries, int count, String digest, Instant loadedAt, String loadedBy, long version) {
  public CanarySetRow {
    Objects.requireNonNull(canaries, "canaries");
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(loadedAt, "loadedAt");
    Objects.requireNonNull(loadedBy, "loadedBy");
  }
}
