package dev.asa.server.work;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.document.Agreement;
import dev.asa.lifecycle.State;
import dev.asa.server.reputation.ReputationFeed;
import dev.asa.server.store.Commit;
import dev.asa.server.store.Write;
import dev.asa.server.store.Writes;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.AgreementStore;
import dev.asa.server.store.agreements.AgreementStore.ForChange;
import dev.asa.server.store.agreements.ChainHead;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.agreements.EventStore;
import dev.asa.server.store.archive.ArchiveStore;
import dev.asa.server.store.archive.Tombstone;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.db.StaleVersionException;
import dev.asa.server.store.escrow.LedgerRefusedException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One agreement change from start to commit: load the agreement once (with its version), let a
 * {@link Decision} decide, then commit the new row, its chained events, the side writes (timers,
 * outbox, ledger) and the idempotency record in one transaction. Nobody has to remember the
 * idempotency write, and a lost race is a 409 that changed nothing.
 */
public final class UnitOfWork {

  /** Decides a change from the loaded agreement; null means "nothing to do". */
  public interface Decision {
    Change decide(Current current);
  }

  private final AgreementStore agreements;
  private final EventStore events;
  private final Writes writes;
  private final Clock clock;
  private final String serverKeyId;
  private final ReputationFeed reputation;
  private final ArchiveStore archives;
  private final AgreementCache cache = new AgreementCache(10_000);

  public UnitOfWork(
      AgreementStore agreements,
      EventStore events,
      Writes writes,
      Clock clock,
      String serverKeyId,
      ReputationFeed reputation,
      ArchiveStore archives) {
    this.agreements = agreements;
    this.events = events;
    this.writes = writes;
    this.clock = clock;
    this.serverKeyId = serverKeyId;
    this.reputation = reputation;
    this.archives = archives;
  }

  /** The agreements it loads, for use cases that look one up or list them. */
  public AgreementStore agreements() {
    return agreements;
  }

  /**
   * Creates an agreement with its first events and side writes, in one transaction.
   *
   * @throws DuplicateKeyException when an agreement has its id already
   */
  public void create(AgreementRow row, List<EventRecord> events, List<Write> sideWrites) {
    writes.createAgreement(row, events, sideWrites);
  }

  /** Now, at the millisecond precision both stores keep. */
  public Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  public Outcome mutate(
      String id, IdempotencyTicket ticket, Caller caller, Operation op, Decision decision) {
    // The access policy is applied once, by the mutate it hands over to.
    Loaded loaded = new Loaded(existing(id, agreements.findForChange(id), caller));
    return mutate(loaded, ticket, caller, op, decision);
  }

  /**
   * As {@link #mutate(String, IdempotencyTicket, Caller, Operation, Decision)}, deciding on an
   * agreement the use case has read already (for checks that must run before the unit of work): one
   * read, not two. The access policy is applied again here; the commit's version check refuses the
   * change if the agreement changed since it was read.
   */
  public Outcome mutate(
      Loaded loaded, IdempotencyTicket ticket, Caller caller, Operation op, Decision decision) {
    AgreementRow row = loaded.read.row();
    String id = row.id();
    Agreement agreement = cache.of(row);
    AccessPolicy.require(agreement, caller, op);
    // The log's head came with the row, unless the log is packed (an ended agreement changing
    // again, rare): then it is read from the trail.
    ChainHead head =
        loaded.read.head().or(() -> events.last(id).map(ChainHead::of)).orElse(ChainHead.START);
    Instant now = now();
    Change change = decision.decide(new Current(row, agreement, now, actorFor(agreement, caller)));
    if (change == null) { // nothing to do (e.g. a timer whose reason has passed)
      return new Outcome(200, Views.envelope(agreement, row.version()));
    }
    if (change.events().isEmpty() && change.next().equals(agreement)) {
      // Only side writes (e.g. a timer set again): the agreement itself, its version and log stay.
      Outcome unchanged =
          new Outcome(
              change.status(),
              change.response() != null
                  ? change.response()
                  : Views.envelope(agreement, row.version()));
      List<Write> sideWrites = new ArrayList<>(change.writes());
      sideWrites.addAll(IdempotencyTicket.writes(ticket, unchanged, now));
      writes.apply(sideWrites);
      return unchanged;
    }
    long version = row.version() + 1;
    AgreementRow updated = Views.rowAfter(change.next(), version, now, row, agreement);
    List<EventRecord> chained = EventLog.chain(id, head, change.events(), now);
    JsonNode body =
        change.response() != null ? change.response() : Views.envelope(change.next(), version);
    Outcome outcome = new Outcome(change.status(), body);
    List<Write> sideWrites = new ArrayList<>(change.writes());
    if (agreement.state() == State.DELIVERED && change.next().state() != State.DELIVERED) {
      // A task ends with the delivery it judges. Whoever decided (an evaluator, a panel, the
      // server's own evaluator, a backup) or however the agreement left DELIVERED, no task of it
      // may stay listed, keep the deliverable or take an answer that would be silently dropped.
      // After the change's own writes, which settle the tasks that counted.
      sideWrites.add(TaskEnds.movedOn(id, change.next().state(), now));
    }
    if (change.next().state().isFinal() && !agreement.state().isFinal()) {
      // Whatever was still timed (an expiry, a dead-man's switch) no longer applies: an ended
      // agreement keeps no timer rows.
      sideWrites.add(new Write.ClearTimers(id));
      // What the agreement says about its parties is recorded as it ends, once: a change that
      // ends it commits at most once (the version check), and so does its outcome.
      sideWrites.addAll(reputation.ended(change.next(), now));
    }
    sideWrites.addAll(IdempotencyTicket.writes(ticket, outcome, now));
    try {
      writes.commit(new Commit(row, updated, chained, sideWrites));
    } catch (StaleVersionException e) {
      throw new ConflictException(
          "agreement " + id + " changed while this request was processed; read it again and retry");
    } catch (DuplicateKeyException e) {
      throw new ConflictException(
          "a concurrent request changed agreement " + id + " first; read it again and retry");
    } catch (LedgerRefusedException e) {
      throw new ConflictException(e.getMessage());
    }
    cache.remember(id, version, change.next());
    return outcome;
  }

