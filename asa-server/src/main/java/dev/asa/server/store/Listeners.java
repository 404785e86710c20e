package dev.asa.server.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls a {@link CommitListener} after a commit, where a failure of its own must not escape. */
final class Listeners {
  private static final Logger log = LoggerFactory.getLogger(Listeners.class);

  private Listeners() {}

  /**
   * Runs {@code call}; what it throws is logged, not rethrown, because the write has committed and
   * the caller must learn that it succeeded.
   */
  static void tell(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      log.warn("a commit listener failed (the write itself committed)", e);
    }
  }
}
