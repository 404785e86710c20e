package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.agreement.Role;
import dev.asa.coc.AnchorData;
import dev.asa.coc.CocCheck;
import dev.asa.coc.CocIdentity;
import dev.asa.crypto.Digest;
import dev.asa.document.Agreement;
import dev.asa.facts.ProvenanceFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.agreements.EventStore;
import dev.asa.server.work.Change;
import dev.asa.server.work.Command;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.Outcome;
import dev.asa.server.work.UnitOfWork;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Evidence anchoring (whitepaper 9.1): once an agreement is verified, ruled or closed, each party
 * may append to its own CoC chain an entry holding the agreement's hashes ({@link AnchorData}), and
 * show the chain back to have the anchoring recorded as an {@code anchored} event.
 *
 * <p>The data names the event that made the agreement verified, ruled or closed, not the log's
 * latest event, so it stays the same while the log moves on; an anchor taken at VERIFIED still
 * counts after CLOSED, because the server recomputes the data of every such event of the log and
 * accepts an entry that holds exactly one of them.
 */
public final class Anchoring {
  /** The events after which an agreement can be anchored. */
  private static final Set<String> MILESTONES =
      Set.of(
          EventType.VERIFIED.wireName(), EventType.RULED.wireName(), EventType.CLOSED.wireName());

  private static final Set<State> ANCHORABLE =
      Set.of(State.VERIFIED, State.CLOSED, State.REJECTED, State.DISPUTED);

  private final UnitOfWork work;
  private final EventStore events;
  private final CocChains chains;

  Anchoring(UnitOfWork work, EventStore events, CocChains chains) {
    this.work = work;
    this.events = events;
    this.chains = chains;
  }

  /** {@code GET /agreements/{id}/anchor}: the entry to append, {@code {"type", "data"}}. */
  public ObjectNode anchor(String id, Caller caller) {
    Agreement a = work.agreement(work.loadFor(id, caller, Operation.ANCHOR));
    List<AnchorData> all = anchors(a);
    if (all.isEmpty()) {
      throw nothingYet(a);
    }
    return all.getLast().toEntryTemplate();
  }

  /**
   * {@code POST /agreements/{id}/anchor}: the caller's chain, which must still verify from its
   * identity's genesis, keep the prefix recorded before and hold an {@code anchor} entry whose data
   * is exactly one of this agreement's. Recorded as an {@code anchored} event, with the chain's new
   * length and head.
   */
  public Outcome record(String id, Command.Anchor shown, Caller caller, IdempotencyTicket ticket) {
    Agreement before = work.agreement(work.loadFor(id, caller, Operation.ANCHOR));
    Role role = partyRole(before, caller);
    List<AnchorData> all = anchors(before);
    if (all.isEmpty()) {
      throw nothingYet(before);
    }
    CocIdentity identity = CocChains.identities(before).get(role);
    ProvenanceFact.Chain recorded = before.facts().provenance().of(role).orElse(null);
    if (identity == null || recorded == null) {
      throw new ConflictException(
          "the "
              + role.wireName()
              + "'s identity is not a CoC chain this server verified (scheme coc with chain_url"
              + " or chain): there is no chain to anchor in");
    }
    Set<String> data = new LinkedHashSet<>();
    all.forEach(d -> data.add(d.data()));
    // Fetched and verified before the unit of work: no network call while it decides.
    CocCheck.Valid valid = chains.anchoring(identity, shown, recorded, data, work.now());
    if (valid.anchors().isEmpty()) {
      throw new dev.asa.agreement.InvalidDocumentException(
          "/chain",
          "no anchor entry of the chain holds this agreement's anchor data exactly (GET"
              + " /agreements/"
              + id
              + "/anchor)");
    }
    long index = valid.anchors().getLast();
    return work.mutate(
        id,
        ticket,
        caller,
        Operation.ANCHOR,
        current -> {
          Agreement a = current.agreement();
          ProvenanceFact.Chain now = a.facts().provenance().of(role).orElseThrow();
          if (!now.equals(recorded)) {
            throw new ConflictException(
                "the "
                    + role.wireName()
                    + "'s chain was recorded again while this request was processed; retry");
          }
          ProvenanceFact.Chain grown =
              new ProvenanceFact.Chain(valid.summary(), recorded.source(), current.now());
          ObjectNode payload = Json.object();
          payload.put("party", role.wireName());
          payload.put("genesis", valid.summary().genesis().toString());
          payload.put("anchor_seq", index);
          payload.put("chain_length", valid.summary().length());
          payload.put("chain_head", valid.summary().head().toString());
          Agreement next = a.withFacts(f -> f.withProvenance(f.provenance().with(role, grown)));
          return new Change(
              next,
              List.of(new EventLog.Draft(EventType.ANCHORED, current.actor(), payload)),
              List.of(),
              null);
        });
  }

  /** The caller's party role: client or provider (the access check let nobody else through). */
  private static Role partyRole(Agreement a, Caller caller) {
    Set<Role> roles = AccessPolicy.rolesOf(a, caller);
    if (roles.contains(Role.CLIENT)) {
      return Role.CLIENT;
    }
    if (roles.contains(Role.PROVIDER)) {
      return Role.PROVIDER;
    }
    throw AccessDeniedException.forbidden("only the client or the provider anchors an agreement");
  }

  /** The anchor data of each verified, ruled or closed event of the log, oldest first. */
  private List<AnchorData> anchors(Agreement a) {
    if (!ANCHORABLE.contains(a.state())) {
      return List.of();
    }
    Digest deliverable = a.facts().deliverableHash().map(Digest::parse).orElse(null);
    Digest evaluation =
        a.facts()
            .verification()
            .map(v -> v.evaluationHash())
            .filter(h -> h != null)
            .map(Digest::parse)
            .orElse(null);
    return events.log(a.id()).stream()
        .filter(e -> MILESTONES.contains(e.type()))
        .map(EventRecord::hash)
        .map(h -> new AnchorData(a.hash(), deliverable, evaluation, Digest.parse(h)))
        .toList();
  }

  private static ConflictException nothingYet(Agreement a) {
    return new ConflictException(
        "agreement "
            + a.id()
            + " is "
            + a.state()
            + ": an agreement is anchored once it is verified, ruled or closed");
  }
}