  /** The agreement of a stored row, parsed once per version. */
  public Agreement agreement(AgreementRow row) {
    return cache.of(row);
  }

  /** Remembers a newly created agreement, so its first read needs no parsing. */
  public void remember(String id, long version, Agreement agreement) {
    cache.remember(id, version, agreement);
  }

  public AgreementRow load(String id) {
    return agreements.find(id).orElseThrow(() -> notFound(id));
  }

  public static NotFoundException notFound(String id) {
    return new NotFoundException("no agreement with id '" + id + "'");
  }

  /**
   * Loads the agreement and applies the access policy: strangers see "not found", like for a
   * missing id. An archived agreement is gone (410) for its parties and the operator.
   */
  public AgreementRow loadFor(String id, Caller caller, Operation op) {
    AgreementRow row = existing(id, agreements.find(id), caller);
    AccessPolicy.require(cache.of(row), caller, op);
    return row;
  }

  /**
   * An agreement read for a change ({@link #mutate(Loaded, IdempotencyTicket, Caller, Operation,
   * Decision)}), with the head of its event log; only this class reads one.
   */
  public static final class Loaded {
    private final ForChange read;

    private Loaded(ForChange read) {
      this.read = read;
    }

    public AgreementRow row() {
      return read.row();
    }
  }

  /**
   * As {@link #loadFor}, for a change: with the head of the agreement's event log. For checks that
   * must refuse a caller before the unit of work (which applies the policy again).
   */
  public Loaded loadForChange(String id, Caller caller, Operation op) {
    Loaded loaded = new Loaded(existing(id, agreements.findForChange(id), caller));
    AccessPolicy.require(cache.of(loaded.row()), caller, op);
    return loaded;
  }

  /** As {@link #load}, for a change: no access policy yet (the use case applies it). */
  public Loaded loadForChange(String id) {
    return new Loaded(agreements.findForChange(id).orElseThrow(() -> notFound(id)));
  }

  /** What was found, or why not: gone (410) for a party or the operator, else not found. */
  private <T> T existing(String id, Optional<T> found, Caller caller) {
    if (found.isEmpty()) {
      throw archives
          .tombstone(id)
          .filter(t -> mayKnowOf(t, caller))
          .<RuntimeException>map(t -> new ArchivedException(id, t.archive(), t.archivedAt()))
          .orElseGet(() -> notFound(id));
    }
    return found.get();
  }

  private static boolean mayKnowOf(Tombstone t, Caller caller) {
    return caller instanceof Caller.Key k
        && (k.operator() || t.readers().contains(k.key().toBase64Url()));
  }

  /**
   * The event-log actor for a caller: the role its key holds here (one at most: keys are distinct).
   */
  public Actor actorFor(Agreement a, Caller caller) {
    return switch (caller) {
      case Caller.Server s -> Actor.server(serverKeyId);
      case Caller.Key k -> {
        var roles = AccessPolicy.rolesOf(a, caller);
        String role =
            roles.isEmpty()
                ? (k.operator() ? "operator" : "stranger")
                : roles.iterator().next().wireName();
        yield Actor.verified(role, k.keyId());
      }
    };
  }
}
