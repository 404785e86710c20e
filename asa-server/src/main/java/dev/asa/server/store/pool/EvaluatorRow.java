package dev.asa.server.store.pool;

import dev.asa.access.RegistryReader;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.TrackRecord;
import java.time.Instant;
import java.util.Objects;

/**
 * A registered evaluator as stored: what it says (profile), what it did (track record), what the
 * operator says (standing), with the registry's own bookkeeping.
 *
 * @param updatedAt when its record or standing last changed (its registration, at first)
 * @param version how many times it was written (1 at registration)
 * @param published the record as others are shown it: its figures as last published ({@code
 *     RecordPublication}), without rotation streaks; {@link TrackRecord#NEW} before the first
 * @param publishedAt when it was published; null before the first publication
 */
public record EvaluatorRow(
    PoolMember member,
    Instant registeredAt,
    Instant updatedAt,
    long version,
    TrackRecord published,
    Instant publishedAt) {
  public EvaluatorRow {
    Objects.requireNonNull(member, "member");
    Objects.requireNonNull(registeredAt, "registeredAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(published, "published");
  }

  /** A row whose record has not been published yet. */
  public EvaluatorRow(PoolMember member, Instant registeredAt, Instant updatedAt, long version) {
    this(member, registeredAt, updatedAt, version, TrackRecord.NEW, null);
  }

  /**
   * The record this reader is shown: as it is to the operator, as last published to everyone else
   * (the evaluator included): one that moved with each answer told its evaluator which task had
   * been a canary and whether it passed.
   */
  public TrackRecord recordFor(RegistryReader reader) {
    return reader.seesLiveRecord() ? member.record() : published;
  }

  /** When the record this reader is shown stood so; null when nothing was published yet. */
  public Instant recordAsOf(RegistryReader reader) {
    return reader.seesLiveRecord() ? updatedAt : publishedAt;
  }

  /** The key (base64url) that registered it: its id in the registry. */
  public String keyId() {
    return member.profile().keyId();
  }
}
