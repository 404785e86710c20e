package dev.asa.server.store;

import static dev.asa.server.store.TestRows.T0;
import static dev.asa.server.store.TestRows.agreement;
import static dev.asa.server.store.TestRows.deliverable;
import static dev.asa.server.store.TestRows.event;
import static dev.asa.server.store.TestRows.next;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.AgreementFilter;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.AgreementStore;
import dev.asa.server.store.agreements.ChainHead;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.db.Migrations;
import dev.asa.server.store.db.MigrationsTest;
import dev.asa.server.store.db.Page;
import dev.asa.server.store.db.StaleVersionException;
import dev.asa.server.store.db.StoreStatistics;
import dev.asa.server.store.escrow.ChainTransaction;
import dev.asa.server.store.escrow.ChainTransactionStore;
import dev.asa.server.store.escrow.LedgerEntry;
import dev.asa.server.store.escrow.LedgerRefusedException;
import dev.asa.server.store.escrow.OutboxRow;
import dev.asa.server.store.idempotency.IdempotencyRow;
import dev.asa.server.store.shadow.SealRead;
import dev.asa.server.store.shadow.SealRow;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.store.verification.JobRow;
import dev.asa.server.store.verification.TaskRow;
import dev.asa.server.store.verification.VerificationRow;
import dev.asa.server.store.verification.VerificationStore;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link Store} must show, run against each database by a subclass. Tests may
 * share a database (PostgreSQL uses one schema per class), so every test makes its own unique ids.
 */
abstract class StoreContract {

  protected Store store;

  /** Opens another store on this test's database (migrating it as {@link Stores#open} does). */
  protected abstract Store openStore();

  /** A plain JDBC connection to the same database, to check what is really stored. */
  protected abstract Connection rawConnection() throws SQLException;

  @BeforeEach
  void openTheStore() {
    store = openStore();
  }

  @AfterEach
  void closeTheStore() {
    store.close();
  }

  private static String uniqueId(String prefix) {
    return prefix + "-" + UUID.randomUUID();
  }

  private AgreementRow created(String prefix) {
    AgreementRow row = agreement(uniqueId(prefix), 1, State.PROPOSED);
    store.writes().createAgreement(row, List.of(event(row.id(), 1)), List.of());
    return row;
  }

  // ---- create / find ----

  @Test
  void createThenFindReturnsExactlyWhatWasStored() {
    String id = uniqueId("round-trip");
    AgreementRow row =
        new AgreementRow(
            id,
            1,
            State.NEGOTIATING,
            "{\"a\":[1,2.5,\"\u00fcnic\u00f8de \ud83d\ude80\"],\"b\":{\"c\":null}}",
            "code.review",
            "ed25519:client",
            "ed25519:provider",
            null,
            Instant.parse("2025-01-02T03:04:05.123456789Z"),
            Instant.parse("2025-01-02T03:04:06.999Z"));
    List<EventRecord> events = List.of(event(id, 1), event(id, 2));

    store.writes().createAgreement(row, events, List.of());

    assertThat(store.agreements().find(id)).contains(row);
    assertThat(store.agreements().find(id).orElseThrow().createdAt())
        .isEqualTo(Instant.parse("2025-01-02T03:04:05.123Z")); // millisecond precision
    assertThat(store.events().log(id)).isEqualTo(events);
    assertThat(store.agreements().find(uniqueId("missing"))).isEmpty();
    assertThat(store.events().log(uniqueId("missing"))).isEmpty();
  }

  @Test
  void createRefusesAnExistingIdAndKeepsTheFirst() {
    AgreementRow first = created("dup");
    AgreementRow second = agreement(first.id(), 1, State.ACTIVE);

    assertThatThrownBy(() -> store.writes().createAgreement(second, List.of(), List.of()))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining(first.id());

    assertThat(store.agreements().find(first.id())).contains(first);
    assertThat(store.events().log(first.id())).hasSize(1);
  }

  @Test
  void createIsAllOrNothing() {
    String id = uniqueId("atomic-create");
    AgreementRow row = agreement(id, 1, State.PROPOSED);

    assertThatThrownBy(() ->
            store
                .writes()
                .createAgreement(
                    row,
                    List.of(event(id, 1), event(id, 1)),
                    List.of(new Write.PutDeliverable(deliverable(id, 1, "x")))))
        .isInstanceOf(DuplicateKeyException.class);

    assertThat(store.agreements().find(id)).isEmpty();
    assertThat(store.events().log(id)).isEmpty();
    assertThat(store.deliverables().latest(id)).isEmpty();
    assertThat(store.agreements().listByParty(row.clientIdentity(), null, 10).items()).isEmpty();
  }

