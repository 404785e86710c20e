package dev.asa.server.escrow;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.signedrequests.StandardWebhooks;
import dev.asa.signedrequests.StandardWebhooks.InvalidWebhookException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A real Standard Webhooks receiver on a loopback port, for tests: it checks each delivery's {@code
 * v1a} signature with the sender's public key (401 if bad) and applies each {@code webhook-id} at
 * most once, the way a payment system's endpoint should. Its {@link Mode} simulates the failures a
 * courier must survive. Thread-safe.
 *
 * <p>{@link Mode#DOWN} really stops listening, so a connection attempt is refused by the kernel
 * (not answered with an error); switching back up listens again on the same port, so {@link #uri()}
 * never changes.
 */
public final class WebhookReceiver implements AutoCloseable {

  /** How the receiver answers. */
  public enum Mode {
    /** Verifies, applies (once per id) and answers 200 {@code {"received": true}}. */
    UP,
    /** Answers 500 to everything, applying nothing: a receiver with a bug or a dead database. */
    ERRORS,
    /** Not listening at all: connections are refused. */
    DOWN
  }

  /** The skew the receiver allows between the webhook timestamp and its clock. */
  public static final Duration TOLERANCE = Duration.ofMinutes(5);

  private static final String PATH = "/webhooks/escrow";
  private static final int MAX_BODY_BYTES = 1024 * 1024;

  /** How long {@link #mode(Mode)} keeps trying to listen again on the port it had. */
  private static final Duration REBIND_PATIENCE = Duration.ofSeconds(10);

  private final Ed25519PublicKey senderKey;
  private final Clock clock;
  private final InetAddress loopback = InetAddress.getLoopbackAddress();
  private final int port;
  // Virtual threads: a slow handler (see delay) must not hold up other deliveries or shutdown.
  private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();

  private final Object lifecycle = new Object();
  private HttpServer server; // null while DOWN; guarded by lifecycle
  private SocketChannel portHolder; // keeps the port ours while DOWN; guarded by lifecycle
  private boolean closed; // guarded by lifecycle
  private volatile Mode mode = Mode.UP;
  private volatile Duration delay = Duration.ZERO;

  private final Object deliveries = new Object();
  private final Map<String, String> applied = new LinkedHashMap<>(); // guarded by deliveries
  private int seen; // guarded by deliveries
  private final List<String> received = new ArrayList<>(); // guarded by deliveries

  /** A receiver trusting {@code senderKey}, checking timestamps against the system clock. */
  public WebhookReceiver(Ed25519PublicKey senderKey) {
    this(senderKey, Clock.systemUTC());
  }

  /**
   * A receiver trusting {@code senderKey}, checking timestamps against {@code clock}; it starts UP.
   */
  public WebhookReceiver(Ed25519PublicKey senderKey, Clock clock) {
    this.senderKey = Objects.requireNonNull(senderKey, "senderKey");
    this.clock = Objects.requireNonNull(clock, "clock");
    try {
      this.server = listen(0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on a loopback port", e);
    }
    this.port = server.getAddress().getPort();
  }

  /** Where deliveries go; the same in every mode, including after DOWN and back. */
  public URI uri() {
    return URI.create("http://" + loopback.getHostAddress() + ":" + port + PATH);
  }

  public Mode mode() {
    return mode;
  }

  /**
   * Switches how the receiver answers; returns once the switch is in effect (the port is closed for
   * DOWN, listening again otherwise).
   */
  public void mode(Mode next) {
    Objects.requireNonNull(next, "mode");
    synchronized (lifecycle) {
      if (closed) {
        throw new IllegalStateException("the webhook receiver is closed");
      }
      // The mode changes while nothing listens, so no request ever sees a half-made switch.
      if (next == Mode.DOWN) {
        if (server != null) {
          server.stop(0); // returns once the listening socket is closed
          server = null;
          portHolder = holdPort();
        }
        mode = next;
      } else {
        mode = next;
        if (server == null) {
          releasePort();
          server = relisten();
        }
      }
    }
  }

  /** Makes every answer wait this long first: a slow receiver, for timeout tests. */
  public void delay(Duration delay) {
    this.delay = Objects.requireNonNull(delay, "delay");
  }

  /** The ids applied, in the order first applied; each appears once however often delivered. */
  public List<String> appliedIds() {
    synchronized (deliveries) {
      return List.copyOf(applied.keySet());
    }
  }

  /** The body applied for each id: the first delivery's (all deliveries of an id are the same). */
  public Map<String, String> appliedBodies() {
    synchronized (deliveries) {
      return Collections.unmodifiableMap(new LinkedHashMap<>(applied));
    }
  }

  /**
   * The {@code webhook-id} of every request that arrived, in order, whatever the answer (a 500 in
   * {@link Mode#ERRORS}, a timeout the sender gave up on): what a receiver de-duplicates by.
   */
  public List<String> receivedIds() {
    synchronized (deliveries) {
      return List.copyOf(received);
    }
  }

  /** Deliveries that verified and were answered 200, counting redeliveries of an applied id. */
  public int deliveriesSeen() {
    synchronized (deliveries) {
      return seen;
    }
  }

  @Override
  public void close() {
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
      if (server != null) {
        server.stop(0);
        server = null;
      }
      releasePort();
    }
    handlers.shutdownNow(); // interrupts handlers still sleeping in a delay
  }

  private HttpServer listen(int onPort) throws IOException {
    HttpServer created = HttpServer.create(new InetSocketAddress(loopback, onPort), 50);
    created.createContext("/", this::handle);
    created.setExecutor(handlers);
    created.start();
    return created;
  }

  /**
   * Listens on {@link #port} again. Binding can fail for a moment after the previous server's
   * socket closed (the kernel still tidying it, or a connection in TIME_WAIT on some systems), so
   * retry for a while rather than fail a test on a race it did not cause.
   */
  private HttpServer relisten() {
    long deadline = System.nanoTime() + REBIND_PATIENCE.toNanos();
    while (true) {
      try {
        return listen(port);
      } catch (BindException e) {
        if (System.nanoTime() > deadline) {
          throw new UncheckedIOException(
              "cannot listen on port " + port + " again after DOWN; something else took it", e);
        }
        sleep(Duration.ofMillis(20));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot listen on port " + port + " again", e);
      }
    }
  }

  /**
   * Binds (without listening) a socket to the port while DOWN: connections are still refused, and
   * the kernel cannot hand the port to some other socket as an ephemeral port meanwhile. Best
   * effort: if it fails, the port is merely unguarded and {@link #relisten} still retries.
   */
  private SocketChannel holdPort() {
    SocketChannel holder = null;
    try {
      holder = SocketChannel.open();
      holder.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      holder.bind(new InetSocketAddress(loopback, port));
      return holder;
    } catch (IOException e) {
      closeQuietly(holder);
      return null;
    }
  }

  private void releasePort() {
    closeQuietly(portHolder);
    portHolder = null;
  }

  private static void closeQuietly(SocketChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // nothing bound any more either way
      }
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String arrivedId = exchange.getRequestHeaders().getFirst(StandardWebhooks.WEBHOOK_ID);
      synchronized (deliveries) {
        received.add(String.valueOf(arrivedId));
      }
      if (!sleep(delay)) {
        return; // closing: drop the exchange
      }
      if (mode == Mode.ERRORS) {
        respond(exchange, 500, "{\"error\": \"the receiver is failing on purpose\"}");
        return;
      }
      if (!"POST".equals(exchange.getRequestMethod())) {
        respond(exchange, 405, "{\"error\": \"webhooks are POSTed\"}");
        return;
      }
      byte[] bytes = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
      if (bytes.length > MAX_BODY_BYTES) {
        respond(exchange, 413, "{\"error\": \"body larger than " + MAX_BODY_BYTES + " bytes\"}");
        return;
      }
      String body = new String(bytes, StandardCharsets.UTF_8);
      Headers headers = exchange.getRequestHeaders();
      String id = headers.getFirst(StandardWebhooks.WEBHOOK_ID);
      try {
        StandardWebhooks.verify(
            id,
            headers.getFirst(StandardWebhooks.WEBHOOK_TIMESTAMP),
            headers.getFirst(StandardWebhooks.WEBHOOK_SIGNATURE),
            body,
            senderKey,
            clock.instant(),
            TOLERANCE);
      } catch (InvalidWebhookException e) {
        respond(exchange, 401, e.getMessage());
        return;
      }
      synchronized (deliveries) {
        seen++;
        applied.putIfAbsent(id, body); // at most once per id: a redelivery changes nothing
      }
      respond(exchange, 200, "{\"received\": true}");
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    // One exchange per connection: a client never holds a pooled connection to a server that
    // a later DOWN has stopped, so DOWN always shows up as a refused connection.
    exchange.getResponseHeaders().set("Connection", "close");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** Sleeps {@code duration}; false if interrupted (the receiver is closing). */
  private static boolean sleep(Duration duration) {
    if (duration.isZero()) {
      return true;
    }
    try {
      Thread.sleep(duration);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public String toString() {
    return "WebhookReceiver[" + uri() + ", " + mode + "]";
  }
}
