package dev.asa.server.store.agreements;

import dev.asa.crypto.Digest;
import java.util.Objects;

/**
 * The newest event of an agreement's log as a change needs it: its number and its hash, which the
 * change's first event follows and chains to. Read with the agreement's row in one statement where
 * the log is in rows ({@link AgreementStore#findForChange}).
 *
 * @param seq 0 before the first event
 * @param hash {@link Digest#ZERO} before the first event
 */
public record ChainHead(long seq, String hash) {

  /** Before the first event. */
  public static final ChainHead START = new ChainHead(0, Digest.ZERO);

  public ChainHead {
    Objects.requireNonNull(hash, "hash");
    if (seq < 0) {
      throw new IllegalArgumentException("an event number is never negative: " + seq);
    }
  }

  public static ChainHead of(EventRecord last) {
    return new ChainHead(last.seq(), last.hash());
  }
}
