package dev.asa.server.store.verification;

import dev.asa.server.store.db.EpochMillis;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * A task in the evaluator work queue: an agreement delivery's real work, or a canary given beside
 * it, or on its own (a scheduled canary placed alone, or a newly registered evaluator's
 * qualification canary). The evaluator is never told which.
 *
 * @param agreementId the agreement whose delivery the task belongs to; null for a canary given on
 *     its own
 * @param delivery that delivery's attempt (1, or 2 after a shadow re-delivery); null with no
 *     agreement
 * @param canaryId the canary's id in the operator's set; null for real work
 * @param scheduled a real task that counts in the evaluator's canary schedule
 * @param realBefore a scheduled canary: the evaluator's scheduled real tasks when it was given
 * @param content what the evaluator is shown (for a canary, the whole canary); null once ended
 * @param answer the evaluator_result submitted, held until the delivery's tasks settle; null before
 *     the answer and once ended
 * @param outcome what became of the task, for the record; null until it ends
 */
public record TaskRow(
    String id,
    String evaluatorKey,
    String agreementId,
    Integer delivery,
    Kind kind,
    String canaryId,
    String serviceType,
    boolean scheduled,
    Long realBefore,
    String content,
    String answer,
    Status status,
    String outcome,
    Instant createdAt,
    Instant deadlineAt,
    Instant answeredAt,
    Instant endedAt) {

  public enum Kind {
    REAL,
    CANARY;

    public String column() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Kind fromColumn(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  /**
   * Open: waiting for the evaluator. Answered: its answer is held until the delivery's other tasks
   * are answered or due. The rest are ends: settled (the answer was used), expired (unanswered by
   * the deadline), voided (the answer was set aside: a canary beside it failed) and withdrawn (the
   * agreement moved on without it).
   */
  public enum Status {
    OPEN,
    ANSWERED,
    SETTLED,
    EXPIRED,
    VOIDED,
    WITHDRAWN;

    public String column() {
      return name().toLowerCase(Locale.ROOT);
    }

    public boolean isEnd() {
      return this != OPEN && this != ANSWERED;
    }

    static Status fromColumn(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  public TaskRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(evaluatorKey, "evaluatorKey");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(serviceType, "serviceType");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(deadlineAt, "deadlineAt");
    if ((kind == Kind.CANARY) != (canaryId != null)) {
      throw new IllegalArgumentException("a canary task, and only one, names its canary");
    }
    if ((agreementId == null) != (delivery == null)) {
      throw new IllegalArgumentException("a task of an agreement names its delivery");
    }
    if (agreementId == null && kind != Kind.CANARY) { // only a canary comes on its own
      throw new IllegalArgumentException("real work always belongs to an agreement");
    }
  }

  /** A new open task. */
  public static TaskRow open(
      String id,
      String evaluatorKey,
      String agreementId,
      Integer delivery,
      Kind kind,
      String canaryId,
      String serviceType,
      boolean scheduled,
      Long realBefore,
      String content,
      Instant createdAt,
      Instant deadlineAt) {
    return new TaskRow(
        id,
        evaluatorKey,
        agreementId,
        delivery,
        kind,
        canaryId,
        serviceType,
        scheduled,
        realBefore,
        content,
        null,
        Status.OPEN,
        null,
        EpochMillis.truncate(createdAt),
        EpochMillis.truncate(deadlineAt),
        null,
        null);
  }

  public boolean isCanary() {
    return kind == Kind.CANARY;
  }
}
