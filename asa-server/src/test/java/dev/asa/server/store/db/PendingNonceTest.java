package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write's nonce joins the write's own transaction ({@link PendingNonce}): found used there, the
 * write and every later write of the request fail, however the first failure was caught, and the
 * answer becomes the 401; a transaction that fails for another reason leaves the nonce to be
 * recorded all the same.
 */
class PendingNonceTest {
  static final Instant T = Instant.parse("2026-12-06T12:00:00Z");

  @TempDir Path dir;

  @AfterEach
  void forget() {
    PendingNonce.clear();
  }

  @Test
  void aReplayFoundByOneWriteFailsEveryLaterWriteAndTheAnswer() {
    try (Store store = Stores.open(null, dir)) {
      NonceTable nonces =
          store.nonces(Clock.fixed(T, java.time.ZoneOffset.UTC), Duration.ofMinutes(5));
      assertThat(nonces.firstUse("key", "n-1", T)).as("another node took it").isTrue();

      assertThat(PendingNonce.deferringDuring(() -> nonces.firstUse("key", "n-1", T))).isTrue();
      assertThatThrownBy(() -> store.archives().begin("a.jsonl", T, T, 1))
          .isInstanceOf(NonceReplayedException.class);
      // Code that caught that cannot go on to commit anything else for the replay.
      assertThatThrownBy(() -> store.archives().begin("b.jsonl", T, T, 1))
          .isInstanceOf(NonceReplayedException.class);
      assertThat(store.archives().find("a.jsonl")).isEmpty();
      assertThat(store.archives().find("b.jsonl")).isEmpty();
      assertThat(nonces.settlePending()).as("the answer becomes the 401").isFalse();

      PendingNonce.clear(); // the next request on this thread starts clean
      store.archives().begin("c.jsonl", T, T, 1);
      assertThat(store.archives().find("c.jsonl")).isPresent();
    }
  }

  @Test
  void aWriteThatFailsForAnotherReasonLeavesTheNonceToBeRecorded() {
    try (Store store = Stores.open(null, dir)) {
      NonceTable nonces =
          store.nonces(Clock.fixed(T, java.time.ZoneOffset.UTC), Duration.ofMinutes(5));
      store.archives().begin("taken.jsonl", T, T, 1);

      assertThat(PendingNonce.deferringDuring(() -> nonces.firstUse("key", "n-2", T))).isTrue();
      assertThatThrownBy(() -> store.archives().begin("taken.jsonl", T, T, 1))
          .isInstanceOf(DuplicateKeyException.class);
      assertThat(nonces.settlePending()).as("recorded on its own before the answer").isTrue();
      PendingNonce.clear();
      assertThat(nonces.firstUse("key", "n-2", T)).as("so a replay is refused").isFalse();
    }
  }

  @Test
  void aWriteCommitsItsNonceInItsOwnTransactionOnce() {
    try (Store store = Stores.open(null, dir)) {
      NonceTable nonces =
          store.nonces(Clock.fixed(T, java.time.ZoneOffset.UTC), Duration.ofMinutes(5));
      long before = store.statistics().commits();
      assertThat(PendingNonce.deferringDuring(() -> nonces.firstUse("key", "n-3", T))).isTrue();
      store.archives().begin("one.jsonl", T, T, 1);
      assertThat(nonces.settlePending()).isTrue(); // nothing left waiting
      assertThat(store.statistics().commits() - before).isEqualTo(1);
      PendingNonce.clear();
      assertThat(nonces.firstUse("key", "n-3", T)).as("it was recorded with the write").isFalse();
    }
  }
}