  @Test
  void eventsMustBelongToTheAgreement() {
    String id = uniqueId("foreign-event");
    assertThatThrownBy(() ->
            store
                .writes()
                .createAgreement(
                    agreement(id, 1, State.PROPOSED), List.of(event("someone-else", 1)), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.agreements().find(id)).isEmpty();
  }

  // ---- commit ----

  @Test
  void commitWithTheRightVersionAppliesEverything() {
    AgreementRow v1 = created("commit");
    AgreementRow v2 = next(v1, State.DELIVERED);
    DeliverableRow delivered = deliverable(v1.id(), 1, "the work");

    store
        .writes()
        .commit(
            new Commit(
                v1, v2, List.of(event(v1.id(), 2)), List.of(new Write.PutDeliverable(delivered))));

    assertThat(store.agreements().find(v1.id())).contains(v2);
    assertThat(store.events().log(v1.id())).containsExactly(event(v1.id(), 1), event(v1.id(), 2));
    assertThat(store.deliverables().latest(v1.id())).contains(delivered);

    AgreementRow v3 = next(v2, State.VERIFIED);
    store.writes().commit(new Commit(v2, v3, List.of(event(v1.id(), 3)), List.of()));
    assertThat(store.agreements().find(v1.id()).orElseThrow().version()).isEqualTo(3);
  }

  @Test
  void commitKeepsCreatedAt() {
    AgreementRow v1 = created("created-at");
    AgreementRow v2 =
        new AgreementRow(
            v1.id(),
            2,
            State.ACTIVE,
            v1.document(),
            v1.serviceType(),
            v1.clientIdentity(),
            v1.providerIdentity(),
            v1.evaluatorIdentity(),
            v1.createdAt().plusSeconds(3600),
            v1.updatedAt().plusSeconds(5));

    store.writes().commit(new Commit(v1, v2, List.of(), List.of()));

    AgreementRow stored = store.agreements().find(v1.id()).orElseThrow();
    assertThat(stored.createdAt()).isEqualTo(v1.createdAt());
    assertThat(stored.updatedAt()).isEqualTo(v2.updatedAt());
  }

  @Test
  void commitRequiresTheNextVersion() {
    AgreementRow v1 = created("bad-version");
    assertThatThrownBy(
            () -> new Commit(v1, agreement(v1.id(), 3, State.ACTIVE), List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new Commit(v1, agreement(v1.id() + "-2", 2, State.ACTIVE), List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("over a row of agreement " + v1.id());
  }

  @Test
  void staleCommitIsRefusedAndWritesNothing() {
    AgreementRow v1 = created("stale");
    AgreementRow v2 = next(v1, State.ACTIVE);
    store.writes().commit(new Commit(v1, v2, List.of(event(v1.id(), 2)), List.of()));

    // A second writer that also read version 1.
    AgreementRow competing = next(v1, State.REJECTED);
    String verificationId = uniqueId("ver");
    List<Write> writes =
        List.of(
            new Write.PutDeliverable(deliverable(v1.id(), 1, "late")),
            new Write.PutVerification(
                new VerificationRow(verificationId, v1.id(), "sha256:x", "{}", null, T0)),
            new Write.PutIdempotency(
                new IdempotencyRow("scope-" + v1.id(), "k1", "h", 200, "{}", T0)));

    assertThatThrownBy(() ->
            store.writes().commit(new Commit(v1, competing, List.of(event(v1.id(), 3)), writes)))
        .isInstanceOf(StaleVersionException.class)
        .hasMessage("agreement " + v1.id() + " changed concurrently (expected version 1)");

    assertThat(store.agreements().find(v1.id())).contains(v2);
    assertThat(store.events().log(v1.id())).extracting(EventRecord::seq).containsExactly(1L, 2L);
    assertThat(store.deliverables().latest(v1.id())).isEmpty();
    assertThat(store.verifications().find(verificationId)).isEmpty();
    assertThat(store.idempotency().find("scope-" + v1.id(), "k1")).isEmpty();
  }

  @Test
  void commitOfAnUnknownAgreementIsStale() {
    AgreementRow ghost = agreement(uniqueId("ghost"), 2, State.ACTIVE);
    assertThatThrownBy(() ->
            store
                .writes()
                .commit(
                    new Commit(
                        agreement(ghost.id(), 1, State.ACTIVE), ghost, List.of(), List.of())))
        .isInstanceOf(StaleVersionException.class);
    assertThat(store.agreements().find(ghost.id())).isEmpty();
  }

  @Test
  void timersFireOncePerClaimAndCanBeMoved() {
    AgreementRow a = created("timer");
    java.time.Instant due = T0.plusSeconds(100);
    store.writes().apply(List.of(new Write.SetTimer(TimerRow.of(a.id(), "t", due))));
    assertThat(
            store.timers().claimDue(due.minusMillis(1), "n1", java.time.Duration.ofSeconds(60), 10))
        .isEmpty();
    List<TimerRow> claimed =
        store.timers().claimDue(due, "n1", java.time.Duration.ofSeconds(60), 1000).stream()
            .filter(t -> t.agreementId().equals(a.id()))
            .toList();
    assertThat(claimed).extracting(TimerRow::id).containsExactly(a.id() + ":t");
    // Another node does not get it while the lease runs; it does once the lease has expired.
    assertThat(
            store
                .timers()
                .claimDue(due.plusSeconds(1), "n2", java.time.Duration.ofSeconds(60), 1000))
        .noneMatch(t -> t.agreementId().equals(a.id()));
    assertThat(
            store
                .timers()
                .claimDue(due.plusSeconds(61), "n2", java.time.Duration.ofSeconds(60), 1000))
        .anyMatch(t -> t.agreementId().equals(a.id()));
    store.timers().finish(claimed.getFirst(), "n2", due.plusSeconds(62));
    assertThat(store.timers().pending(a.id())).isEmpty();
    // Setting it again moves it and makes it pending again.
    store
        .writes()
        .apply(List.of(new Write.SetTimer(TimerRow.of(a.id(), "t", due.plusSeconds(500)))));
    assertThat(store.timers().pending(a.id()))
        .extracting(TimerRow::dueAt)
        .containsExactly(due.plusSeconds(500));
  }

  @Test
  void aFailedTimerCountsItsAttemptsMovesToItsRetryAndOnceDeadIsNeverClaimedUntilSetAgain() {
    AgreementRow a = created("timer-fail");
    java.time.Instant due = T0.plusSeconds(100);
    java.time.Duration lease = java.time.Duration.ofSeconds(60);
    String id = a.id() + ":t";
    TimerRow timer = TimerRow.of(a.id(), "t", due);
    store.writes().apply(List.of(new Write.SetTimer(TimerRow.of(a.id(), "t", due))));
    assertThat(store.timers().pending(a.id())).containsExactly(TimerRow.of(a.id(), "t", due));
    assertThat(mine(store.timers().claimDue(due, "n1", lease, 1000), a)).hasSize(1);
    store.timers().fail(timer, "n2", "not mine", due.plusSeconds(5), due);
    assertThat(store.timers().pending(a.id()).getFirst().attempts())
        .as("only the node holding the claim records a failure")
        .isZero();
    store.timers().fail(timer, "n1", "boom", due.plusSeconds(5), due);
    assertThat(store.timers().pending(a.id()))
        .containsExactly(new TimerRow(id, a.id(), "t", due.plusSeconds(5), 1, "boom"));
    // The claim is released: due again at the retry, not before, and not only after the lease.
    assertThat(mine(store.timers().claimDue(due.plusSeconds(4), "n2", lease, 1000), a)).isEmpty();
    List<TimerRow> again = mine(store.timers().claimDue(due.plusSeconds(5), "n2", lease, 1000), a);
    assertThat(again).extracting(TimerRow::attempts).containsExactly(1);
    // Dead: not pending, never claimed, listed with its attempts and last error.
    store.timers().fail(timer, "n2", "boom again", null, due.plusSeconds(6));
    assertThat(store.timers().pending(a.id())).isEmpty();
    assertThat(mine(store.timers().claimDue(due.plusSeconds(86_400), "n3", lease, 1000), a))
        .isEmpty();
    assertThat(store.timers().dead(1000))
        .filteredOn(t -> t.agreementId().equals(a.id()))
        .containsExactly(new TimerRow(id, a.id(), "t", due.plusSeconds(5), 2, "boom again"));
    store.timers().finish(timer, "n2", due.plusSeconds(7));
    assertThat(store.timers().dead(1000)).anyMatch(t -> t.id().equals(id));
    // Setting it again makes it live with no failures.
    store
        .writes()
        .apply(List.of(new Write.SetTimer(TimerRow.of(a.id(), "t", due.plusSeconds(500)))));
    assertThat(store.timers().dead(1000)).noneMatch(t -> t.id().equals(id));
    assertThat(store.timers().pending(a.id()))
        .containsExactly(TimerRow.of(a.id(), "t", due.plusSeconds(500)));
    assertThat(mine(store.timers().claimDue(due.plusSeconds(500), "n3", lease, 1000), a))
        .hasSize(1);
  }

  private static List<TimerRow> mine(List<TimerRow> timers, AgreementRow a) {
    return timers.stream().filter(t -> t.agreementId().equals(a.id())).toList();
  }

  @Test
  void aDeadOutboxMessageKeepsItsAttemptsAndErrorAndIsNeverClaimedAgain() {
    AgreementRow a = created("outbox-dead");
    var m =
        new dev.asa.server.store.escrow.OutboxMessage(
            "msg-" + a.id(), a.id(), "escrow.release", "http://x/", "{\"a\":1}", T0, 0);
    store.writes().apply(List.of(new Write.Enqueue(m)));
    java.time.Duration lease = java.time.Duration.ofSeconds(60);
    assertThat(store.outbox().claimDue(T0, "n1", lease, 1000)).anyMatch(x -> x.id().equals(m.id()));
    store
        .outbox()
        .recordAttempt(
            m.id(), "n1", OutboxRow.Status.PENDING, T0.plusSeconds(1), "HTTP 500", null, null);
    assertThat(store.outbox().claimDue(T0.plusSeconds(1), "n1", lease, 1000))
        .filteredOn(x -> x.id().equals(m.id()))
        .extracting(dev.asa.server.store.escrow.OutboxMessage::attempts)
        .containsExactly(1);
    store
        .outbox()
        .recordAttempt(
            m.id(), "n1", OutboxRow.Status.DEAD, T0.plusSeconds(1), "HTTP 500 again", null, null);
    OutboxRow row = store.outbox().messagesOf(a.id()).getFirst();
    assertThat(row.status()).isEqualTo(OutboxRow.Status.DEAD);
    assertThat(row.attempts()).isEqualTo(2);
    assertThat(row.lastError()).isEqualTo("HTTP 500 again");
    assertThat(row.deliveredAt()).isNull();
    assertThat(store.outbox().claimDue(T0.plusSeconds(86_400 * 30L), "n2", lease, 1000))
        .noneMatch(x -> x.id().equals(m.id()));
  }

  // ---- escrow: ledger, outbox, authorizations ----

  private static dev.asa.agreement.Money usd(String amount) {
    return new dev.asa.agreement.Money(
        new java.math.BigDecimal(amount), dev.asa.agreement.Currency.of("USD").orElseThrow());
  }

  @Test
  void aTransferIsTwoBalancedEntriesAndAnAgreementGetsOneOfEachKind() {
    AgreementRow a = created("ledger");
    var hold =
        new dev.asa.ledger.Transfer(
            a.id(),
            dev.asa.ledger.Transfer.Kind.HOLD,
            "party:c",
            "escrow:" + a.id(),
            usd("10.00"),
            T0);
    var release =
        new dev.asa.ledger.Transfer(
            a.id(),
            dev.asa.ledger.Transfer.Kind.RELEASE,
            "escrow:" + a.id(),
            "party:p",
            usd("8.50"),
            T0);
    store.writes().apply(List.of(new Write.PostTransfer(hold), new Write.PostTransfer(release)));
    List<LedgerEntry> entries = store.ledger().entriesOfAgreement(a.id());
    assertThat(entries).hasSize(4);
    assertThat(
            entries.stream()
                .map(LedgerEntry::signedAmount)
                .reduce(java.math.BigDecimal.ZERO, java.math.BigDecimal::add))
        .isEqualByComparingTo("0");
    assertThat(store.ledger().entriesOfAccount("party:p", 10))
        .singleElement()
        .satisfies(e -> assertThat(e.amount()).isEqualTo(usd("8.50")));
    // A second release of the same agreement is refused, with the whole transaction.
    var again =
        new dev.asa.ledger.Transfer(
            a.id(),
            dev.asa.ledger.Transfer.Kind.RELEASE,
            "escrow:" + a.id(),
            "party:p",
            usd("1.50"),
            T0);
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            store
                .writes()
                .apply(
                    List.of(
                        new Write.SetTimer(TimerRow.of(a.id(), "side", T0)),
                        new Write.PostTransfer(again))))
        .isInstanceOf(DuplicateKeyException.class);
    assertThat(store.ledger().entriesOfAgreement(a.id())).hasSize(4);
    assertThat(store.timers().pending(a.id())).isEmpty();
  }

  @Test
  void aHoldIsSpentOnceWhenAChangeOfTheAgreementAndASideWriteRaceForIt() throws Exception {
    // The change's transfer takes no lock of its own (its update of the row holds it); the side
    // write takes the row lock first. Either way round, one of them pays and the other is refused.
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 8; round++) {
        AgreementRow a = created("race-" + round);
        String escrow = "escrow:" + a.id();
        var hold = tenDollars(a, dev.asa.ledger.Transfer.Kind.HOLD, "party:c-" + a.id(), escrow);
        store.writes().apply(List.of(new Write.PostTransfer(hold)));
        var release =
            tenDollars(a, dev.asa.ledger.Transfer.Kind.RELEASE, escrow, "party:p-" + a.id());
        var refund =
            tenDollars(a, dev.asa.ledger.Transfer.Kind.REFUND, escrow, "party:c-" + a.id());
        CountDownLatch start = new CountDownLatch(1);
        Future<?> change =
            pool.submit(() -> {
              start.await();
              store
                  .writes()
                  .commit(
                      new Commit(
                          a,
                          next(a, State.VERIFIED),
                          List.of(event(a.id(), 2)),
                          List.of(new Write.PostTransfer(release))));
              return null;
            });
        Future<?> side =
            pool.submit(() -> {
              start.await();
              store.writes().apply(List.of(new Write.PostTransfer(refund)));
              return null;
            });
        start.countDown();
        int paid = 0;
        for (Future<?> f : List.of(change, side)) {
          try {
            f.get(30, TimeUnit.SECONDS);
            paid++;
          } catch (java.util.concurrent.ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(LedgerRefusedException.class);
          }
        }
        assertThat(paid).as("transfers out of one hold of 10.00, round " + round).isEqualTo(1);
        assertThat(
                store.ledger().entriesOfAgreement(a.id()).stream()
                    .filter(e -> e.account().equals(escrow))
                    .map(LedgerEntry::signedAmount)
                    .reduce(BigDecimal.ZERO, BigDecimal::add))
            .isEqualByComparingTo("0");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private dev.asa.ledger.Transfer tenDollars(
      AgreementRow a, dev.asa.ledger.Transfer.Kind kind, String from, String to) {
    return new dev.asa.ledger.Transfer(a.id(), kind, from, to, usd("10.00"), T0);
  }

  @Test
  void theLedgerPaysOutOfAnEscrowOnlyWhatItHolds() {
    AgreementRow a = created("overdraft");
    String escrow = "escrow:" + a.id();
    String client =
        "party:c-" + a.id(); // accounts of their own: the contract's store is shared by its tests
    String provider = "party:p-" + a.id();
    // A refund from an escrow nobody funded: refused, with the whole unit of work.
    var refund =
        new dev.asa.ledger.Transfer(
            a.id(), dev.asa.ledger.Transfer.Kind.REFUND, escrow, client, usd("10.00"), T0);
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            store
                .writes()
                .apply(
                    List.of(
                        new Write.SetTimer(TimerRow.of(a.id(), "side", T0)),
                        new Write.PostTransfer(refund))))
        .isInstanceOf(LedgerRefusedException.class)
        .hasMessageContaining("holds 0");
    assertThat(store.ledger().entriesOfAgreement(a.id())).isEmpty();
    assertThat(store.timers().pending(a.id())).isEmpty();
    // A hold of 10.00 pays out at most 10.00 in all: release 8.50, then a refund of 1.51 is one
    // cent too many.
    var hold =
        new dev.asa.ledger.Transfer(
            a.id(), dev.asa.ledger.Transfer.Kind.HOLD, client, escrow, usd("10.00"), T0);
    var release =
        new dev.asa.ledger.Transfer(
            a.id(), dev.asa.ledger.Transfer.Kind.RELEASE, escrow, provider, usd("8.50"), T0);
    var tooMuch =
        new dev.asa.ledger.Transfer(
            a.id(), dev.asa.ledger.Transfer.Kind.REFUND, escrow, client, usd("1.51"), T0);
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            store
                .writes()
                .apply(
                    List.of(
                        new Write.PostTransfer(hold),
                        new Write.PostTransfer(release),
                        new Write.PostTransfer(tooMuch))))
        .isInstanceOf(LedgerRefusedException.class)
        .hasMessageContaining("holds 1.50");
    assertThat(store.ledger().entriesOfAgreement(a.id())).isEmpty();
    var exact =
        new dev.asa.ledger.Transfer(
            a.id(), dev.asa.ledger.Transfer.Kind.REFUND, escrow, client, usd("1.50"), T0);
    store
        .writes()
        .apply(
            List.of(
                new Write.PostTransfer(hold),
                new Write.PostTransfer(release),
                new Write.PostTransfer(exact)));
    assertThat(
            store.ledger().entriesOfAgreement(a.id()).stream()
                .filter(e -> e.account().equals(escrow))
                .map(LedgerEntry::signedAmount)
                .reduce(java.math.BigDecimal.ZERO, java.math.BigDecimal::add))
        .isEqualByComparingTo("0");
    // Escrow money moves one way: a release that does not come out of the agreement's own escrow
    // cannot be built.
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            new dev.asa.ledger.Transfer(
                a.id(),
                dev.asa.ledger.Transfer.Kind.RELEASE,
                "escrow:other",
                provider,
                usd("1.00"),
                T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void outboxMessagesAreClaimedOnceAndRecordEachAttempt() {
    AgreementRow a = created("outbox");
    var m =
        new dev.asa.server.store.escrow.OutboxMessage(
            "msg-" + a.id(), a.id(), "escrow.release", "http://x/", "{\"a\":1}", T0, 0);
    store.writes().apply(List.of(new Write.Enqueue(m)));
    java.time.Duration lease = java.time.Duration.ofSeconds(60);
    assertThat(store.outbox().claimDue(T0, "n1", lease, 1000))
        .extracting(dev.asa.server.store.escrow.OutboxMessage::id)
        .contains(m.id());
    assertThat(store.outbox().claimDue(T0.plusSeconds(1), "n2", lease, 1000))
        .noneMatch(x -> x.id().equals(m.id()));
    store
        .outbox()
        .recordAttempt(
            m.id(), "n1", OutboxRow.Status.PENDING, T0.plusSeconds(30), "HTTP 503", null, null);
    OutboxRow row = store.outbox().messagesOf(a.id()).getFirst();
    assertThat(row.status()).isEqualTo(OutboxRow.Status.PENDING);
    assertThat(row.attempts()).isEqualTo(1);
    assertThat(row.lastError()).isEqualTo("HTTP 503");
    assertThat(store.outbox().claimDue(T0.plusSeconds(29), "n2", lease, 1000))
        .noneMatch(x -> x.id().equals(m.id()));
    assertThat(store.outbox().claimDue(T0.plusSeconds(30), "n2", lease, 1000))
        .anyMatch(x -> x.id().equals(m.id()));
    store
        .outbox()
        .recordAttempt(
            m.id(),
            "n1",
            OutboxRow.Status.DELIVERED,
            T0.plusSeconds(31),
            null,
            "HTTP 200",
            T0.plusSeconds(31));
    assertThat(store.outbox().messagesOf(a.id()).getFirst().status())
        .as("only the node holding the claim records")
        .isEqualTo(OutboxRow.Status.PENDING);
    store
        .outbox()
        .recordAttempt(
            m.id(),
            "n2",
            OutboxRow.Status.DELIVERED,
            T0.plusSeconds(31),
            null,
            "HTTP 200",
            T0.plusSeconds(31));
    row = store.outbox().messagesOf(a.id()).getFirst();
    assertThat(row.status()).isEqualTo(OutboxRow.Status.DELIVERED);
    assertThat(row.deliveredAt()).isEqualTo(T0.plusSeconds(31));
    assertThat(store.outbox().claimDue(T0.plusSeconds(3600), "n3", lease, 1000))
        .noneMatch(x -> x.id().equals(m.id()));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> store.writes().apply(List.of(new Write.Enqueue(m))))
        .isInstanceOf(DuplicateKeyException.class);
  }

  @Test
  void anAuthorizationIsKeptOncePerAgreement() {
    AgreementRow a = created("auth");
    assertThat(store.ledger().authorization(a.id())).isEmpty();
    store.writes().apply(List.of(new Write.PutAuthorization(a.id(), "x402", "{\"p\":1}", T0)));
    assertThat(store.ledger().authorization(a.id())).contains("{\"p\":1}");
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            store.writes().apply(List.of(new Write.PutAuthorization(a.id(), "x402", "{}", T0))))
        .isInstanceOf(DuplicateKeyException.class);
  }

  @Test
  void concurrentNodesClaimEachDueTimerExactlyOnce() throws Exception {
    AgreementRow a = created("timers");
    java.time.Instant due = T0.plusSeconds(10);
    List<Write> timers = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      timers.add(new Write.SetTimer(TimerRow.of(a.id(), "k" + i, due)));
    }
    store.writes().apply(timers);
    java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.AtomicInteger>
        fired = new java.util.concurrent.ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> nodes = new ArrayList<>();
      for (int n = 0; n < 4; n++) {
        String node = "node-" + n;
        nodes.add(
            pool.submit(() -> {
              for (int round = 0; round < 10; round++) {
                for (TimerRow t :
                    store.timers().claimDue(due, node, java.time.Duration.ofSeconds(60), 7)) {
                  if (t.agreementId().equals(a.id())) {
                    fired
                        .computeIfAbsent(
                            t.id(), k -> new java.util.concurrent.atomic.AtomicInteger())
                        .incrementAndGet();
                    store.timers().finish(t, node, due);
                  }
                }
              }
              return null;
            }));
      }
      for (Future<?> f : nodes) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(fired).hasSize(60);
    assertThat(fired.values()).allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
  }

  @Test
  void recentClosedListsTheNewestClosedAgreementsOfAType() {
    AgreementRow first = created("recent");
    AgreementRow second = created("recent");
    AgreementRow open = created("recent");
    store
        .writes()
        .commit(
            new Commit(first, next(first, State.CLOSED), List.of(event(first.id(), 2)), List.of()));
    store
        .writes()
        .commit(
            new Commit(
                second, next(second, State.CLOSED), List.of(event(second.id(), 2)), List.of()));
    List<String> closed =
        store.agreements().recentClosed("text.summarize", 1000).stream()
            .map(AgreementRow::id)
            .toList();
    assertThat(closed).contains(first.id(), second.id()).doesNotContain(open.id());
    assertThat(closed.indexOf(second.id())).isLessThan(closed.indexOf(first.id()));
    assertThat(store.agreements().recentClosed("text.summarize", 1)).hasSize(1);
    assertThat(store.agreements().recentClosed("no.such.type", 10)).isEmpty();
  }

  @Test
  void eventsComeBackInSeqOrderAndATakenSeqIsRefused() {
    AgreementRow v1 = created("events");
    String id = v1.id();
    AgreementRow v2 = next(v1, State.ACTIVE);
    // Handed over out of order: the log is ordered by seq, not by insertion.
    store.writes().commit(new Commit(v1, v2, List.of(event(id, 3), event(id, 2)), List.of()));
    assertThat(store.events().log(id)).extracting(EventRecord::seq).containsExactly(1L, 2L, 3L);
    assertThat(store.events().log(id).get(1)).isEqualTo(event(id, 2));
    assertThat(store.events().last(id)).contains(event(id, 3));
    assertThat(store.events().last(uniqueId("missing"))).isEmpty();

    AgreementRow v3 = next(v2, State.DELIVERED);
    assertThatThrownBy(
            () -> store.writes().commit(new Commit(v2, v3, List.of(event(id, 3)), List.of())))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining(id);

    // The version update of the failed commit was rolled back with it.
    assertThat(store.agreements().find(id)).contains(v2);
    assertThat(store.events().log(id)).hasSize(3);
  }

  @Test
  void anEndedAgreementsLogIsPackedIntoOneRowAndReadBackAsItWas() throws Exception {
    AgreementRow v1 = created("trail");
    String id = v1.id();
    AgreementRow v2 = next(v1, State.DELIVERED);
    store.writes().commit(new Commit(v1, v2, List.of(event(id, 2), event(id, 3)), List.of()));
    List<EventRecord> before = store.events().log(id);
    assertThat(rowsOfEvents(id)).isEqualTo(3);

    // The change that ends it packs the whole log, its own event included, into one row.
    AgreementRow closed = next(v2, State.CLOSED);
    store.writes().commit(new Commit(v2, closed, List.of(event(id, 4)), List.of()));
    assertThat(rowsOfEvents(id)).as("no event rows left").isZero();
    List<EventRecord> after = store.events().log(id);
    assertThat(after.subList(0, 3)).isEqualTo(before);
    assertThat(after).containsExactly(event(id, 1), event(id, 2), event(id, 3), event(id, 4));
    assertThat(store.events().last(id)).contains(event(id, 4));
    assertThat(store.agreements().find(id)).contains(closed);

    // A later change of the ended agreement packs its event with the rest; seqs stay in order.
    AgreementRow later = next(closed, State.CLOSED);
    store.writes().commit(new Commit(closed, later, List.of(event(id, 5)), List.of()));
    assertThat(rowsOfEvents(id)).isZero();
    assertThat(store.events().log(id))
        .extracting(EventRecord::seq)
        .containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(store.events().last(id)).contains(event(id, 5));
  }

  @Test
  void anAgreementReadForAChangeComesWithTheHeadOfItsLogWhileTheLogIsInRows() throws Exception {
    AgreementRow v1 = created("head");
    String id = v1.id();
    assertThat(store.agreements().findForChange(id))
        .contains(new AgreementStore.ForChange(v1, Optional.of(ChainHead.of(event(id, 1)))));
    AgreementRow v2 = next(v1, State.DELIVERED);
    store.writes().commit(new Commit(v1, v2, List.of(event(id, 2), event(id, 3)), List.of()));
    assertThat(store.agreements().findForChange(id))
        .contains(new AgreementStore.ForChange(v2, Optional.of(ChainHead.of(event(id, 3)))));

    // Packed when it ends: no head with the row; the trail's last event is the one to chain to.
    AgreementRow closed = next(v2, State.CLOSED);
    store.writes().commit(new Commit(v2, closed, List.of(event(id, 4)), List.of()));
    assertThat(store.agreements().findForChange(id))
        .contains(new AgreementStore.ForChange(closed, Optional.empty()));
    assertThat(store.events().last(id).map(ChainHead::of)).contains(ChainHead.of(event(id, 4)));
    assertThat(store.agreements().findForChange("asa-no-such")).isEmpty();
  }

  @Test
  void anAgreementThatEndedBeforeTrailsKeepsItsRowsUntilItsNextEvent() throws Exception {
    AgreementRow v1 = created("old-ended");
    String id = v1.id();
    AgreementRow v2 = next(v1, State.ACTIVE);
    store.writes().commit(new Commit(v1, v2, List.of(event(id, 2)), List.of()));
    // Ended by a change without events, as an agreement that ended before V024 is stored: rows.
    AgreementRow ended = next(v2, State.EXPIRED);
    store.writes().commit(new Commit(v2, ended, List.of(), List.of()));
    assertThat(rowsOfEvents(id)).isEqualTo(2);
    assertThat(store.events().log(id)).containsExactly(event(id, 1), event(id, 2));
    assertThat(store.events().last(id)).contains(event(id, 2));

    // Its next change with an event packs the rows and the new event together.
    store
        .writes()
        .commit(new Commit(ended, next(ended, State.EXPIRED), List.of(event(id, 3)), List.of()));
    assertThat(rowsOfEvents(id)).isZero();
    assertThat(store.events().log(id)).containsExactly(event(id, 1), event(id, 2), event(id, 3));
  }

  @Test
  void aChangeThatKeepsTheDocumentsTextLeavesItsBytesAndTheEndingOneWritesItAgain()
      throws Exception {
    AgreementRow v1 = created("keep-document");
    String id = v1.id();
    AgreementRow v2 = withDocument(next(v1, State.ACTIVE), v1.document());
    store.writes().commit(new Commit(v1, v2, List.of(event(id, 2)), List.of()));
    assertThat(store.agreements().find(id)).contains(v2);
    byte[] stored = storedDocument(id);

    AgreementRow v3 = withDocument(next(v2, State.DELIVERED), v1.document());
    store.writes().commit(new Commit(v2, v3, List.of(event(id, 3)), List.of()));
    assertThat(store.agreements().find(id)).contains(v3);
    assertThat(storedDocument(id)).as("the column left as it was").isEqualTo(stored);

    // A changed document is written; so is the last row, packed for good.
    AgreementRow v4 = next(v3, State.DELIVERED);
    store.writes().commit(new Commit(v3, v4, List.of(), List.of()));
    assertThat(store.agreements().find(id)).contains(v4);
    AgreementRow closed = withDocument(next(v4, State.CLOSED), v4.document());
    store.writes().commit(new Commit(v4, closed, List.of(event(id, 4)), List.of()));
    assertThat(store.agreements().find(id)).contains(closed);
  }

  /**
   * An event at a seq the log already holds is refused by name, and the change with it writes
   * nothing (the events are a batch of plain statements: their driver's error is read as JDBI's).
   */
  @Test
  void anEventAtATakenSeqIsRefusedByNameAndTheChangeWritesNothing() {
    AgreementRow v1 = created("taken-seq");
    String id = v1.id();
    AgreementRow v2 = next(v1, State.ACTIVE);
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            store
                .writes()
                .commit(new Commit(v1, v2, List.of(event(id, 2), event(id, 1)), List.of())))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining("an event seq of agreement " + id + " is already taken");
    assertThat(store.agreements().find(id)).contains(v1);
    assertThat(store.events().log(id)).containsExactly(event(id, 1));
  }

