package dev.asa.shadow;

/**
 * Decides a {@link Check.Judged} criterion; the server passes its verification engine's judge. An
 * exception (a timeout, a refusal, an unparseable answer) makes that criterion an {@link
 * Status#ERROR}, which counts as a failure: only a pass shows a requirement is met.
 */
@FunctionalInterface
public interface Judge {

  Verdict judge(String assertion, DeliveredWork work) throws Exception;

  /**
   * @param passed whether the assertion holds
   * @param evidence what the judge found; the report's {@code actual}
   */
  record Verdict(boolean passed, String evidence) {
    public Verdict {
      evidence = evidence == null ? "" : evidence;
    }
  }

  /** For seals without judged criteria; a judged criterion checked with it is an error. */
  Judge NONE =
      (assertion, work) -> {
        throw new IllegalStateException(
            "no judge is configured, so a judged criterion cannot be decided");
      };
}
