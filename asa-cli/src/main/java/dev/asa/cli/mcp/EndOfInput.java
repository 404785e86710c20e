package dev.asa.cli.mcp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/**
 * Standard input that tells when it ends: the host closes it to stop the MCP server, and the SDK's
 * transport reads it on a thread of its own, so the command waits here.
 */
final class EndOfInput extends FilterInputStream {

  private final CountDownLatch ended = new CountDownLatch(1);

  EndOfInput(InputStream in) {
    super(in);
  }

  void await() throws InterruptedException {
    ended.await();
  }

  @Override
  public int read() throws IOException {
    return seen(() -> super.read());
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return seen(() -> super.read(b, off, len));
  }

  private interface Read {
    int read() throws IOException;
  }

  private int seen(Read read) throws IOException {
    try {
      int n = read.read();
      if (n < 0) {
        ended.countDown();
      }
      return n;
    } catch (IOException e) {
      ended.countDown();
      throw e;
    }
  }
}
