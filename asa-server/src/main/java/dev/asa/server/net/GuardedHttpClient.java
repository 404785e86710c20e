package dev.asa.server.net;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one HTTP client for requests the server makes to URLs it was given: deliverables by {@code
 * content_url}, webhooks, the x402 facilitator, dispute endpoints. It refuses to reach anything but
 * the public internet unless the operator allowed the URL's prefix ({@link FetchPolicy}).
 *
 * <p>The HTTP itself is Jetty's {@code HttpClient}: the answers come from servers that may be
 * hostile, and parsing them is a solved problem best left to a well-kept parser. What this class
 * adds, and why it is safe against server-side request forgery:
 *
 * <ul>
 *   <li>Jetty never looks a name up: its resolver is {@link CheckedAddressResolver}, which resolves
 *       the host once, checks every address ({@link InternalAddresses}; one internal address
 *       refuses the host) and hands Jetty exactly those addresses to connect to, so there is no
 *       second lookup a rebinding DNS server could answer differently. No proxy is configured.
 *   <li>The Host header is the URL's host, and those addresses carry the URL's host name, which
 *       Jetty's TLS uses for SNI and for the certificate check ({@code HTTPS} endpoint
 *       identification): connecting by address does not weaken TLS.
 *   <li>Redirects are never followed and no authentication challenge is answered: a 3xx is an
 *       answer like any other, so a public server cannot bounce the request to an internal one.
 *       Cookies are never stored, and bodies are never decoded (no gzip bomb).
 *   <li>Every exchange is bounded by {@link FetchLimits}: a connect deadline (until the request is
 *       on the wire, TLS included), a total deadline for the whole exchange, and answer bytes past
 *       the cap are never read ({@link CappedBody}).
 *   <li>URLs under an operator-allowed prefix go through a second Jetty client whose resolver does
 *       not refuse internal addresses, so a pooled connection is never shared between the two paths
 *       ({@link OutboundClients}).
 * </ul>
 *
 * <p>Exceptions carry details for the server log; callers decide what an API caller may see (a
 * generic sentence). {@link #close()} stops the Jetty clients; the server closes it on shutdown.
 */
public final class GuardedHttpClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GuardedHttpClient.class);

  /** Looks up a host's addresses; replaceable so tests can make a name resolve to loopback. */
  @FunctionalInterface
  public interface HostResolver {
    List<InetAddress> resolve(String host) throws UnknownHostException;

    HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));
  }

  private final FetchPolicy policy;
  private final OutboundClients clients;

  public GuardedHttpClient(FetchPolicy policy) {
    this(policy, HostResolver.SYSTEM, defaultTls());
  }

  /**
   * @param tls the trust (and protocols) for https; the certificate is always checked against the
   *     URL's host
   */
  public GuardedHttpClient(FetchPolicy policy, HostResolver resolver, SSLContext tls) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.clients = new OutboundClients(resolver, tls);
  }

  public FetchPolicy policy() {
    return policy;
  }

  /**
   * Sends the request and reads the answer, whatever its status.
   *
   * @throws DestinationRefusedException the destination is not allowed; nothing was sent
   * @throws OutboundTimeoutException connecting or the exchange took longer than the limits
   * @throws IOException the host is unknown, the connection failed or the answer is not HTTP
   */
  public OutboundResponse send(OutboundRequest request, FetchLimits limits) throws IOException {
    long deadline = System.nanoTime() + limits.total().toNanos();
    URI uri = request.uri();
    boolean allowed = policy.allows(uri);
    if (!allowed) { // a loopback name is refused without asking any resolver
      String name = InternalAddresses.nameKind(bare(uri.getHost())).orElse(null);
      if (name != null) {
        throw refused(uri, bare(uri.getHost()) + " is " + name);
      }
    }
    HttpClient jetty = clients.client(allowed);
    Request exchange =
        jetty
            .newRequest(uri)
            .method(request.method())
            .timeout(limits.total().toMillis(), TimeUnit.MILLISECONDS)
            .headers(headers -> request.headers().forEach(headers::put));
    if (request.body() != null || request.method().equals("POST")) {
      exchange.body(
          new BytesRequestContent(
              (String) null, request.body() == null ? new byte[0] : request.body()));
    }
    Scheduler.Task connectDeadline =
        jetty
            .getScheduler()
            .schedule(
                () ->
                    exchange.abort(
                        new OutboundTimeoutException(
                            "connecting to "
                                + describe(uri)
                                + " took longer than "
                                + limits.connect().toMillis()
                                + " ms")),
                limits.connect().toMillis(),
                TimeUnit.MILLISECONDS);
    exchange.onRequestCommit(committed -> connectDeadline.cancel());
    InputStreamResponseListener listener = new InputStreamResponseListener();
    exchange.send(listener);
    try {
      Response response =
          listener.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      return CappedBody.read(response, listener.getInputStream(), limits.maxResponseBytes());
    } catch (TimeoutException e) {
      exchange.abort(e);
      throw timedOut(limits);
    } catch (ExecutionException e) {
      throw failure(uri, e.getCause(), limits);
    } catch (IOException e) {
      throw failure(uri, e, limits);
    } catch (InterruptedException e) {
      exchange.abort(e);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while calling " + describe(uri));
    } finally {
      connectDeadline.cancel();
    }
  }

  /**
   * Jetty reports failures wrapped, sometimes twice; find what the caller needs to tell apart: a
   * refusal, a timeout (ours or Jetty's total timeout), a TLS or connection failure, an unknown
   * host.
   */
  private static IOException failure(URI uri, Throwable error, FetchLimits limits) {
    int depth = 0;
    for (Throwable t = error; t != null && depth++ < 10; t = t.getCause()) {
      switch (t) {
        case DestinationRefusedException refusal -> {
          return refused(uri, refusal.getMessage());
        }
        case OutboundTimeoutException timeout -> {
          return timeout;
        }
        case TimeoutException timeout -> {
          return timedOut(limits);
        }
        default -> {}
      }
    }
    depth = 0;
    for (Throwable t = error; t != null && depth++ < 10; t = t.getCause()) {
      if (t instanceof SSLException
          || t instanceof ConnectException
          || t instanceof UnknownHostException) {
        return (IOException) t;
      }
    }
    return error instanceof IOException io ? io : new IOException(String.valueOf(error), error);
  }

  private static DestinationRefusedException refused(URI uri, String why) {
    String message =
        "refused to call "
            + describe(uri)
            + ": "
            + why
            + " (an operator can allow a URL prefix with asa serve --allow-fetch)";
    LOG.warn(message);
    return new DestinationRefusedException(message);
  }

  private static OutboundTimeoutException timedOut(FetchLimits limits) {
    return new OutboundTimeoutException(
        "no complete answer within " + limits.total().toMillis() + " ms");
  }

  /** Stops the Jetty clients; a request sent afterwards fails. */
  @Override
  public void close() {
    clients.close();
  }

  /**
   * A URL for a log line: scheme, host, port and path, never user info or query, which often carry
   * a secret token.
   */
  public static String describe(URI uri) {
    StringBuilder out =
        new StringBuilder().append(uri.getScheme()).append("://").append(uri.getHost());
    if (uri.getPort() >= 0) {
      out.append(':').append(uri.getPort());
    }
    if (uri.getRawPath() != null) {
      out.append(uri.getRawPath());
    }
    if (uri.getRawQuery() != null) {
      out.append("?…");
    }
    return out.toString();
  }

  /** An IPv6 literal without its brackets. */
  static String bare(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  static boolean isIpLiteral(String host) {
    return host.contains(":") || host.matches("[0-9.]+");
  }

  private static SSLContext defaultTls() {
    try {
      return SSLContext.getDefault(); // the JVM's trust store, as any https client of the JVM
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no default TLS context", e);
    }
  }
}
