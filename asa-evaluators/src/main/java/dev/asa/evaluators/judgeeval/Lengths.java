package dev.asa.evaluators.judgeeval;

/**
 * The trivial judge every real one must beat: the length of an answer, in Unicode characters (code
 * points) without the white space around it. "The longer answer wins" agrees with people more often
 * than one would hope, because careful answers tend to be longer.
 */
public final class Lengths {
  private Lengths() {}

  public static int of(String answer) {
    String s = answer.strip();
    return s.codePointCount(0, s.length());
  }
}
