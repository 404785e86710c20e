package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.VerificationTerms;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.document.Agreement;
import dev.asa.facts.Fact;
import dev.asa.facts.FactCodec;
import dev.asa.json.Json;
import dev.asa.lifecycle.Event;
import dev.asa.lifecycle.EventChain;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.reputation.Reputation;
import dev.asa.server.store.agreements.AgreementFilter;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.agreements.EventStore;
import dev.asa.server.store.db.Page;
import dev.asa.server.store.escrow.OutboxStore;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.server.store.timers.TimerStore;
import dev.asa.server.store.verification.VerificationRow;
import dev.asa.server.store.verification.VerificationStore;
import dev.asa.server.verification.VerificationRunner;
import dev.asa.server.work.Deadlines;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.TimerKind;
import dev.asa.server.work.UnitOfWork;
import dev.asa.server.work.Views;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The read side of the agreements API: every {@code GET} about an agreement, its events, status,
 * escrow, transcript, seal and ledger account. Reads never write (except the seal-read log Shadow
 * Scoring keeps); who may read what is the access policy's.
 */
public final class AgreementQueries {
  /** How many store pages one list call may scan for the caller's own agreements. */
  private static final int MAX_PAGES_SCANNED = 10;

  /**
   * How many of a party's agreements one count may examine (each is parsed for the access check);
   * past that the count says it is incomplete.
   */
  static final int MAX_COUNTED = 5_000;

  private static final int COUNT_PAGE_SIZE = 200;

  private final UnitOfWork work;
  private final EventStore events;
  private final VerificationStore verifications;
  private final OutboxStore outbox;
  private final TimerStore timers;
  private final Reputation reputation;
  private final Enforcement enforcement;
  private final VerificationRunner verifier;

  AgreementQueries(
      UnitOfWork work,
      EventStore events,
      VerificationStore verifications,
      OutboxStore outbox,
      TimerStore timers,
      Enforcement enforcement,
      VerificationRunner verifier,
      Reputation reputation) {
    this.work = work;
    this.events = events;
    this.verifications = verifications;
    this.outbox = outbox;
    this.timers = timers;
    this.reputation = reputation;
    this.enforcement = enforcement;
    this.verifier = verifier;
  }

  public ObjectNode get(String id, Caller caller) {
    AgreementRow row = work.loadFor(id, caller, Operation.READ);
    return Views.envelope(work.agreement(row), row.version());
  }

  /** The row version, for ETags. */
  public long version(String id, Caller caller) {
    return work.loadFor(id, caller, Operation.READ).version();
  }

  /**
   * The agreements the caller may read among those where {@code party} is an identity and the
   * filter keeps, newest first: a party's only those in which its key holds a role (a stranger
   * naming someone else's identity gets an empty list, not theirs), the operator's all of them.
   * Without {@code party}, every agreement the filter keeps: the operator's listing alone.
   *
   * @param party an identity value, or null for every agreement (the operator only)
   */
  public ObjectNode list(
      String party, AgreementFilter filter, String cursor, int limit, Caller caller) {
    if (party == null) {
      requireOperator(caller, "list every agreement");
      Page<AgreementRow> page = work.agreements().listAll(filter, cursor, limit);
      // The display names are read from each row's agreement: no query more, but a row not in the
      // cache is parsed (0.1 to 0.5 ms; a party's listing has parsed its rows for access already).
      return Views.page(page.items(), work::agreement, page.nextCursor());
    }
    List<AgreementRow> items = new ArrayList<>();
    // Each page asks only for the room left, so that no readable row of it is passed over.
    String next =
        walkReadable(
            party,
            filter,
            cursor,
            () -> limit - items.size(),
            MAX_PAGES_SCANNED,
            caller,
            items::add);
    return Views.page(items, work::agreement, next);
  }