  private static AgreementRow withDocument(AgreementRow r, String document) {
    return new AgreementRow(
        r.id(),
        r.version(),
        r.state(),
        document,
        r.facts(),
        r.serviceType(),
        r.clientIdentity(),
        r.providerIdentity(),
        r.evaluatorIdentity(),
        r.createdAt(),
        r.updatedAt(),
        r.amount(),
        r.currency());
  }

  /** The agreement's document column as stored (packed), read from the table itself. */
  private byte[] storedDocument(String id) throws SQLException {
    try (Connection c = rawConnection();
        PreparedStatement s = c.prepareStatement("SELECT document FROM agreements WHERE id = ?")) {
      s.setString(1, id);
      try (var rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getBytes(1);
      }
    }
  }

  /** How many rows of agreement_events the agreement has, read from the table itself. */
  private int rowsOfEvents(String id) throws SQLException {
    try (Connection c = rawConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT count(*) FROM agreement_events WHERE agreement_id = ?")) {
      s.setString(1, id);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  @Test
  void concurrentCommitsOfTheSameVersionHaveExactlyOneWinner() throws Exception {
    AgreementRow v1 = created("race");
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    String evaluators = uniqueId("evaluator");
    try {
      List<Future<String>> outcomes = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int n = t;
        outcomes.add(
            pool.submit(() -> {
              AgreementRow mine =
                  agreement(
                      v1.id(),
                      2,
                      State.ACTIVE,
                      v1.clientIdentity(),
                      v1.providerIdentity(),
                      evaluators + "-" + n,
                      v1.createdAt());
              ready.countDown();
              go.await();
              try {
                store.writes().commit(new Commit(v1, mine, List.of(event(v1.id(), 2)), List.of()));
                return "won";
              } catch (StaleVersionException e) {
                return "stale";
              }
            }));
      }
      ready.await(10, TimeUnit.SECONDS);
      go.countDown();
      List<String> results = new ArrayList<>();
      for (Future<String> outcome : outcomes) {
        results.add(outcome.get(30, TimeUnit.SECONDS));
      }
      assertThat(results).containsOnlyOnce("won").filteredOn("stale"::equals).hasSize(7);
    } finally {
      pool.shutdownNow();
    }
    assertThat(store.agreements().find(v1.id()).orElseThrow().version()).isEqualTo(2);
    assertThat(store.events().log(v1.id())).extracting(EventRecord::seq).containsExactly(1L, 2L);
    // The winner's row is the one stored, parties included.
    String winner = store.agreements().find(v1.id()).orElseThrow().evaluatorIdentity();
    assertThat(store.agreements().listByParty(winner, null, 10).items()).hasSize(1);
  }

  // ---- deliverables ----

  @Test
  void deliverablesLatestAttemptAndErasureKeepsTheHash() throws SQLException {
    AgreementRow v1 = created("deliver");
    String id = v1.id();
    DeliverableRow first = deliverable(id, 1, "first attempt: secret content");
    DeliverableRow second = deliverable(id, 2, "second attempt: more secret content");

    store.writes().apply(List.of(new Write.PutDeliverable(first)));
    assertThat(store.deliverables().latest(id)).contains(first);
    store.writes().apply(List.of(new Write.PutDeliverable(second)));
    assertThat(store.deliverables().latest(id)).contains(second);

    assertThatThrownBy(() -> store.writes().apply(List.of(new Write.PutDeliverable(first))))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining("attempt 1");

    store
        .writes()
        .commit(
            new Commit(
                v1,
                next(v1, State.VERIFIED),
                List.of(event(id, 2)),
                List.of(new Write.EraseDeliverableContent(id))));

    DeliverableRow erased = store.deliverables().latest(id).orElseThrow();
    assertThat(erased.content()).isNull();
    assertThat(erased)
        .isEqualTo(
            new DeliverableRow(
                id,
                2,
                second.contentHash(),
                second.contentUrl(),
                second.format(),
                null,
                second.sizeBytes(),
                second.deliveredAt()));

    // Look at the table itself: the content of every attempt is gone, the hashes stay.
    try (Connection c = rawConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT attempt, content_hash, content FROM deliverables WHERE agreement_id = ?"
                    + " ORDER BY attempt")) {
      s.setString(1, id);
      try (ResultSet rs = s.executeQuery()) {
        List<String> hashes = new ArrayList<>();
        while (rs.next()) {
          hashes.add(rs.getString(2));
          assertThat(rs.getString(3)).as("content of attempt " + rs.getInt(1)).isNull();
        }
        assertThat(hashes).containsExactly(first.contentHash(), second.contentHash());
      }
    }
    assertThat(store.deliverables().latest(uniqueId("none"))).isEmpty();
  }

