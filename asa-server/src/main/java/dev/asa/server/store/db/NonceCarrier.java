package dev.asa.server.store.db;

import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Puts a waiting request nonce ({@link PendingNonce}) into the first transaction its request's
 * thread commits: first statement of the transaction, so a replay is refused before any effect.
 * Counts the transactions committed on the way (what the metrics report per request).
 */
public final class NonceCarrier implements Database {
  private final Database delegate;
  private final java.util.concurrent.atomic.LongAdder commits =
      new java.util.concurrent.atomic.LongAdder();

  public NonceCarrier(Database delegate) {
    this.delegate = delegate;
  }

  @Override
  public Dialect dialect() {
    return delegate.dialect();
  }

  @Override
  public <T> T write(String doing, Work<T> work) {
    String replayedBy = PendingNonce.replayedBy();
    if (replayedBy != null) {
      throw new NonceReplayedException(replayedBy); // a replay commits nothing, however caught
    }
    PendingNonce.Nonce nonce = PendingNonce.take();
    if (nonce == null) {
      T result = delegate.write(doing, work);
      commits.increment();
      return result;
    }
    try {
      T result =
          delegate.write(
              doing,
              handle -> {
                if (!NonceTable.record(handle, nonce)) {
                  PendingNonce.markReplayed(nonce.keyId());
                  throw new NonceReplayedException(nonce.keyId());
                }
                return work.run(handle);
              });
      commits.increment();
      return result;
    } catch (NonceReplayedException e) {
      throw e;
    } catch (RuntimeException e) {
      PendingNonce.putBack(nonce); // rolled back with the transaction: still to be recorded
      throw e;
    }
  }

  /** Write transactions committed since the store opened. */
  public long commits() {
    return commits.sum();
  }

  @Override
  public <T> T read(String doing, Work<T> work) {
    return delegate.read(doing, work);
  }

  @Override
  public <T> T lookup(String doing, Work<T> work) {
    return delegate.lookup(doing, work);
  }

  @Override
  public <T> T withDataSource(Function<DataSource, T> work) {
    return delegate.withDataSource(work);
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public Optional<String> outage() {
    return delegate.outage();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
