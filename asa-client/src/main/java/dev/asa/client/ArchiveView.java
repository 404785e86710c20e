package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An archive run ({@code POST /admin/archive}, {@code GET /admin/archives/{name}}, the operator's
 * calls): agreements that ended before a cutoff moving out of the hot store into a file whose
 * manifest the server signs.
 *
 * @param name the file's name in the node's archive directory
 * @param status {@code writing} while agreements move, {@code complete} once the signed manifest
 *     closes the file
 * @param closedBefore the cutoff
 * @param startedAt when the run began
 * @param completedAt when the manifest was signed, once complete
 * @param agreements how many agreements moved so far
 * @param bytes the file's committed length
 * @param fileSha256 the complete file's digest, {@code sha256:<hex>}, once complete
 * @param file where to download the complete file, a path on the server
 * @param error why this node's run stopped short, when it did (the archive stays writing)
 * @param json the whole answer, a copy
 */
public record ArchiveView(
    String name,
    String status,
    Instant closedBefore,
    Instant startedAt,
    Optional<Instant> completedAt,
    long agreements,
    long bytes,
    Optional<String> fileSha256,
    String file,
    Optional<String> error,
    ObjectNode json) {

  private static final String WHAT = "an archive";

  /** Checks that nothing is null and keeps a private copy of the JSON. */
  public ArchiveView {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(closedBefore, "closedBefore");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(completedAt, "completedAt");
    Objects.requireNonNull(fileSha256, "fileSha256");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(error, "error");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * Whether the file is complete: signed, and ready to download.
   *
   * @return true once {@link #status()} is {@code complete}
   */
  public boolean complete() {
    return status.equals("complete");
  }

  /**
   * Reads an archive.
   *
   * @param answer the body of {@code POST /admin/archive} or {@code GET /admin/archives/{name}}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static ArchiveView from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new ArchiveView(
        Members.text(o, "name", WHAT),
        Members.text(o, "status", WHAT),
        Members.instant(o, "closed_before", WHAT),
        Members.instant(o, "started_at", WHAT),
        Members.optionalInstant(o, "completed_at"),
        Members.integer(o, "agreements", WHAT),
        Members.integer(o, "bytes", WHAT),
        Members.optionalText(o, "file_sha256"),
        Members.text(o, "file", WHAT),
        Members.optionalText(o, "error"),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
