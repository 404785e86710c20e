package dev.asa.server.shadow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.server.store.Write;
import dev.asa.server.store.Writes;
import dev.asa.server.store.shadow.SealRow;
import dev.asa.server.store.shadow.SealStore;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.NotFoundException;
import dev.asa.shadow.HardeningCycle;
import dev.asa.shadow.SealedEnvelope;
import dev.asa.shadow.ShadowValidation;
import java.time.Instant;
import java.util.List;

/**
 * Reads of an agreement's sealed criteria and of its hardening messages: who may read what before
 * and after the reveal, every read logged.
 */
public final class SealReads {
  private final SealStore seals;
  private final Writes writes;
  private final ShadowSeals shadow;

  public SealReads(SealStore seals, Writes writes, ShadowSeals shadow) {
    this.seals = seals;
    this.writes = writes;
    this.shadow = shadow;
  }

  /**
   * {@code GET /agreements/{id}/seal}: before the reveal the sealer and the operator read the
   * envelope (the provider and the evaluator get 403); after it, any party. The body is the
   * envelope exactly ({@link SealedEnvelope#toJson}), which {@code asa shadow verify-seal} checks.
   * Every read is logged with its caller.
   */
  public ObjectNode read(Agreement a, Caller caller, String route, Instant now) {
    requireParticipant(a, caller);
    SealRow row =
        seals
            .ofAgreement(a.id())
            .orElseThrow(
                () -> new NotFoundException("agreement " + a.id() + " has no sealed criteria"));
    if (!row.revealed() && !mayReadSealed(row, caller)) {
      throw AccessDeniedException.forbidden(
          "the sealed criteria of agreement "
              + a.id()
              + " are readable only by their sealer"
              + " and the operator until verification reveals them; the commitment is in verification.shadow_seal");
    }
    writes.apply(List.of(new Write.LogSealRead(row.id(), caller.describe(), route, now)));
    return (ObjectNode) Json.parseTrusted(row.envelope());
  }

  static boolean mayReadSealed(SealRow row, Caller caller) {
    return caller instanceof Caller.Key k && (k.operator() || k.keyId().equals(row.sealerKey()));
  }

  /** A reader of the agreement (a party or the operator); anyone else is told it does not exist. */
  static void requireParticipant(Agreement a, Caller caller) {
    if (!AccessPolicy.mayRead(a, caller)) {
      throw new NotFoundException("no agreement with id '" + a.id() + "'");
    }
  }

  /**
   * {@code GET /agreements/{id}/hardening}: while a hardening cycle is open, the failure messages
   * of the first delivery (opaque ids, no criteria, no counts); logged like a read of the seal.
   */
  public ObjectNode hardeningMessages(Agreement a, Caller caller, String route, Instant now) {
    requireParticipant(a, caller);
    if (!ShadowSeals.hardeningOpen(a)) {
      throw new ConflictException("agreement " + a.id() + " has no open hardening cycle");
    }
    SealRow row = seals.ofAgreement(a.id()).orElseThrow();
    SealedEnvelope envelope = SealedEnvelope.parse(Json.parseTrusted(row.envelope()));
    ShadowValidation initial =
        shadow.validationOf(Json.parseTrusted(row.validation()).path("initial"), envelope);
    HardeningCycle cycle = HardeningCycle.start(initial, ShadowSeals.policy(row));
    writes.apply(List.of(new Write.LogSealRead(row.id(), caller.describe(), route, now)));
    return cycle.messages(envelope.nonce()).toJson();
  }
}
