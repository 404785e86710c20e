package dev.asa.evaluators;

/**
 * How an analysis of caller input stops at its deadline. The server's job runner interrupts the
 * thread of a job past its {@code evaluator_timeout_seconds}; Java has no way to stop a thread from
 * outside, so an interrupt stops only work that looks for it. An analysis looks for it between its
 * steps ({@link #check}) and inside each long match of a pattern ({@link #interruptible}): without
 * that, a job reported "stopped" went on burning a core for minutes after its answer.
 */
public final class Deadline {
  private Deadline() {}

  /** Thrown where an analysis finds its thread interrupted: the job's deadline has passed. */
  public static final class Passed extends RuntimeException {
    Passed() {
      super("the evaluation was stopped at its deadline", null, false, false);
    }
  }

  /** Stops the analysis when its thread has been interrupted. */
  public static void check() {
    if (Thread.currentThread().isInterrupted()) {
      throw new Passed();
    }
  }

  /**
   * The text, read through a view that stops the analysis once its thread is interrupted: a
   * pattern's matcher reads a character at a time, so even a match that backtracks ends within a
   * few thousand steps of the deadline.
   */
  public static CharSequence interruptible(CharSequence text) {
    return text instanceof Interruptible ? text : new Interruptible(text, 0, text.length());
  }

  /** A view of a text that looks for the interrupt every 4,096 characters read. */
  private static final class Interruptible implements CharSequence {
    private final CharSequence text;
    private final int start;
    private final int end;
    private int reads; // one matcher reads through one view at a time

    Interruptible(CharSequence text, int start, int end) {
      this.text = text;
      this.start = start;
      this.end = end;
    }

    @Override
    public char charAt(int index) {
      if ((++reads & 4095) == 0) {
        check();
      }
      return text.charAt(start + index);
    }

    @Override
    public int length() {
      return end - start;
    }

    @Override
    public CharSequence subSequence(int from, int to) {
      return new Interruptible(text, start + from, start + to);
    }

    @Override
    public String toString() {
      return text.subSequence(start, end).toString();
    }
  }
}
