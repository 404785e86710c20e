package dev.asa.server.store;

import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.verification.DeliverableRow;
import java.time.Instant;

/** Builders for test rows, with every field filled so round trips check every column. */
public final class TestRows {

  public static final Instant T0 = Instant.parse("2025-06-01T12:00:00.123Z");

  private TestRows() {}

  static AgreementRow agreement(
      String id,
      long version,
      State state,
      String client,
      String provider,
      String evaluator,
      Instant createdAt) {
    String document =
        "{\"agreement_id\":\""
            + id
            + "\",\"version\":"
            + version
            + ",\"state\":\""
            + state.wireName()
            + "\",\"note\":\"caf\u00e9 \u2713 \\\"quoted\\\"\"}";
    return new AgreementRow(
        id,
        version,
        state,
        document,
        "text.summarize",
        client,
        provider,
        evaluator,
        createdAt,
        createdAt.plusSeconds(version - 1));
  }

  public static AgreementRow agreement(String id, long version, State state) {
    return agreement(id, version, state, "client:" + id, "provider:" + id, "evaluator:" + id, T0);
  }

  static AgreementRow next(AgreementRow row, State state) {
    AgreementRow bumped =
        agreement(
            row.id(),
            row.version() + 1,
            state,
            row.clientIdentity(),
            row.providerIdentity(),
            row.evaluatorIdentity(),
            row.createdAt());
    return bumped;
  }

  public static EventRecord event(String agreementId, long seq) {
    return new EventRecord(
        agreementId,
        seq,
        "event." + seq,
        "{\"role\":\"client\",\"key\":\"ed25519:abc\"}",
        T0.plusMillis(seq),
        "{\"seq\":" + seq + "}",
        seq == 1 ? null : "sha256:" + (seq - 1),
        "sha256:" + seq);
  }

  static DeliverableRow deliverable(String agreementId, int attempt, String content) {
    return new DeliverableRow(
        agreementId,
        attempt,
        "sha256:content-" + attempt,
        "https://example.test/" + attempt,
        "text/plain",
        content,
        content.length(),
        T0.plusSeconds(attempt));
  }
}
