package dev.asa.server.agreements;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.access.Caller;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.agreements.AgreementFilter;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.verification.DeliverableFetcher;
import dev.asa.server.verification.VerificationRunner;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A party's count walks its listing with the access check, and stops after {@link
 * AgreementQueries#MAX_COUNTED} agreements saying so ({@code complete: false}); the operator's is
 * one query and always complete.
 */
class AgreementCountsTest {
  private static final Caller ALICE = Fixtures.caller("alice");
  private static final Caller OPERATOR = new Caller.Key(Fixtures.key("operator").publicKey(), true);
  @TempDir Path dir;
  private Store store;
  private AgreementService service;

  @BeforeEach
  void open() {
    store = Stores.open(null, dir);
    Ed25519PrivateKey serverKey = Fixtures.key("server");
    service =
        new AgreementService(
            store,
            new MutableClock(Instant.parse("2026-11-22T10:00:00Z")),
            new VerificationRunner(
                store, new StructuralEvaluator(), new DeliverableFetcher(1 << 20), serverKey),
            serverKey.publicKey().toBase64Url());
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aPartysCountStopsAfterItsCapAndSaysSoTheOperatorsDoesNot() {
    String id =
        service
            .commands()
            .create(Fixtures.general(), ALICE, null)
            .body()
            .path("agreement_id")
            .asText();
    JsonNode one = service.queries().counts("alice", AgreementFilter.NONE, ALICE);
    assertThat(one.path("total").asLong()).isEqualTo(1);
    assertThat(one.path("complete").asBoolean()).isTrue();

    // Copies of alice's agreement, straight into the store: the cap is what is under test.
    AgreementRow original = store.agreements().find(id).orElseThrow();
    for (int i = 0; i < AgreementQueries.MAX_COUNTED; i++) {
      String copy = id + "-" + i;
      store
          .writes()
          .createAgreement(
              new AgreementRow(
                  copy,
                  1,
                  original.state(),
                  original.document().replace(id, copy),
                  original.facts(),
                  original.serviceType(),
                  original.clientIdentity(),
                  original.providerIdentity(),
                  original.evaluatorIdentity(),
                  original.createdAt(),
                  original.updatedAt(),
                  original.amount(),
                  original.currency()),
              List.of(),
              List.of());
    }

    JsonNode capped = service.queries().counts("alice", AgreementFilter.NONE, ALICE);
    assertThat(capped.path("total").asLong()).isEqualTo(AgreementQueries.MAX_COUNTED);
    assertThat(capped.path("complete").asBoolean()).isFalse();
    JsonNode all = service.queries().counts(null, AgreementFilter.NONE, OPERATOR);
    assertThat(all.path("counts").path("PROPOSED").asLong())
        .isEqualTo(AgreementQueries.MAX_COUNTED + 1L);
    assertThat(all.path("complete").asBoolean()).isTrue();
    // A stranger naming alice walks her listing too, and counts none of it.
    assertThat(
            service
                .queries()
                .counts("alice", AgreementFilter.NONE, Fixtures.caller("mallory"))
                .path("total")
                .asLong())
        .isZero();
  }
}
