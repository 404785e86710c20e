package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A verification the server runs as a job, while it runs: the body of a 202 from {@code POST
 * /agreements/{id}/verify} or {@code POST /verifications}, and what {@code GET /verifications/{id}}
 * answers until the result is there ({@link AsaClient#isPending}).
 *
 * @param verificationId the verification's id; its result will carry the same
 * @param status {@code queued} or {@code running} (a finished job answers its result instead)
 * @param progress how far it got
 * @param json the whole answer, a copy
 */
public record VerificationJob(
    String verificationId, String status, Progress progress, ObjectNode json) {

  private static final String WHAT = "a verification job";

  /** Checks that nothing is null and keeps a private copy of the JSON. */
  public VerificationJob {
    Objects.requireNonNull(verificationId, "verificationId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(progress, "progress");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * How far a job got ({@code progress}).
   *
   * @param stage what it is doing now, e.g. {@code queued}, {@code judging}
   * @param done the steps done
   * @param total the steps in all, 0 while not yet known
   * @param percent {@code done} of {@code total} in percent, as the server rounds it
   */
  public record Progress(String stage, long done, long total, long percent) {

    /** Checks that nothing is null. */
    public Progress {
      Objects.requireNonNull(stage, "stage");
    }

    static Progress from(JsonNode p) {
      String what = "the progress of " + WHAT;
      return new Progress(
          Members.text(p, "stage", what),
          Members.integer(p, "done", what),
          Members.integer(p, "total", what),
          Members.integer(p, "percent", what));
    }
  }

  /**
   * Reads a running job.
   *
   * @param answer an answer for which {@link AsaClient#isPending} holds
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static VerificationJob from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new VerificationJob(
        Members.text(o, "verification_id", WHAT),
        Members.text(o, "status", WHAT),
        Progress.from(Members.child(o, "progress", WHAT)),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
