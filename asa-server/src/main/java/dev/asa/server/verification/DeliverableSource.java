package dev.asa.server.verification;

import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Digest;
import dev.asa.document.Agreement;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Progress;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.store.verification.DeliverableStore;
import dev.asa.server.work.ConflictException;
import java.time.Instant;
import java.util.Optional;

/**
 * The deliverable a verification judges: which delivery, its content (held or fetched), and the
 * task evaluators get.
 */
final class DeliverableSource {
  private final DeliverableStore deliverables;
  private final DeliverableFetcher fetcher;

  DeliverableSource(DeliverableStore deliverables, DeliverableFetcher fetcher) {
    this.deliverables = deliverables;
    this.fetcher = fetcher;
  }

  /**
   * The deliverable a verification of {@code a} judges: the latest, with its content still held.
   */
  DeliverableRow toVerify(Agreement a) {
    DeliverableRow row =
        deliverables
            .latest(a.id())
            .orElseThrow(() ->
                new IllegalStateException(
                    "agreement " + a.id() + " is DELIVERED but has no deliverable"));
    if (row.content() == null && row.contentUrl() == null) {
      // Content is erased only by a committed verification: a concurrent request verified first.
      throw new ConflictException(
          "agreement " + a.id() + " was verified by a concurrent request; read it again");
    }
    return row;
  }

  /**
   * The deliverable's content: held inline, or fetched from its URL and checked against its digest.
   */
  String content(DeliverableRow row) {
    return row.content() != null
        ? row.content()
        : fetcher.fetch(row.contentUrl(), Digest.parse(row.contentHash()));
  }

  /**
   * A deliverable delivered by URL, fetched and checked against the digest recorded at delivery.
   *
   * @throws InvalidDocumentException when it cannot be (what went wrong is logged, not said)
   */
  String fetched(String url, String hash) {
    return fetcher.fetch(url, Digest.parse(hash));
  }

  /**
   * What the evaluators are given for the agreement's deliverable: with the provider's declared
   * model ({@code parties.provider.model}), so that a judge running it refuses, and the settings
   * the verification runs with (the agreement's, narrowed by the request).
   */
  static EvaluationTask task(
      Agreement a,
      DeliverableRow row,
      String content,
      EvaluationTask.Options options,
      Progress progress) {
    Deliverable deliverable =
        new Deliverable(content, row.format(), Digest.parse(row.contentHash()), row.deliveredAt());
    return new EvaluationTask(
        deliverable,
        a.terms().service().description(),
        a.terms().service().type(),
        a.terms().qualityCriteria(),
        a.terms().service().constraints(),
        deadline(a),
        a.terms().parties().provider().model(),
        options,
        progress);
  }

  /** Delivery is due {@code max_duration_seconds} after activation, or by {@code expires_at}. */
  private static Instant deadline(Agreement a) {
    Long max = a.terms().service().constraints().maxDurationSeconds();
    Optional<Instant> activated = a.facts().activatedAt();
    if (max != null && activated.isPresent()) {
      return activated.get().plusSeconds(max);
    }
    return a.terms().expiresAt();
  }
}
