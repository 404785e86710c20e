package dev.asa.server.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a loopback port to a real server, that a test can cut (every connection dropped,
 * new ones refused by the kernel) and restore on the same port: a database outage without touching
 * the database the other tests use.
 */
final class CuttableProxy implements AutoCloseable {
  private final InetSocketAddress target;
  private final int port;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket listener;

  CuttableProxy(String targetHost, int targetPort) throws IOException {
    this.target = new InetSocketAddress(targetHost, targetPort);
    this.listener = listen(0);
    this.port = listener.getLocalPort();
  }

  int port() {
    return port;
  }

  /** Drops every connection and stops listening: connecting is refused until {@link #restore}. */
  synchronized void cut() throws IOException {
    listener.close();
    for (Socket s : open) {
      try {
        s.close();
      } catch (IOException ignored) {
        // gone either way
      }
    }
    open.clear();
  }

  /** Listens again on the same port. */
  synchronized void restore() throws IOException {
    if (listener.isClosed()) {
      listener = listen(port);
    }
  }

  private ServerSocket listen(int onPort) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort));
    ServerSocket accepting = s;
    Thread.ofVirtual().start(() -> accept(accepting));
    return s;
  }

  private void accept(ServerSocket from) {
    while (!from.isClosed()) {
      try {
        Socket client = from.accept();
        Socket upstream = new Socket();
        try {
          upstream.connect(target, 5_000);
        } catch (IOException e) {
          client.close();
          continue;
        }
        open.add(client);
        open.add(upstream);
        Thread.ofVirtual().start(() -> pump(client, upstream));
        Thread.ofVirtual().start(() -> pump(upstream, client));
      } catch (IOException e) {
        return; // closed by cut()
      }
    }
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException ignored) {
      // one side went away: close both
    } finally {
      try {
        from.close();
        to.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      open.remove(from);
      open.remove(to);
    }
  }

  @Override
  public void close() throws IOException {
    cut();
  }
}
