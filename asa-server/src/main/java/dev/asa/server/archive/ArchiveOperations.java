package dev.asa.server.archive;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.server.store.archive.ArchiveRow;
import dev.asa.server.store.archive.ArchiveStore;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.Outcome;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;

/**
 * The operator's archive routes: start a run ({@code POST /admin/archive}), follow it ({@code GET
 * /admin/archives/{name}}), list them, and download a complete one's file.
 */
public final class ArchiveOperations {
  private final Archiver archiver;
  private final ArchiveStore store;

  private final Clock clock;

  public ArchiveOperations(Archiver archiver, ArchiveStore store, Clock clock) {
    this.archiver = archiver;
    this.store = store;
    this.clock = clock;
  }

  /** Now, by the server's clock: a cutoff may not lie after it. */
  public Instant now() {
    return clock.instant();
  }

  /** Begins a run: 202 with the archive as begun; 409 while another runs. */
  public Outcome start(Instant closedBefore) {
    return new Outcome(202, view(archiver.start(closedBefore)));
  }

  public ObjectNode list(int limit) {
    ObjectNode o = Json.object();
    var items = o.putArray("archives");
    store.list(limit).forEach(a -> items.add(view(a)));
    return o;
  }

  public ObjectNode one(String name) {
    ObjectNode view = view(find(name));
    archiver.failure(name).ifPresent(why -> view.put("error", why));
    return view;
  }

  /** The file of a complete archive; 404 for an unknown name, 409 while it is being written. */
  public Path file(String name) {
    ArchiveRow row = find(name);
    return archiver
        .completeFile(name)
        .orElseThrow(() ->
            row.status() == ArchiveRow.Status.WRITING
                ? new dev.asa.server.work.ConflictException(
                    "archive "
                        + name
                        + " is still being written; wait until its status is complete")
                : new NotFoundException(
                    "archive "
                        + name
                        + " is recorded but its file is not in this node's "
                        + archiver.directory()));
  }

  private ArchiveRow find(String name) {
    if (!Archiver.isName(name)) {
      throw new NotFoundException("no archive named '" + name + "'");
    }
    return store
        .find(name)
        .orElseThrow(() -> new NotFoundException("no archive named '" + name + "'"));
  }

  static ObjectNode view(ArchiveRow a) {
    ObjectNode o = Json.object();
    o.put("name", a.name());
    o.put("status", a.status().name().toLowerCase(java.util.Locale.ROOT));
    o.put("closed_before", a.closedBefore().toString());
    o.put("started_at", a.startedAt().toString());
    o.put("completed_at", a.completedAt() == null ? null : a.completedAt().toString());
    o.put("agreements", a.agreements());
    o.put("bytes", a.bytes());
    o.put("file_sha256", a.fileSha256());
    o.put("file", "/admin/archives/" + a.name() + "/file");
    return o;
  }
}
