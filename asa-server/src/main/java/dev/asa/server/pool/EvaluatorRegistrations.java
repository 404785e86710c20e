package dev.asa.server.pool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.Caller;
import dev.asa.access.RegistryReader;
import dev.asa.integrity.EvaluatorProfile;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.Standing;
import dev.asa.integrity.TrackRecord;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.pool.EvaluatorRow;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.Outcome;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code POST /evaluators}: an evaluator registers itself. The key it registers is the key that
 * signed the request, never one named in the body (a body with a {@code key}, or with any member of
 * the track record or standing, is refused by pointer): nobody can register another's key, and
 * nobody can give itself a record. It starts active with an empty record, so it is not yet
 * qualified; its first evaluations come from qualification canaries.
 */
public final class EvaluatorRegistrations {
  private final EvaluatorRegistry registry;
  private final Clock clock;

  EvaluatorRegistrations(EvaluatorRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  public Outcome register(JsonNode body, Caller caller, IdempotencyTicket ticket) {
    if (!(caller instanceof Caller.Key key)) {
      throw new IllegalStateException("a registration is signed by the evaluator's own key");
    }
    if (key.operator()) {
      throw AccessDeniedException.forbidden(
          "the operator key administers the registry and cannot be registered as an evaluator;"
              + " register the evaluator with a key of its own");
    }
    EvaluatorProfile profile = EvaluatorProfile.parse(body, key.key());
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS); // as the store keeps it
    // The answer is known before the insert (a new evaluator, an empty record), so the idempotency
    // record commits with the registration itself.
    EvaluatorRow fresh =
        new EvaluatorRow(new PoolMember(profile, TrackRecord.NEW, Standing.ACTIVE), now, now, 1);
    Outcome outcome =
        new Outcome(
            201,
            EvaluatorViews.withHistory(
                EvaluatorViews.of(
                    fresh,
                    registry.qualificationShown(fresh, RegistryReader.SELF),
                    RegistryReader.SELF), // the evaluator itself registers
                List.of()));
    try {
      registry.register(profile, now, IdempotencyTicket.writes(ticket, outcome, now));
    } catch (DuplicateKeyException e) {
      EvaluatorRow existing = registry.find(profile.keyId()).orElse(null);
      if (existing == null) {
        throw new ConflictException(e.getMessage()); // another key clashed: the idempotency key
      }
      throw new ConflictException(
          "the key "
              + profile.keyId()
              + " is already registered, as '"
              + existing.member().profile().displayName()
              + "' (GET /evaluators/"
              + profile.keyId()
              + " shows it); a registration is not changed afterwards: to register another"
              + " evaluator, sign with another key");
    }
    return outcome;
  }
}
