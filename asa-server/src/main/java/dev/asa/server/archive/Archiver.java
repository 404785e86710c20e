package dev.asa.server.archive;

import dev.asa.archive.ArchiveManifest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.server.store.archive.ArchiveRow;
import dev.asa.server.store.archive.ArchiveSink;
import dev.asa.server.store.archive.ArchiveStore;
import dev.asa.server.store.archive.ArchivedRows;
import dev.asa.server.work.ConflictException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves ended agreements older than a cutoff out of the hot tables into an archive file in the
 * server's archive directory, batch by batch, and closes the file with a manifest the server signs.
 *
 * <p>One batch is one transaction ({@link ArchiveStore#moveOut}): the batch is appended to the file
 * and flushed to disk, then its rows are deleted and the file's new committed length recorded,
 * together. A kill between the two leaves bytes past the committed length, which the next append or
 * {@link #recover} cuts off. Batches keep each transaction short, so the server goes on serving
 * while thousands of agreements move (SQLite has one writer).
 *
 * <p>One run at a time in a process. Nodes sharing a PostgreSQL database may each run one: each
 * writes its own files, and an agreement two runs both list is taken by the first transaction that
 * locks it (the other finds it gone and skips it).
 */
public final class Archiver {
  private static final Logger log = LoggerFactory.getLogger(Archiver.class);

  /**
   * Agreements per transaction: on SQLite, the one writer is held about 100 ms per batch, so
   * requests wait at most that long behind the archive.
   */
  public static final int DEFAULT_BATCH = 100;

  private static final Pattern NAME =
      Pattern.compile("asa-archive-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}\\.jsonl");
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final ArchiveStore store;
  private final Ed25519PrivateKey key;
  private final Path directory;
  private final Clock clock;
  private final int batchSize;
  // A semaphore, not a lock: a run begun by a request thread ends on a thread of its own.
  private final Semaphore running = new Semaphore(1);
  private final SecureRandom random = new SecureRandom();
  private volatile boolean stopping;
  // Why a run of this process stopped short, by archive: what its view shows until a restart.
  private final Map<String, String> failures = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * @param directory where archive files are written (created if missing)
   * @param batchSize agreements per transaction
   */
  public Archiver(
      ArchiveStore store, Ed25519PrivateKey key, Path directory, Clock clock, int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1");
    }
    this.store = store;
    this.key = key;
    this.directory = directory;
    this.clock = clock;
    this.batchSize = batchSize;
  }

  /** Whether the text is an archive's name as this server gives them (safe as a file name). */
  public static boolean isName(String text) {
    return text != null && NAME.matcher(text).matches();
  }

  /**
   * Begins an archive of the agreements that ended before {@code closedBefore} and runs it on a
   * thread of its own; {@code GET /admin/archives/{name}} shows its progress.
   *
   * @return the archive as begun
   * @throws ConflictException while another run of this server is in progress
   */
  public ArchiveRow start(Instant closedBefore) {
    if (!running.tryAcquire()) {
      throw new ConflictException("an archive run is in progress; wait for it to finish");
    }
    ArchiveRow begun;
    try {
      recoverHoldingLock();
      begun = begin(closedBefore);
    } catch (RuntimeException e) {
      running.release();
      throw e;
    }
    Thread.ofPlatform()
        .name("archive-" + begun.name())
        .daemon()
        .start(() -> {
          try {
            fill(begun);
            close(begun.name());
          } catch (RuntimeException e) {
            // Left 'writing': the next run or start-up closes it over what committed.
            failures.put(begun.name(), e.getMessage() == null ? e.toString() : e.getMessage());
            log.error("archive {} stopped: {}", begun.name(), e.getMessage(), e);
          } finally {
            running.release();
          }
        });
    return begun;
  }

  /**
   * Runs an archive to its end on the calling thread (the retention schedule's way).
   *
   * @return the closed archive, or empty when no agreement had ended before the cutoff (no file is
   *     left behind then) or another run was in progress
   */
  public Optional<ArchiveRow> runIfAny(Instant closedBefore) {
    if (!running.tryAcquire()) {
      return Optional.empty();
    }
    try {
      if (stopping) {
        return Optional.empty(); // the server is stopping: no new archive
      }
      recoverHoldingLock();
      if (store.candidates(closedBefore, 0, 1).isEmpty()) {
        return Optional.empty();
      }
      ArchiveRow begun = begin(closedBefore);
      fill(begun);
      return Optional.of(close(begun.name()));
    } finally {
      running.release();
    }
  }

  /**
   * Closes what a run left unfinished (a kill, a crash): each archive still being written is cut to
   * its committed length and signed; a file no archive row names (its run died before recording it)
   * is removed. Called at start-up and before each run.
   */
  public void recover() {
    running.acquireUninterruptibly();
    try {
      recoverHoldingLock();
    } finally {
      running.release();
    }
  }

  /** The file of a complete archive, for download; empty for an unknown or unfinished one. */
  public Optional<Path> completeFile(String name) {
    if (!isName(name)) {
      return Optional.empty();
    }
    return store
        .find(name)
        .filter(a -> a.status() == ArchiveRow.Status.COMPLETE)
        .map(a -> directory.resolve(name))
        .filter(Files::isRegularFile);
  }

  public Path directory() {
    return directory;
  }

  /** Why this process's run of the archive stopped short, if it did. */
  public Optional<String> failure(String name) {
    return Optional.ofNullable(failures.get(name));
  }

  /**
   * Stops a run in progress after its current batch and closes its archive over what moved (the
   * server stops): waits for that, at most {@code patience}.
   */
  public void stop(java.time.Duration patience) {
    stopping = true;
    try {
      if (running.tryAcquire(patience.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
        running.release();
      } else {
        log.warn("an archive run did not stop within {}; start-up will close it", patience);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void recoverHoldingLock() {
    for (ArchiveRow unfinished : store.writing()) {
      if (!Files.isRegularFile(directory.resolve(unfinished.name()))) {
        // Another node's run (its own directory), or a file removed by hand: not ours to close.
        log.warn(
            "archive {} is unfinished and its file is not in {}; another node's?",
            unfinished.name(),
            directory);
        continue;
      }
      log.info(
          "closing archive {} left unfinished: {} agreements committed",
          unfinished.name(),
          unfinished.agreements());
      close(unfinished.name());
    }
    if (!Files.isDirectory(directory)) {
      return;
    }
    try (var files = Files.list(directory)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (isName(name) && store.find(name).isEmpty()) {
          log.info("removing {}: its run ended before any agreement moved into it", name);
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + directory, e);
    }
  }

  private ArchiveRow begin(Instant requested) {
    // The store keeps milliseconds: the header must name the cutoff the manifest will.
    Instant closedBefore = requested.truncatedTo(ChronoUnit.MILLIS);
    Instant now = now();
    String name =
        "asa-archive-" + STAMP.format(now) + "-" + HexFormat.of().formatHex(bytes(4)) + ".jsonl";
    byte[] header = line(ArchiveManifest.header(name, key.publicKey(), closedBefore, now));
    Path file = directory.resolve(name);
    try {
      Files.createDirectories(directory);
      try (FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        writeFully(channel, header, 0);
        channel.force(true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("creating archive " + file, e);
    }
    store.begin(name, closedBefore, now, header.length);
    log.info("archive {} begun: agreements that ended before {}", name, closedBefore);
    return store.find(name).orElseThrow();
  }

  /** Moves batches into the archive until no agreement that ended before the cutoff is left. */
  private void fill(ArchiveRow archive) {
    Path file = directory.resolve(archive.name());
    long cursor = 0;
    long moved = 0;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ArchiveSink sink = (committed, batch) -> append(channel, committed, batch);
      while (true) {
        List<ArchiveStore.Candidate> batch =
            stopping ? List.of() : store.candidates(archive.closedBefore(), cursor, batchSize);
        if (batch.isEmpty()) {
          break;
        }
        cursor = batch.getLast().rowSeq();
        long began = System.nanoTime();
        moved +=
            store.moveOut(
                archive.name(),
                batch.stream().map(ArchiveStore.Candidate::id).toList(),
                archive.closedBefore(),
                now(),
                sink);
        log.debug("archive {}: {} agreements moved", archive.name(), moved);
        if (store.hasOneWriter()) {
          // As long again idle: the archive takes at most half of SQLite's one writer, and
          // requests are served between batches. PostgreSQL's writers do not wait for it.
          pause(System.nanoTime() - began);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing archive " + file, e);
    }
  }

  private void pause(long nanos) {
    if (stopping) {
      return;
    }
    try {
      Thread.sleep(java.time.Duration.ofNanos(nanos));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopping = true;
    }
  }

  private static ArchiveSink.Written append(
      FileChannel channel, long committed, List<ArchivedRows> batch) {
    Map<String, Set<String>> readers = new HashMap<>();
    try {
      if (channel.size() > committed) {
        channel.truncate(committed); // a batch whose transaction did not commit
      }
      long position = committed;
      for (ArchivedRows rows : batch) {
        byte[] line = line(ArchiveRecords.toJson(rows));
        position += writeFully(channel, line, position);
        readers.put(rows.agreement().id(), ArchiveRecords.readers(rows.agreement()));
      }
      channel.force(false); // durable before the rows leave the tables
      return new ArchiveSink.Written(position, readers);
    } catch (IOException e) {
      throw new UncheckedIOException("appending to an archive", e);
    }
  }

  /** Cuts the file to its committed part, appends the signed manifest, and records the end. */
  private ArchiveRow close(String name) {
    ArchiveRow row = store.find(name).orElseThrow();
    Path file = directory.resolve(name);
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      channel.truncate(row.bytes());
      MessageDigest records = sha256();
      digest(channel, row.bytes(), records);
      Instant now = now();
      ArchiveManifest manifest =
          new ArchiveManifest(
              name,
              key.publicKey(),
              row.closedBefore(),
              row.startedAt(),
              now,
              row.agreements(),
              row.bytes(),
              "sha256:" + HexFormat.of().formatHex(records.digest()));
      byte[] last = line(manifest.signedLine(key));
      writeFully(channel, last, row.bytes());
      channel.force(true);
      long size = row.bytes() + last.length;
      MessageDigest whole = sha256();
      digest(channel, size, whole);
      store.complete(name, size, "sha256:" + HexFormat.of().formatHex(whole.digest()), now);
      log.info("archive {} complete: {} agreements, {} bytes", name, row.agreements(), size);
      return store.find(name).orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException("closing archive " + file, e);
    }
  }

  private static void digest(FileChannel channel, long length, MessageDigest into)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    long position = 0;
    while (position < length) {
      buffer.clear();
      buffer.limit((int) Math.min(buffer.capacity(), length - position));
      int n = channel.read(buffer, position);
      if (n < 0) {
        throw new IOException("the archive is shorter than its committed length");
      }
      buffer.flip();
      into.update(buffer);
      position += n;
    }
  }

  private static int writeFully(FileChannel channel, byte[] bytes, long position)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer, position + buffer.position());
    }
    return bytes.length;
  }

  private static byte[] line(com.fasterxml.jackson.databind.JsonNode json) {
    byte[] bytes = Json.writeBytes(json);
    byte[] line = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, line, 0, bytes.length);
    line[bytes.length] = '\n';
    return line;
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }
}
