package dev.asa.server.store;

import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.verification.DeliverableRow;
import java.nio.file.Path;
import java.util.List;

/**
 * The child process of {@link SqliteCrashTest}: writes agreements in a loop and prints "ACK
 * &lt;id&gt;" after each commit returned, until it is killed. Every ACKed agreement must survive
 * the kill.
 */
public final class CrashWriter {

  private CrashWriter() {}

  public static void main(String[] args) {
    Path file = Path.of(args[0]);
    Store store = Stores.open("sqlite:" + file, null);
    // Never closed on purpose: the process dies by SIGKILL in the middle of this loop.
    for (int i = 0; ; i++) {
      String id = id(i);
      store.writes().createAgreement(version1(id), List.of(TestRows.event(id, 1)), List.of());
      store
          .writes()
          .commit(
              new Commit(
                  version1(id),
                  version2(id),
                  List.of(TestRows.event(id, 2)),
                  List.of(new Write.PutDeliverable(deliverable(id)))));
      System.out.println("ACK " + id);
      System.out.flush();
    }
  }

  static String id(int i) {
    return "crash-" + i;
  }

  static AgreementRow version1(String id) {
    return TestRows.agreement(id, 1, State.PROPOSED);
  }

  static AgreementRow version2(String id) {
    return TestRows.next(version1(id), State.DELIVERED);
  }

  static DeliverableRow deliverable(String id) {
    return TestRows.deliverable(id, 1, "delivered work of " + id + " " + "z".repeat(2_000));
  }
}