  /**
   * {@code GET /agreements/counts}: how many agreements the filter keeps in each state, among those
   * the caller may read. The operator's is one query (of {@code party}'s agreements when it is not
   * null); a party's walks the party's listing with the access check, for at most {@link
   * #MAX_COUNTED} rows, and says {@code complete: false} when there were more.
   *
   * @param party an identity value, or null for every agreement (the operator only)
   */
  public ObjectNode counts(String party, AgreementFilter filter, Caller caller) {
    AgreementFilter anyState = filter.anyState();
    if (AccessPolicy.isOperator(caller)) {
      return Views.counts(work.agreements().countByState(party, anyState), true);
    }
    if (party == null) {
      requireOperator(caller, "count every agreement");
    }
    Map<State, Long> counts = new EnumMap<>(State.class);
    String next =
        walkReadable(
            party,
            anyState,
            null,
            () -> COUNT_PAGE_SIZE,
            MAX_COUNTED / COUNT_PAGE_SIZE,
            caller,
            row -> counts.merge(row.state(), 1L, Long::sum));
    return Views.counts(counts, next == null);
  }

  /**
   * Walks {@code party}'s listing from {@code cursor}, page by page, handing each row the caller
   * may read to {@code take}; stops when a page would be empty ({@code pageSize} is 0), after
   * {@code maxPages}, or at the end. Answers the cursor to go on from, or null at the end.
   */
  private String walkReadable(
      String party,
      AgreementFilter filter,
      String cursor,
      IntSupplier pageSize,
      int maxPages,
      Caller caller,
      Consumer<AgreementRow> take) {
    String next = cursor;
    for (int pages = 0; pages < maxPages && pageSize.getAsInt() > 0; pages++) {
      Page<AgreementRow> page =
          work.agreements().listByParty(party, filter, next, pageSize.getAsInt());
      for (AgreementRow row : page.items()) {
        if (AccessPolicy.mayRead(work.agreement(row), caller)) {
          take.accept(row);
        }
      }
      next = page.nextCursor();
      if (next == null) {
        break;
      }
    }
    return next;
  }

  private static void requireOperator(Caller caller, String what) {
    if (!AccessPolicy.isOperator(caller)) {
      throw AccessDeniedException.forbidden(
          "only the operator key may " + what + "; name a party (party=<identity value>)");
    }
  }

  public ObjectNode events(String id, Caller caller) {
    work.loadFor(id, caller, Operation.READ);
    List<Event> log = events.log(id).stream().map(EventLog::toCore).toList();
    ObjectNode out = Json.object();
    out.put("agreement_id", id);
    Optional<String> broken = EventChain.firstBreak(log);
    out.put("chain_valid", broken.isEmpty());
    broken.ifPresent(b -> out.put("chain_error", b));
    ArrayNode list = out.putArray("events");
    log.forEach(e -> list.add(e.toJson()));
    return out;
  }

  /** Refuses (404 for strangers) a caller who may not read the agreement. */
  public void requireReader(String id, Caller caller) {
    work.loadFor(id, caller, Operation.READ);
  }

  /**
   * The latest verification result of an agreement. Who may read it follows the agreement's {@code
   * verification.result_visibility}: {@code public} answers anyone (signed or not); {@code parties}
   * and {@code parties_and_arp} answer the parties and the evaluator; unsigned, anything else
   * answers like a missing agreement.
   *
   * @param caller null for an unsigned request
   */
  public ObjectNode verification(String id, Caller caller) {
    AgreementRow row = work.load(id);
    Agreement a = work.agreement(row);
    if (a.terms().verification().resultVisibility() != VerificationTerms.Visibility.PUBLIC) {
      if (caller == null) {
        // Exactly the answer for a missing agreement: an unsigned probe must not learn which ids
        // exist.
        throw UnitOfWork.notFound(id);
      }
      AccessPolicy.require(a, caller, Operation.READ);
    }
    List<VerificationRow> rows = verifications.ofAgreement(id);
    if (rows.isEmpty()) {
      throw new NotFoundException("agreement " + id + " has no verification result yet");
    }
    return (ObjectNode) Json.parseTrusted(rows.get(rows.size() - 1).result());
  }

  public ObjectNode status(String id, Caller caller) {
    AgreementRow row = work.loadFor(id, caller, Operation.READ);
    Agreement a = work.agreement(row);
    ObjectNode status = Views.status(a, row.version(), work.now());
    // The server's own clocks for this agreement, as its timers will act on them: what a party
    // must do by when (fund, deliver, judge) and when the challenge window ends. A timer whose
    // step was already taken still waits in the table, to fire as a no-op; it is not a deadline.
    ArrayNode pending = status.with("deadlines").putArray("timers");
    for (TimerRow timer : timers.pending(id)) {
      if (Deadlines.binds(TimerKind.fromWire(timer.kind()), a)) {
        pending.addObject().put("kind", timer.kind()).put("due_at", timer.dueAt().toString());
      }
    }
    if (!outbox.messagesOf(id).isEmpty()) {
      status.with("payment").set("messages", enforcement.view(a).path("messages"));
    }
    return status;
  }

