package dev.asa.evaluators.code.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains one output stream of a sandboxed process on its own thread, keeping at most {@code cap}
 * bytes; past the cap it calls {@code onOverrun} once (the caller kills the sandbox) and keeps
 * draining so the process never blocks on a full pipe.
 */
final class OutputCapture implements Runnable {
  private final InputStream in;
  private final int cap;
  private final Runnable onOverrun;
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
  private boolean overrun;

  OutputCapture(InputStream in, int cap, Runnable onOverrun) {
    this.in = in;
    this.cap = cap;
    this.onOverrun = onOverrun;
  }

  @Override
  public void run() {
    byte[] buffer = new byte[8192];
    try (in) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        boolean tripped = false;
        synchronized (this) {
          int room = cap - kept.size();
          kept.write(buffer, 0, Math.min(room, n));
          if (n > room && !overrun) {
            overrun = true;
            tripped = true;
          }
        }
        if (tripped) {
          onOverrun.run();
        }
      }
    } catch (IOException e) {
      // The stream closes under us when the sandbox is killed: what was read so far stands.
    }
  }

  synchronized String text() {
    return kept.toString(StandardCharsets.UTF_8);
  }

  synchronized boolean overrun() {
    return overrun;
  }
}