  @Test
  void anErasureRepeatedInOneTransactionStillErasesWhatWasPutBetween() throws SQLException {
    // A repeated erasure runs once per transaction; one after a new deliverable must run again.
    AgreementRow v1 = created("erase-twice");
    String id = v1.id();
    DeliverableRow first = deliverable(id, 1, "first attempt: secret content");
    DeliverableRow second = deliverable(id, 2, "second attempt: more secret content");
    store.writes().apply(List.of(new Write.PutDeliverable(first)));

    store
        .writes()
        .apply(
            List.of(
                new Write.EraseDeliverableContent(id),
                new Write.EraseDeliverableContent(id),
                new Write.PutDeliverable(second),
                new Write.EraseDeliverableContent(id)));

    try (Connection c = rawConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*) FROM deliverables WHERE agreement_id = ? AND content IS NOT NULL")) {
      s.setString(1, id);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        assertThat(rs.getInt(1)).as("deliverables still holding content").isZero();
      }
    }
    assertThat(store.deliverables().latest(id).orElseThrow().attempt()).isEqualTo(2);
  }

  @Test
  void theTasksOfTheLatestDeliveryAreReadWithTheDeliveryInOneStatement() {
    AgreementRow v1 = created("latest-tasks");
    String id = v1.id();
    assertThat(store.tasks().ofLatestDelivery(id)).as("before any delivery").isEmpty();
    store
        .writes()
        .apply(
            List.of(
                new Write.PutDeliverable(deliverable(id, 1, "first")),
                new Write.PutTask(realTask(id + "-t1", id, 1)),
                new Write.PutDeliverable(deliverable(id, 2, "second")),
                new Write.PutTask(realTask(id + "-t2", id, 2))));

    assertThat(store.tasks().ofLatestDelivery(id))
        .extracting(TaskRow::id)
        .containsExactly(id + "-t2");
    assertThat(store.tasks().ofLatestDelivery(id)).isEqualTo(store.tasks().ofDelivery(id, 2));
  }

  private static TaskRow realTask(String taskId, String agreementId, int delivery) {
    return new TaskRow(
        taskId,
        "evaluator-key",
        agreementId,
        delivery,
        TaskRow.Kind.REAL,
        null,
        "research",
        false,
        null,
        "the deliverable",
        null,
        TaskRow.Status.OPEN,
        null,
        T0,
        T0.plusSeconds(3600),
        null,
        null);
  }

  @Test
  void aDeliverableForAnUnknownAgreementIsRefused() {
    assertThatThrownBy(() ->
            store
                .writes()
                .apply(List.of(new Write.PutDeliverable(deliverable(uniqueId("nobody"), 1, "x")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not exist");
  }

  // ---- verifications ----

  @Test
  void verificationsPutGetAndListOldestFirst() {
    AgreementRow v1 = created("verify");
    String id = v1.id();
    VerificationRow standalone =
        new VerificationRow(uniqueId("v-alone"), null, "sha256:s", "{\"passed\":true}", null, T0);
    VerificationRow later =
        new VerificationRow(
            uniqueId("v-later"),
            id,
            "sha256:b",
            "{\"composite\":{\"score\":0.9}}",
            new BigDecimal("0.9"),
            T0.plusSeconds(2));
    VerificationRow earlier =
        new VerificationRow(
            uniqueId("v-earlier"),
            id,
            "sha256:a",
            "{\"composite\":{\"score\":0.40}}",
            new BigDecimal("0.40"),
            T0.plusSeconds(1));

    store.writes().apply(List.of(new Write.PutVerification(standalone)));
    store
        .writes()
        .apply(List.of(new Write.PutVerification(later), new Write.PutVerification(earlier)));

    assertThat(store.verifications().find(standalone.id())).contains(standalone);
    assertThat(store.verifications().find(later.id())).contains(later);
    assertThat(store.verifications().find(uniqueId("missing"))).isEmpty();
    assertThat(store.verifications().ofAgreement(id)).containsExactly(earlier, later);
    assertThat(store.verifications().ofAgreement(uniqueId("none"))).isEmpty();

    assertThatThrownBy(() -> store.writes().apply(List.of(new Write.PutVerification(standalone))))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining(standalone.id());
  }

  // ---- a provider's track record, in one query each ----

  @Test
  void pastCompositesAreTheLatestScoresOfTheProvidersOtherAgreementsOldestFirst() {
    String provider = uniqueId("provider");
    AgreementRow rescored = providedBy(provider, "client-a", "text.summarize");
    verify(rescored, "0.5", T0.plusSeconds(1));
    verify(rescored, "0.7", T0.plusSeconds(2)); // the latest verification is the one that counts
    providedBy(provider, "client-a", "text.summarize"); // never verified
    AgreementRow asClient = providedBy(provider + "-other", provider, "text.summarize");
    verify(asClient, "0.9", T0.plusSeconds(3)); // the provider was the client there
    AgreementRow latestUnscored = providedBy(provider, "client-b", "code.review");
    verify(latestUnscored, "0.1", T0.plusSeconds(4));
    verify(latestUnscored, null, T0.plusSeconds(5));
    AgreementRow other = providedBy(provider, "client-b", "code.review");
    verify(other, "85", T0.plusSeconds(6));
    AgreementRow current = providedBy(provider, "client-a", "text.summarize");
    verify(current, "0.99", T0.plusSeconds(7));

    VerificationStore verifications = store.verifications();
    assertThat(verifications.pastComposites(provider, current.id(), 10))
        .containsExactly(new BigDecimal("0.7"), new BigDecimal("85"));
    assertThat(verifications.pastComposites(provider, current.id(), 1))
        .containsExactly(new BigDecimal("85"));
    assertThat(verifications.pastComposites(provider, other.id(), 10))
        .containsExactly(new BigDecimal("0.7"), new BigDecimal("0.99"));
    assertThat(verifications.pastComposites(uniqueId("stranger"), current.id(), 10)).isEmpty();
    assertThatThrownBy(() -> verifications.pastComposites(provider, current.id(), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aSeriesIsTheLatestVerificationOfEachAgreementWithTheClientForTheTypeOldestFirst() {
    String provider = uniqueId("provider");
    String client = uniqueId("client");
    AgreementRow reverified = providedBy(provider, client, "text.summarize");
    verify(reverified, "0.2", T0.plusSeconds(10));
    VerificationRow latest = verify(reverified, "0.6", T0.plusSeconds(30));
    AgreementRow earlierVerified = providedBy(provider, client, "text.summarize");
    VerificationRow earlier = verify(earlierVerified, "0.4", T0.plusSeconds(20));
    verify(providedBy(provider, uniqueId("client"), "text.summarize"), "0.9", T0.plusSeconds(40));
    verify(providedBy(provider, client, "code.review"), "0.9", T0.plusSeconds(50));
    providedBy(provider, client, "text.summarize"); // never verified
    AgreementRow current = providedBy(provider, client, "text.summarize");
    verify(current, "0.9", T0.plusSeconds(60));

    VerificationStore verifications = store.verifications();
    assertThat(verifications.series(provider, client, "text.summarize", current.id(), 10))
        .containsExactly(earlier, latest);
    assertThat(verifications.series(provider, client, "text.summarize", current.id(), 1))
        .containsExactly(latest);
    assertThat(verifications.series(provider, client, "other.type", current.id(), 10)).isEmpty();
    assertThatThrownBy(
            () -> verifications.series(provider, client, "text.summarize", current.id(), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private AgreementRow providedBy(String provider, String client, String serviceType) {
    String id = uniqueId("provided");
    AgreementRow row =
        new AgreementRow(id, 1, State.ACTIVE, "{}", serviceType, client, provider, null, T0, T0);
    store.writes().createAgreement(row, List.of(event(id, 1)), List.of());
    return row;
  }

  /** Records a verification of the agreement with this composite score (null: none). */
  private VerificationRow verify(AgreementRow a, String composite, Instant at) {
    String result =
        composite == null ? "{\"passed\":true}" : "{\"composite\":{\"score\":" + composite + "}}";
    VerificationRow row =
        VerificationRow.of(uniqueId("v"), a.id(), "sha256:x", Json.parseTrusted(result), at);
    store.writes().apply(List.of(new Write.PutVerification(row)));
    return row;
  }

  // ---- verification jobs ----

  @Test
  void theLatestAttemptOfARequestIsTheLastOfItsUnbrokenSeries() {
    String request = uniqueId("request");
    assertThat(store.jobs().latestAttempt(request)).isEmpty();
    JobRow first = job(request + ":1");
    store.writes().apply(List.of(new Write.PutJob(first)));
    assertThat(store.jobs().latestAttempt(request)).contains(first);
    JobRow second = job(request + ":2");
    JobRow afterAGap = job(request + ":4"); // not part of the series
    store
        .writes()
        .apply(
            List.of(
                new Write.PutJob(second),
                new Write.PutJob(afterAGap),
                new Write.PutJob(job(request + ":x:3")),
                new Write.PutJob(job(request + "-other:3"))));
    assertThat(store.jobs().latestAttempt(request)).contains(second);
    assertThat(store.jobs().find(afterAGap.id())).contains(afterAGap);
    assertThat(store.jobs().latestAttempt(request + ":x")).isEmpty();
  }

  @Test
  void aJobRecordsItsProgressAndFinishesOnce() {
    JobRow job = job(uniqueId("request") + ":1");
    store.writes().apply(List.of(new Write.PutJob(job)));
    assertThat(store.jobs().find(job.id())).contains(job);
    assertThat(store.jobs().unfinished()).contains(job);
    assertThat(store.jobs().recordProgress(job.id(), JobRow.Status.RUNNING, "judging", 1, 3, T0))
        .isTrue();
    assertThat(store.jobs().find(job.id()).orElseThrow().stage()).isEqualTo("judging");
    store.writes().apply(List.of(new Write.FinishJob(job.id(), JobRow.Status.COMPLETED, null, T0)));
    JobRow finished = store.jobs().find(job.id()).orElseThrow();
    assertThat(finished.status()).isEqualTo(JobRow.Status.COMPLETED);
    assertThat(finished.content()).isNull();
    assertThat(store.jobs().unfinished()).doesNotContain(job);
    assertThat(store.jobs().recordProgress(job.id(), JobRow.Status.RUNNING, "late", 2, 3, T0))
        .isFalse();
    assertThatThrownBy(() ->
            store
                .writes()
                .apply(List.of(new Write.FinishJob(job.id(), JobRow.Status.FAILED, "again", T0))))
        .isInstanceOf(DuplicateKeyException.class);
    assertThatThrownBy(() -> store.writes().apply(List.of(new Write.PutJob(job))))
        .isInstanceOf(DuplicateKeyException.class);
  }

  @Test
  void aJobInsertedFinishedReadsBackAsOneQueuedAndThenFinished() {
    JobRow queued = job(uniqueId("request") + ":1");
    Instant at = T0.plusSeconds(2);
    store.writes().apply(List.of(new Write.PutJob(queued)));
    store
        .writes()
        .apply(List.of(new Write.FinishJob(queued.id(), JobRow.Status.COMPLETED, null, at)));
    JobRow inserted = job(uniqueId("request") + ":1");
    store
        .writes()
        .apply(List.of(new Write.PutJob(inserted.finished(JobRow.Status.COMPLETED, null, at))));

    JobRow finishedLater = store.jobs().find(queued.id()).orElseThrow();
    JobRow finishedAtOnce = store.jobs().find(inserted.id()).orElseThrow();
    assertThat(finishedAtOnce)
        .usingRecursiveComparison()
        .ignoringFields("id", "requestKey")
        .isEqualTo(finishedLater);
    assertThat(finishedAtOnce.content()).isNull();
    assertThat(store.jobs().unfinished()).doesNotContain(finishedAtOnce);
    assertThatThrownBy(() ->
            store
                .writes()
                .apply(
                    List.of(new Write.FinishJob(inserted.id(), JobRow.Status.FAILED, "again", at))))
        .as("a job inserted finished finishes once too")
        .isInstanceOf(DuplicateKeyException.class);
  }

  private static JobRow job(String requestKey) {
    return new JobRow(
        uniqueId("job"),
        requestKey,
        null,
        "sha256:d",
        "key caller",
        "{}",
        "the content",
        JobRow.Status.QUEUED,
        "queued",
        0,
        1,
        null,
        T0,
        T0,
        T0.plusSeconds(600));
  }

  // ---- idempotency ----

  @Test
  void idempotencyPutGetAndDuplicate() {
    String scope = uniqueId("caller") + " POST /v1/agreements";
    IdempotencyRow row =
        new IdempotencyRow(scope, "key-1", "sha256:req", 201, "{\"agreement_id\":\"a-1\"}", T0);
    store.writes().apply(List.of(new Write.PutIdempotency(row)));

    assertThat(store.idempotency().find(scope, "key-1")).contains(row);
    assertThat(store.idempotency().find(scope, "key-2")).isEmpty();
    assertThat(store.idempotency().find(scope + "x", "key-1")).isEmpty();

    IdempotencyRow racer = new IdempotencyRow(scope, "key-1", "sha256:other", 200, "{}", T0);
    assertThatThrownBy(() -> store.writes().apply(List.of(new Write.PutIdempotency(racer))))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining("key-1");
    assertThat(store.idempotency().find(scope, "key-1")).contains(row);

    // The same key in another scope (another caller) is independent.
    IdempotencyRow otherCaller = new IdempotencyRow(scope + "-b", "key-1", "h", 200, "{}", T0);
    store.writes().apply(List.of(new Write.PutIdempotency(otherCaller)));
    assertThat(store.idempotency().find(scope + "-b", "key-1")).contains(otherCaller);
  }

  @Test
  void createCarriesItsIdempotencyRecordAtomically() {
    String scope = uniqueId("caller");
    AgreementRow row = agreement(uniqueId("with-key"), 1, State.PROPOSED);
    IdempotencyRow key = new IdempotencyRow(scope, "k", "h", 201, "{}", T0);
    store
        .writes()
        .createAgreement(row, List.of(event(row.id(), 1)), List.of(new Write.PutIdempotency(key)));
    assertThat(store.idempotency().find(scope, "k")).contains(key);

    // The loser of an idempotency race creates nothing.
    AgreementRow loser = agreement(uniqueId("loser"), 1, State.PROPOSED);
    assertThatThrownBy(() ->
            store
                .writes()
                .createAgreement(
                    loser, List.of(event(loser.id(), 1)), List.of(new Write.PutIdempotency(key))))
        .isInstanceOf(DuplicateKeyException.class);
    assertThat(store.agreements().find(loser.id())).isEmpty();
  }

  // ---- listing ----

  @Test
  void listByPartyPagesNewestFirstOverEveryRole() {
    String party = uniqueId("party");
    List<String> expectedNewestFirst = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String id = uniqueId("list-" + i);
      String client = i % 3 == 0 ? party : uniqueId("c");
      String provider = i % 3 == 1 ? party : uniqueId("p");
      String evaluator = i % 3 == 2 || i == 24 ? party : null;
      store
          .writes()
          .createAgreement(
              agreement(id, 1, State.PROPOSED, client, provider, evaluator, T0.plusSeconds(i)),
              List.of(event(id, 1)),
              List.of());
      expectedNewestFirst.addFirst(id);
    }

    List<AgreementRow> seen = new ArrayList<>();
    List<Integer> pageSizes = new ArrayList<>();
    String cursor = null;
    do {
      Page<AgreementRow> page = store.agreements().listByParty(party, cursor, 10);
      pageSizes.add(page.items().size());
      seen.addAll(page.items());
      cursor = page.nextCursor();
    } while (cursor != null && pageSizes.size() < 10);

    assertThat(pageSizes).containsExactly(10, 10, 5);
    assertThat(seen).extracting(AgreementRow::id).containsExactlyElementsOf(expectedNewestFirst);
    Set<String> roles = new HashSet<>();
    for (AgreementRow row : seen) {
      if (party.equals(row.clientIdentity())) {
        roles.add("client");
      }
      if (party.equals(row.providerIdentity())) {
        roles.add("provider");
      }
      if (party.equals(row.evaluatorIdentity())) {
        roles.add("evaluator");
      }
    }
    assertThat(roles).containsExactlyInAnyOrder("client", "provider", "evaluator");

    Page<AgreementRow> stranger = store.agreements().listByParty(uniqueId("stranger"), null, 10);
    assertThat(stranger.items()).isEmpty();
    assertThat(stranger.nextCursor()).isNull();

    Page<AgreementRow> exact = store.agreements().listByParty(party, null, 25);
    assertThat(exact.items()).hasSize(25);
    assertThat(exact.nextCursor()).isNull();
  }

  /** A row of {@code serviceType} created {@code second}s after T0, with an amount or none. */
  private AgreementRow priced(
      String serviceType, String client, State state, int second, String amount, String currency) {
    String id = uniqueId("priced");
    Instant at = T0.plusSeconds(second);
    AgreementRow row =
        new AgreementRow(
            id,
            1,
            state,
            "{}",
            "{}",
            serviceType,
            client,
            uniqueId("p"),
            null,
            at,
            at,
            amount,
            currency);
    store.writes().createAgreement(row, List.of(event(id, 1)), List.of());
    return row;
  }

  @Test
  void filtersNarrowListingsAndCountsInTheDatabase() {
    // A service type of this test's own: the all-agreements listing shares the database with the
    // other tests (on PostgreSQL).
    String type = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    String party = uniqueId("filtered");
    AgreementRow cheap = priced(type, party, State.PROPOSED, 1, "9.50", "USD");
    AgreementRow middle = priced(type, party, State.ACTIVE, 2, "10.00", "USD");
    AgreementRow dear = priced(type, party, State.ACTIVE, 3, "100.00", "USD");
    AgreementRow euros = priced(type, party, State.CLOSED, 4, "20.00", "EUR");
    AgreementRow unpriced = priced(type, party, State.ACTIVE, 5, null, null);
    AgreementRow elsewhere = priced(type + "_x", party, State.ACTIVE, 6, "10.00", "USD");
    assertThat(store.agreements().find(middle.id())).contains(middle);

    AgreementFilter any = AgreementFilter.NONE;
    AgreementFilter ofType = new AgreementFilter(null, type, null, null, null, null, null);
    assertThat(ids(store.agreements().listByParty(party, any, null, 10)))
        .containsExactly(
            elsewhere.id(), unpriced.id(), euros.id(), dear.id(), middle.id(), cheap.id());
    assertThat(ids(store.agreements().listByParty(party, ofType, null, 10)))
        .containsExactly(unpriced.id(), euros.id(), dear.id(), middle.id(), cheap.id());
    assertThat(ids(store.agreements().listAll(ofType, null, 10)))
        .containsExactly(unpriced.id(), euros.id(), dear.id(), middle.id(), cheap.id());

    AgreementFilter active = new AgreementFilter(State.ACTIVE, type, null, null, null, null, null);
    assertThat(ids(store.agreements().listAll(active, null, 10)))
        .containsExactly(unpriced.id(), dear.id(), middle.id());
    AgreementFilter window =
        new AgreementFilter(null, type, T0.plusSeconds(1), T0.plusSeconds(4), null, null, null);
    assertThat(ids(store.agreements().listAll(window, null, 10)))
        .as("both bounds exclusive")
        .containsExactly(dear.id(), middle.id());
    // As numbers, not text: "100.00" sorts before "9.50" as text.
    AgreementFilter range =
        new AgreementFilter(
            null, type, null, null, new BigDecimal("9.75"), new BigDecimal("100"), null);
    assertThat(ids(store.agreements().listAll(range, null, 10)))
        .containsExactly(euros.id(), dear.id(), middle.id());
    AgreementFilter dollars = new AgreementFilter(null, type, null, null, null, null, "USD");
    assertThat(ids(store.agreements().listAll(dollars, null, 10)))
        .containsExactly(dear.id(), middle.id(), cheap.id());
    assertThat(ids(store.agreements().listByParty(party, dollars, null, 10)))
        .containsExactly(dear.id(), middle.id(), cheap.id());

    // A party's page covers `limit` of its agreements and keeps those the filter keeps.
    Page<AgreementRow> first = store.agreements().listByParty(party, active, null, 2);
    assertThat(ids(first)).containsExactly(unpriced.id());
    Page<AgreementRow> second =
        store.agreements().listByParty(party, active, first.nextCursor(), 2);
    assertThat(ids(second)).containsExactly(dear.id());
    Page<AgreementRow> third =
        store.agreements().listByParty(party, active, second.nextCursor(), 2);
    assertThat(ids(third)).containsExactly(middle.id());
    assertThat(third.nextCursor()).isNull();
    // The operator's pages are full.
    Page<AgreementRow> full = store.agreements().listAll(ofType, null, 2);
    assertThat(ids(full)).containsExactly(unpriced.id(), euros.id());
    assertThat(ids(store.agreements().listAll(ofType, full.nextCursor(), 10)))
        .containsExactly(dear.id(), middle.id(), cheap.id());

    assertThat(store.agreements().countByState(null, active))
        .as("the state is not a filter of a count")
        .containsOnly(
            Map.entry(State.PROPOSED, 1L),
            Map.entry(State.ACTIVE, 3L),
            Map.entry(State.CLOSED, 1L));
    assertThat(store.agreements().countByState(party, dollars))
        .containsOnly(Map.entry(State.PROPOSED, 1L), Map.entry(State.ACTIVE, 2L));
    assertThat(store.agreements().countByState(uniqueId("nobody"), any)).isEmpty();
  }

  @Test
  void agreementTotalsCountAndSumEachStateByCurrency() {
    // A currency of this test's own, so that other tests' agreements do not count.
    String currency =
        "T"
            + UUID.randomUUID()
                .toString()
                .replace("-", "")
                .substring(0, 8)
                .toUpperCase(java.util.Locale.ROOT);
    String party = uniqueId("totals");
    priced("general", party, State.ACTIVE, 1, "0.10", currency);
    priced("general", party, State.ACTIVE, 2, "0.20", currency);
    priced("general", party, State.CLOSED, 3, "5", currency);
    List<StoreStatistics.AgreementTotal> ours =
        store.statistics().agreementTotals().stream()
            .filter(t -> currency.equals(t.currency()))
            .toList();
    assertThat(ours).hasSize(2);
    assertThat(ours.get(0).state()).isEqualTo(State.ACTIVE);
    assertThat(ours.get(0).count()).isEqualTo(2);
    assertThat(ours.get(0).amount())
        .isCloseTo(
            new BigDecimal("0.30"),
            org.assertj.core.data.Offset.offset(new BigDecimal("0.000001")));
    assertThat(ours.get(1).state()).isEqualTo(State.CLOSED);
    assertThat(ours.get(1).amount()).isEqualByComparingTo("5");
    assertThat(store.statistics().agreementTotals())
        .filteredOn(t -> t.currency() == null)
        .allSatisfy(t -> assertThat(t.amount()).isNull());
  }

  private static List<String> ids(Page<AgreementRow> page) {
    return page.items().stream().map(AgreementRow::id).toList();
  }

  @Test
  void listByPartyRefusesBadArguments() {
    assertThatThrownBy(() -> store.agreements().listByParty("x", "not a cursor", 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cursor");
    assertThatThrownBy(() -> store.agreements().listByParty("x", null, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aChangedPartyMovesTheAgreementBetweenListings() {
    AgreementRow v1 = created("reassign");
    String newProvider = uniqueId("new-provider");
    AgreementRow v2 =
        agreement(
            v1.id(),
            2,
            State.NEGOTIATING,
            v1.clientIdentity(),
            newProvider,
            v1.clientIdentity(),
            v1.createdAt()); // the client also becomes the evaluator

    store.writes().commit(new Commit(v1, v2, List.of(), List.of()));

    assertThat(store.agreements().listByParty(v1.providerIdentity(), null, 10).items()).isEmpty();
    assertThat(store.agreements().listByParty(v1.evaluatorIdentity(), null, 10).items()).isEmpty();
    assertThat(store.agreements().listByParty(newProvider, null, 10).items()).containsExactly(v2);
    assertThat(store.agreements().listByParty(v1.clientIdentity(), null, 10).items())
        .containsExactly(v2);
  }

  // ---- migrations and lifecycle ----

  @Test
  void aSealIsStoredOnePerAgreementValidatedRevealedOnceAndItsReadsLogged() {
    AgreementRow row = agreement("agr-seal", 1, State.PROPOSED);
    store.writes().createAgreement(row, List.of(event(row.id(), 1)), List.of());
    SealRow seal =
        new SealRow(
            "seal-1",
            row.id(),
            "key-a",
            "sha256:00",
            "{\"signature\":\"s\"}",
            "{\"criteria\":[]}",
            "{\"max_cycles\":1}",
            null,
            T0,
            null);
    store.writes().apply(List.of(new Write.PutSeal(seal)));
    assertThat(store.seals().find("seal-1")).contains(seal);
    assertThat(store.seals().ofAgreement(row.id())).contains(seal);
    assertThat(store.seals().ofAgreement("agr-other")).isEmpty();

    SealRow second =
        new SealRow("seal-2", row.id(), "key-a", "sha256:01", "{}", "{}", "{}", null, T0, null);
    assertThatThrownBy(() -> store.writes().apply(List.of(new Write.PutSeal(second))))
        .as("one seal per agreement")
        .isInstanceOf(DuplicateKeyException.class);

    SealRow standalone =
        new SealRow("seal-3", null, "key-b", "sha256:02", "{}", "{}", "{}", null, T0, null);
    store.writes().apply(List.of(new Write.PutSeal(standalone)));
    assertThat(store.seals().find("seal-3")).contains(standalone);

    store
        .writes()
        .apply(
            List.of(
                new Write.SetSealValidation("seal-1", "{\"initial\":[]}"),
                new Write.LogSealRead(
                    "seal-1", "key key-a", "GET /agreements/agr-seal/seal", T0.plusSeconds(1)),
                new Write.RevealSeal("seal-1", T0.plusSeconds(2))));
    store
        .writes()
        .apply(
            List.of(
                new Write.RevealSeal("seal-1", T0.plusSeconds(9)),
                new Write.LogSealRead(
                    "seal-1", "operator", "GET /agreements/agr-seal/seal", T0.plusSeconds(3))));
    SealRow after = store.seals().find("seal-1").orElseThrow();
    assertThat(after.validation()).isEqualTo("{\"initial\":[]}");
    assertThat(after.revealedAt()).as("revealed once").isEqualTo(T0.plusSeconds(2));
    assertThat(store.seals().reads("seal-1"))
        .extracting(SealRead::caller)
        .containsExactly("key key-a", "operator");
    assertThat(store.seals().reads("seal-3")).isEmpty();
  }

  @Test
  void openingAgainFindsTheSchemaCurrent() throws SQLException {
    AgreementRow v1 = created("reopen");
    try (Store second = openStore()) {
      assertThat(second.agreements().find(v1.id())).contains(v1);
    }
    try (Connection c = rawConnection()) {
      assertThat(MigrationsTest.applied(c)).isEqualTo(MigrationsTest.scripts(Dialect.SQLITE));
    }
  }

  @Test
  void refusesADatabaseMigratedByANewerBuild() throws SQLException {
    try (Connection c = rawConnection();
        Statement s = c.createStatement()) {
      s.executeUpdate(
          "INSERT INTO "
              + Migrations.HISTORY_TABLE
              + " (installed_rank, version, description,"
              + " type, script, checksum, installed_by, execution_time, success)"
              + " VALUES (999, '999', 'from the future', 'SQL', 'V999__from_the_future.sql', 0, 'test', 0, true)");
    }
    try {
      assertThatThrownBy(this::openStore)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("schema version 999")
          .hasMessageContaining("newer than this build")
          .hasMessageContaining("Run that newer version");
    } finally {
      try (Connection c = rawConnection();
          Statement s = c.createStatement()) {
        s.executeUpdate("DELETE FROM " + Migrations.HISTORY_TABLE + " WHERE version = '999'");
      }
    }
  }

  @Test
  void aClosedStoreRefusesWork() {
    Store other = openStore();
    other.close();
    assertThatThrownBy(() -> other.agreements().find("x"))
        .isInstanceOf(IllegalStateException.class);
    other.close(); // closing twice is harmless
  }

  // ---- chain transactions (the erc8183 binding's) ----

  @Test
  void aChainTransactionIsStoredOncePerMessageAndANonceOncePerSenderAndChain() {
    String sender =
        "0x" + UUID.randomUUID().toString().replace("-", "").substring(0, 32) + "00000000";
    ChainTransactionStore txs = store.chainTransactions();
    assertThat(txs.nextNonce(31337, sender)).isZero();
    ChainTransaction first = chainTx(uniqueId("msg"), sender, 0);
    txs.insert(first);
    assertThat(txs.ofMessage(first.messageId())).contains(first);
    assertThat(txs.nextNonce(31337, sender)).isEqualTo(1);
    assertThat(txs.nextNonce(1, sender)).as("another chain").isZero();

    // A second transaction for the message, or another message on the same nonce, is refused.
    assertThatThrownBy(() -> txs.insert(chainTx(first.messageId(), sender, 1)))
        .isInstanceOf(DuplicateKeyException.class);
    assertThatThrownBy(() -> txs.insert(chainTx(uniqueId("msg"), sender, 0)))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining("nonce 0");
    ChainTransaction second = chainTx(uniqueId("msg"), sender, 1);
    txs.insert(second);
    assertThat(txs.ofSender(31337, sender, 0, 2)).containsExactly(first, second);
    assertThat(txs.ofSender(31337, sender, 1, 2)).containsExactly(second);

    txs.observe(
        first.messageId(), ChainTransaction.Status.MINED, 42L, 1, 51_234L, T0.plusSeconds(5));
    ChainTransaction seen = txs.ofMessage(first.messageId()).orElseThrow();
    assertThat(seen.status()).isEqualTo(ChainTransaction.Status.MINED);
    assertThat(seen.blockNumber()).isEqualTo(42L);
    assertThat(seen.confirmations()).isEqualTo(1);
    assertThat(seen.gasUsed()).as("from the receipt").isEqualTo(51_234L);
    assertThat(seen.rawTx()).isEqualTo(first.rawTx());
    assertThat(txs.ofMessage(second.messageId()).orElseThrow().blockNumber())
        .as("not yet mined")
        .isNull();
    assertThat(txs.ofAgreement(first.agreementId())).hasSize(2);

    // Replaced for a higher fee, then found mined under the first hash after all.
    ChainTransaction current = txs.ofMessage(second.messageId()).orElseThrow();
    txs.replace(current, "0x" + "ef".repeat(32), "0xf86c" + "01".repeat(100), T0.plusSeconds(300));
    ChainTransaction replaced = txs.ofMessage(second.messageId()).orElseThrow();
    assertThat(replaced.txHash()).isEqualTo("0x" + "ef".repeat(32));
    assertThat(replaced.replacedHashes()).containsExactly(second.txHash());
    assertThat(replaced.allHashes()).containsExactly("0x" + "ef".repeat(32), second.txHash());
    assertThat(replaced.status()).isEqualTo(ChainTransaction.Status.SIGNED);
    assertThat(replaced.nonce()).isEqualTo(1);
    txs.minedAs(replaced, second.txHash());
    ChainTransaction mined = txs.ofMessage(second.messageId()).orElseThrow();
    assertThat(mined.txHash()).isEqualTo(second.txHash());
    assertThat(mined.replacedHashes()).containsExactly("0x" + "ef".repeat(32));
  }

  private static ChainTransaction chainTx(String messageId, String sender, long nonce) {
    return new ChainTransaction(
        messageId,
        "agreement-of-" + sender,
        31337,
        sender,
        nonce,
        "complete",
        "0x" + "ab".repeat(32),
        "0xf86b" + "cd".repeat(100),
        T0,
        ChainTransaction.Status.SIGNED,
        null,
        0,
        T0,
        List.of(),
        null);
  }
}
