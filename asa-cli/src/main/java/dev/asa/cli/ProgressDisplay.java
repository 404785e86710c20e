package dev.asa.cli;

import dev.asa.evaluators.Progress;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Shows a long run's progress on standard error: a bar redrawn in place on a terminal, or plain
 * lines, each on its own line, when standard error is a file or a pipe (a CI log, {@code 2>
 * run.log}), where carriage returns would pile up into one unreadable line.
 */
sealed interface ProgressDisplay extends Progress
    permits ProgressDisplay.Bar, ProgressDisplay.Lines, ProgressDisplay.Silent {

  /** Leaves the terminal clean (or says the last word) once the run is over. */
  void finish();

  /** The display that suits {@code err}: a bar when it is this process's terminal. */
  static ProgressDisplay on(PrintStream err, String label) {
    return err == System.err && Terminals.stderr() ? new Bar(err, label) : new Lines(err, label);
  }

  /** No display at all: for {@code --json}, where standard error stays quiet. */
  static ProgressDisplay silent() {
    return new Silent();
  }

  /** Says nothing. */
  final class Silent implements ProgressDisplay {
    @Override
    public void update(String stage, int done, int total) {
      // quiet
    }

    @Override
    public void finish() {
      // nothing drawn
    }
  }

  /** {@code label [#########-----------] 37/76 48% 0:12}, redrawn at most ten times a second. */
  final class Bar implements ProgressDisplay {
    private static final int WIDTH = 30;
    private final PrintStream err;
    private final String label;
    private final long started = System.nanoTime();
    private long drawn;
    private int width;

    Bar(PrintStream err, String label) {
      this.err = err;
      this.label = label;
    }

    @Override
    public synchronized void update(String stage, int done, int total) {
      long now = System.nanoTime();
      if (done < total && now - drawn < 100_000_000L) {
        return;
      }
      drawn = now;
      int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
      long seconds = (now - started) / 1_000_000_000L;
      String line =
          String.format(
              Locale.ROOT,
              "%s [%s%s] %d/%d %s  %3d%%  %d:%02d",
              label,
              "#".repeat(filled),
              "-".repeat(WIDTH - filled),
              done,
              total,
              stage,
              total == 0 ? 100 : 100L * done / total,
              seconds / 60,
              seconds % 60);
      err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
      err.flush();
      width = line.length();
    }

    @Override
    public synchronized void finish() {
      if (width > 0) {
        err.print("\r" + " ".repeat(width) + "\r");
        err.flush();
        width = 0;
      }
    }
  }

  /** {@code label: 37/76 answers scored (48%), 12 s}, at each tenth of the way and at the end. */
  final class Lines implements ProgressDisplay {
    private final PrintStream err;
    private final String label;
    private final long started = System.nanoTime();
    private int lastTenth = -1;

    Lines(PrintStream err, String label) {
      this.err = err;
      this.label = label;
    }

    @Override
    public synchronized void update(String stage, int done, int total) {
      int tenth = total == 0 ? 10 : (int) (10L * done / total);
      if (tenth == lastTenth) {
        return;
      }
      lastTenth = tenth;
      err.printf(
          Locale.ROOT,
          "%s: %d/%d %s (%d%%), %d s%n",
          label,
          done,
          total,
          stage,
          total == 0 ? 100 : 100L * done / total,
          (System.nanoTime() - started) / 1_000_000_000L);
      err.flush();
    }

    @Override
    public void finish() {
      // every line is complete already
    }
  }
}
