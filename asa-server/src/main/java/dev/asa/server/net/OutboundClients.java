package dev.asa.server.net;

import java.io.IOException;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.client.ContinueProtocolHandler;
import org.eclipse.jetty.client.EarlyHintsProtocolHandler;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.ProcessingProtocolHandler;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The two Jetty clients behind a {@link GuardedHttpClient}: one whose resolver refuses internal
 * addresses, one for URLs under an operator-allowed prefix. Two, because Jetty pools connections by
 * scheme, host and port, not by our policy: with one pool, a connection opened to an internal
 * address for an allowed URL could carry a later request to the same host and port outside the
 * allowed prefix, without any check.
 *
 * <p>They start on first use (a client that never sends costs no thread) and share one small thread
 * pool of daemon threads: the server runs on few cores and every caller blocks on its own thread
 * while Jetty's threads only move bytes. {@link #close()} stops them.
 */
final class OutboundClients implements AutoCloseable {

  /** Status line plus headers of an answer read at most; Jetty refuses a larger head. */
  static final int MAX_HEAD_BYTES = 64 * 1024;

  private static final int MAX_THREADS = 8;

  /** How long an unused pooled connection, or an idle pool thread, is kept. */
  private static final int IDLE_MILLIS = 30_000;

  /**
   * Jetty's own bound on one TCP connect; the per-request {@link FetchLimits#connect()} is enforced
   * by {@link GuardedHttpClient} on top of it, and {@link FetchLimits#total()} bounds everything.
   */
  private static final long CONNECT_BACKSTOP_MILLIS = 60_000;

  private final GuardedHttpClient.HostResolver resolver;
  private final SSLContext tls;
  private QueuedThreadPool threads;
  private ScheduledExecutorScheduler scheduler;
  private HttpClient guarded;
  private HttpClient allowed;
  private boolean closed;

  OutboundClients(GuardedHttpClient.HostResolver resolver, SSLContext tls) {
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    this.tls = Objects.requireNonNull(tls, "tls");
  }

  /** The client for a URL: the checking one, or the one for operator-allowed prefixes. */
  synchronized HttpClient client(boolean allowedPrefix) throws IOException {
    if (closed) {
      throw new IOException("the outbound HTTP client is closed");
    }
    try {
      if (threads == null) {
        threads = new QueuedThreadPool(MAX_THREADS, 1, IDLE_MILLIS);
        threads.setName("asa-outbound");
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        threads.start();
        scheduler = new ScheduledExecutorScheduler("asa-outbound-timeouts", true);
        scheduler.start();
      }
      if (allowedPrefix) {
        allowed = allowed != null ? allowed : start("asa-outbound-allowed", false);
        return allowed;
      }
      guarded = guarded != null ? guarded : start("asa-outbound", true);
      return guarded;
    } catch (Exception e) {
      throw new IOException("could not start the outbound HTTP client", e);
    }
  }

  private HttpClient start(String name, boolean refuseInternal) throws Exception {
    HttpClient client =
        new HttpClient(); // HTTP/1.1 only: the one transport jetty-client has by itself
    client.setName(name);
    client.setExecutor(threads); // started already, so shared and not stopped with this client
    client.setScheduler(scheduler);
    client.setSocketAddressResolver(new CheckedAddressResolver(resolver, refuseInternal));
    client.setFollowRedirects(false); // a 3xx is an answer: a public server cannot bounce us inward
    client.setHttpCookieStore(
        new HttpCookieStore.Empty()); // one server's cookies never go back out
    client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "asa-server"));
    client.setDefaultRequestContentType(null); // a body's type is the caller's header, or none
    client.setMaxResponseHeadersSize(MAX_HEAD_BYTES);
    client.setConnectTimeout(CONNECT_BACKSTOP_MILLIS);
    client.setIdleTimeout(IDLE_MILLIS);
    client.setDestinationIdleTimeout(2L * IDLE_MILLIS); // many distinct hosts must not pile up
    SslContextFactory.Client ssl = new SslContextFactory.Client();
    ssl.setSslContext(tls);
    // The certificate must name the URL's host; CheckedAddressResolver makes that the peer name.
    ssl.setEndpointIdentificationAlgorithm("HTTPS");
    client.setSslContextFactory(ssl);
    // No proxy is configured, and Jetty reads no proxy from system properties: connections go to
    // the checked addresses themselves.
    client.start();
    // start() installs the default protocol handlers and content decoders. Keep only the handlers
    // of interim 1xx answers: none that follows a redirect or answers an authentication
    // challenge, and no decoding, so the bytes capped and hashed are the bytes the server sent
    // (and no gzip bomb is inflated).
    client.getProtocolHandlers().clear();
    client.getProtocolHandlers().put(new ContinueProtocolHandler());
    client.getProtocolHandlers().put(new ProcessingProtocolHandler());
    client.getProtocolHandlers().put(new EarlyHintsProtocolHandler());
    client.getContentDecoderFactories().clear();
    return client;
  }

  @Override
  public synchronized void close() {
    closed = true;
    for (LifeCycle part : new LifeCycle[] {guarded, allowed, scheduler, threads}) {
      if (part != null) {
        LifeCycle.stop(part);
      }
    }
  }
}