  /**
   * {@code GET /agreements/{id}/escrow}: balance, transfers and payment messages of the agreement.
   */
  public ObjectNode escrow(String id, Caller caller) {
    AgreementRow row = work.loadFor(id, caller, Operation.READ);
    return enforcement.view(work.agreement(row));
  }

  /**
   * {@code GET /accounts/{key}}: a key's ledger account. Only the key itself (or the operator) may
   * read it: balances say who was paid what.
   */
  public ObjectNode account(String key, int limit, Caller caller) {
    try {
      Ed25519PublicKey.fromBase64Url(key);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(
          "/key", "an account is named by a base64url Ed25519 public key: " + e.getMessage());
    }
    boolean own = caller instanceof Caller.Key k && (k.keyId().equals(key) || k.operator());
    if (!own) {
      throw AccessDeniedException.forbidden(
          "an account is readable by its own key and the operator only; sign with the key " + key);
    }
    return enforcement.account(key, limit);
  }

  /**
   * {@code GET /agreements/{id}/negotiation}: the rounds as a readable transcript, from the event
   * log (each message with its party, rationale, the before and after of every term, and the
   * evaluators it proposed), and each party's standing evaluator proposal.
   */
  public ObjectNode negotiationTranscript(String id, Caller caller) {
    work.loadFor(id, caller, Operation.READ);
    ObjectNode out = Json.object();
    out.put("agreement_id", id);
    ArrayNode rounds = out.putArray("rounds");
    for (EventRecord r : events.log(id)) {
      if (r.type().equals(EventType.NEGOTIATED.wireName())
          || r.type().equals(EventType.ACCEPTED.wireName())
          || r.type().equals(EventType.REJECTED.wireName())) {
        ObjectNode round = (ObjectNode) Json.parseTrusted(r.payload());
        round.put("at", r.at().toString());
        round.put("event", r.type());
        rounds.add(round);
      }
    }
    Agreement a = work.agreement(work.load(id));
    out.set("state", Json.mapper().getNodeFactory().textNode(a.state().name()));
    if (a.facts().has(Fact.NEGOTIATION)) {
      out.set("negotiation", a.facts().get(Fact.NEGOTIATION));
    }
    if (a.facts().has(Fact.EVALUATOR_PROPOSALS)) {
      out.set("evaluator_proposals", FactCodec.write(a.facts().evaluatorProposals()));
    }
    if (reputation != null) {
      // Each side sees whom it deals with (whitepaper 9.2, ARP to ASA): the other's record here,
      // and its own as the other sees it.
      ObjectNode parties = out.putObject("reputation");
      parties.set("client", reputation.summary(a.terms().parties().client()));
      parties.set("provider", reputation.summary(a.terms().parties().provider()));
    }
    return out;
  }

  /**
   * {@code GET /agreements/{id}/seal}: the sealed envelope, for its sealer (and the operator)
   * before the reveal, any party after.
   */
  public ObjectNode sealOf(String id, Caller caller) {
    Instant now = work.now();
    return verifier
        .sealReads()
        .read(work.agreement(work.load(id)), caller, "GET /agreements/" + id + "/seal", now);
  }

  /** {@code GET /agreements/{id}/hardening}: the failure messages of an open hardening cycle. */
  public ObjectNode hardening(String id, Caller caller) {
    Instant now = work.now();
    return verifier
        .sealReads()
        .hardeningMessages(
            work.agreement(work.load(id)), caller, "GET /agreements/" + id + "/hardening", now);
  }

  /**
   * {@code GET /shadow/seals/{id}/report}: the latest report of a standalone seal, for its sealer.
   */
  public ObjectNode standaloneReport(String sealId, Caller caller) {
    return verifier.standaloneSeals().standaloneReport(sealId, caller);
  }
}
