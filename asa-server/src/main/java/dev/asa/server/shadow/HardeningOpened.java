package dev.asa.server.shadow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.Agreement;
import dev.asa.facts.FactCodec;
import dev.asa.facts.HardeningFact;
import dev.asa.json.Json;
import dev.asa.server.store.Write;
import dev.asa.server.store.verification.JobRow;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The first delivery scored above the hardening threshold: nothing is recorded as the result; the
 * agreement stays DELIVERED with a hardening cycle open, and the provider may read the failure
 * messages and re-deliver once. Nothing here says the score or counts (the provider reads the
 * events and this response).
 */
public final class HardeningOpened {

  private HardeningOpened() {}

  /**
   * The change for a delivery that opened a hardening cycle.
   *
   * @param sealed the validation that opened it (its writes record the open cycle)
   * @param extraWrites written in the same transaction; a job that would have finished as completed
   *     finishes as failed, saying what happens instead
   */
  public static Change change(
      Agreement a,
      ShadowSeals.Validated sealed,
      Actor actor,
      Instant now,
      List<Write> extraWrites) {
    HardeningFact hardening = HardeningFact.opened(now, "/agreements/" + a.id() + "/hardening");
    Agreement next = a.withFacts(f -> f.withHardening(hardening));
    List<Write> writes = new ArrayList<>(sealed.writes());
    for (Write w : extraWrites) {
      // A background job that led here produced no result: it ends saying what happens instead.
      writes.add(
          w instanceof Write.FinishJob f && f.status() == JobRow.Status.COMPLETED
              ? new Write.FinishJob(
                  f.jobId(),
                  JobRow.Status.FAILED,
                  "no result: the deliverable missed sealed"
                      + " criteria and a hardening cycle is open; the provider may re-deliver once ("
                      + hardening.messagesUrl()
                      + "), then ask for verification again",
                  f.at())
              : w);
    }
    ObjectNode response = Json.object();
    response.put("agreement_id", a.id());
    response.put("state", next.state().name());
    response.set("hardening", FactCodec.write(hardening));
    return new Change(
        next,
        List.of(new EventLog.Draft(EventType.HARDENING_OPENED, actor, FactCodec.write(hardening))),
        writes,
        response);
  }
}
