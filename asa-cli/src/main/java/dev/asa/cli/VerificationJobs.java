package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.VerificationJob;
import java.time.Duration;

/** Following a verification the server runs as a job (202), its progress on standard error. */
final class VerificationJobs {
  private VerificationJobs() {}

  /** The longest wait for a job before giving up (exit status 4). */
  static final Duration TIMEOUT = Duration.ofMinutes(15);

  /**
   * Polls the job until it ends and returns its result; the stage is shown as a bar on a terminal,
   * as whole lines otherwise, and not at all with {@code --json}.
   */
  static ObjectNode await(Session session, String verificationId)
      throws UsageException, CliException {
    ProgressDisplay progress =
        session.json()
            ? ProgressDisplay.silent()
            : ProgressDisplay.on(session.err(), "verification " + verificationId);
    try {
      return session
          .client()
          .awaitVerification(
              verificationId,
              TIMEOUT,
              job -> {
                VerificationJob.Progress p = VerificationJob.from(job).progress();
                progress.update(p.stage(), (int) p.done(), (int) p.total());
              });
    } catch (IllegalArgumentException e) {
      throw Views.unreadable("GET /verifications/" + verificationId, e);
    } finally {
      progress.finish();
    }
  }
}
