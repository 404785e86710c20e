package dev.asa.server.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one HTTP client for requests the server makes to URLs it was given: deliverables by {@code
 * content_url}, webhooks, the x402 facilitator, dispute endpoints. It refuses to reach anything but
 * the public internet unless the operator allowed the URL's prefix ({@link FetchPolicy}).
 *
 * <p>Why this is safe against server-side request forgery:
 *
 * <ul>
 *   <li>The host is resolved once, here, and every address it resolves to is checked ({@link
 *       InternalAddresses}); one internal address refuses the host. The socket then connects to
 *       those very {@link InetAddress} objects, never to the name, so there is no second lookup a
 *       rebinding DNS server could answer differently. {@link Proxy#NO_PROXY} keeps a JVM-wide
 *       SOCKS proxy setting from doing a lookup of its own.
 *   <li>The Host header is the URL's host, and TLS is layered over the connected socket with the
 *       URL's host name for SNI and for certificate checking ({@code HTTPS} endpoint
 *       identification): connecting by address does not weaken TLS.
 *   <li>Redirects are never followed: a 3xx is an answer like any other, so a public server cannot
 *       bounce the request to an internal one.
 *   <li>Every exchange is bounded by {@link FetchLimits}: each read waits at most the time left, a
 *       watchdog closes the socket at the deadline (covering writes and TLS too), and answer bytes
 *       past the cap are never read.
 * </ul>
 *
 * <p>It speaks plain HTTP/1.1 with {@code Connection: close}: one request per connection, no pool a
 * later request could reuse without its own check. {@code java.net.http.HttpClient} cannot be
 * told which address to connect to for a name (and it looks names up itself), which is why this
 * small client exists; exceptions carry details for the server log, and callers decide what an API
 * caller may see (a generic sentence).
 */
public final class GuardedHttpClient {
  private static final Logger LOG = LoggerFactory.getLogger(GuardedHttpClient.class);

  /** Status line plus headers (and chunk-size lines, trailers) read at most. */
  static final int MAX_HEAD_BYTES = 64 * 1024;
  private static final int MAX_HEADERS = 200;

  /** Closes sockets whose exchange ran past its deadline; one daemon thread for all clients. */
  private static final ScheduledThreadPoolExecutor WATCHDOG = watchdog();

  /** Looks up a host's addresses; replaceable so tests can make a name resolve to loopback. */
  @FunctionalInterface
  public interface HostResolver {
    List<InetAddress> resolve(String host) throws UnknownHostException;

    HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));
  }

  private final FetchPolicy policy;
  private final HostResolver resolver;
  private final SSLSocketFactory tls;

  public GuardedHttpClient(FetchPolicy policy) {
    this(policy, HostResolver.SYSTEM, (SSLSocketFactory) SSLSocketFactory.getDefault());
  }

  public GuardedHttpClient(FetchPolicy policy, HostResolver resolver, SSLSocketFactory tls) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    this.tls = Objects.requireNonNull(tls, "tls");
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
    String host = bare(uri.getHost());
    boolean https = uri.getScheme().equalsIgnoreCase("https");
    int port = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
    List<InetAddress> addresses = checkedAddresses(uri, host);

    Socket socket = connect(addresses, port, limits, deadline, uri);
    AtomicBoolean expired = new AtomicBoolean();
    ScheduledFuture<?> stop = WATCHDOG.schedule(() -> {
      expired.set(true);
      closeQuietly(socket);
    }, Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    Socket open = socket;
    try {
      if (https) {
        open = handshake(socket, host, port, deadline);
      }
      OutputStream out = open.getOutputStream();
      out.write(head(request, uri));
      if (request.body() != null) {
        out.write(request.body());
      }
      out.flush();
      return new ResponseReader(new DeadlineInput(open, deadline), limits.maxResponseBytes(), request.method()).read();
    } catch (SocketTimeoutException e) {
      throw timedOut(limits);
    } catch (IOException e) {
      if (expired.get()) {
        throw timedOut(limits);
      }
      throw e;
    } finally {
      stop.cancel(false);
      closeQuietly(open);
      closeQuietly(socket);
    }
  }

  /** The addresses to connect to: resolved once, each checked unless the operator allowed the URL. */
  private List<InetAddress> checkedAddresses(URI uri, String host) throws IOException {
    boolean allowed = policy.allows(uri);
    if (!allowed) {
      String name = InternalAddresses.nameKind(host).orElse(null);
      if (name != null) {
        throw refused(uri, host + " is " + name);
      }
    }
    List<InetAddress> addresses = resolver.resolve(host);
    if (addresses.isEmpty()) {
      throw new UnknownHostException(host);
    }
    if (!allowed) {
      for (InetAddress address : addresses) {
        String kind = InternalAddresses.kind(address).orElse(null);
        if (kind != null) {
          throw refused(uri, host + " resolves to " + InternalAddresses.text(address) + ", which is " + kind);
        }
      }
    }
    return addresses;
  }

  private static DestinationRefusedException refused(URI uri, String why) {
    String message = "refused to call " + describe(uri) + ": " + why
        + " (an operator can allow a URL prefix with asa serve --allow-fetch)";
    LOG.warn(message);
    return new DestinationRefusedException(message);
  }

  /** Tries the checked addresses in turn, as a browser would; the deadline covers them all. */
  private static Socket connect(List<InetAddress> addresses, int port, FetchLimits limits, long deadline, URI uri)
      throws IOException {
    IOException last = null;
    for (InetAddress address : addresses) {
      long left = millisLeft(deadline);
      if (left <= 0) {
        break;
      }
      Socket socket = new Socket(Proxy.NO_PROXY);
      try {
        socket.connect(new InetSocketAddress(address, port), (int) Math.min(limits.connect().toMillis(), left));
        socket.setTcpNoDelay(true);
        return socket;
      } catch (SocketTimeoutException e) {
        closeQuietly(socket);
        last = new OutboundTimeoutException("connecting to " + describe(uri) + " timed out after "
            + Math.min(limits.connect().toMillis(), left) + " ms");
      } catch (IOException e) {
        closeQuietly(socket);
        last = e;
      }
    }
    throw last != null ? last : timedOut(limits);
  }

  private SSLSocket handshake(Socket socket, String host, int port, long deadline) throws IOException {
    String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    SSLSocket ssl = (SSLSocket) tls.createSocket(socket, name, port, true);
    SSLParameters parameters = ssl.getSSLParameters();
    // The certificate must name the URL's host, exactly as if we had connected by name.
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    if (!isIpLiteral(name)) {
      parameters.setServerNames(List.of(new SNIHostName(name)));
    }
    ssl.setSSLParameters(parameters);
    ssl.setSoTimeout((int) Math.max(1, millisLeft(deadline)));
    ssl.startHandshake();
    return ssl;
  }

  /** Request line and headers; the Host header is the URL's, whatever address was connected. */
  private static byte[] head(OutboundRequest request, URI uri) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    boolean https = uri.getScheme().equalsIgnoreCase("https");
    boolean defaultPort = uri.getPort() < 0 || uri.getPort() == (https ? 443 : 80);
    StringBuilder head = new StringBuilder(256);
    head.append(request.method()).append(' ').append(target).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(uri.getHost()).append(defaultPort ? "" : ":" + uri.getPort()).append("\r\n");
    boolean agent = false;
    for (Map.Entry<String, String> h : request.headers().entrySet()) {
      head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
      agent |= h.getKey().equalsIgnoreCase("user-agent");
    }
    if (!agent) {
      head.append("User-Agent: asa-server\r\n");
    }
    if (request.body() != null || request.method().equals("POST")) {
      head.append("Content-Length: ").append(request.body() == null ? 0 : request.body().length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    return head.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * A URL for a log line: scheme, host, port and path, never user info or query, which often carry
   * a secret token.
   */
  public static String describe(URI uri) {
    StringBuilder out = new StringBuilder().append(uri.getScheme()).append("://").append(uri.getHost());
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

  private static OutboundTimeoutException timedOut(FetchLimits limits) {
    return new OutboundTimeoutException("no complete answer within " + limits.total().toMillis() + " ms");
  }

  private static String bare(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  private static boolean isIpLiteral(String host) {
    return host.contains(":") || host.matches("[0-9.]+");
  }

  private static long millisLeft(long deadline) {
    return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing is best effort; the exchange is over either way
    }
  }

  private static ScheduledThreadPoolExecutor watchdog() {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "asa-outbound-deadline");
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true); // a finished exchange leaves nothing queued behind
    return executor;
  }

  /** Socket input whose every read waits no longer than the time left before the deadline. */
  private static final class DeadlineInput extends InputStream {
    private final Socket socket;
    private final InputStream in;
    private final long deadline;

    DeadlineInput(Socket socket, long deadline) throws IOException {
      this.socket = socket;
      this.in = socket.getInputStream();
      this.deadline = deadline;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      long left = millisLeft(deadline);
      if (left <= 0) {
        throw new SocketTimeoutException("deadline passed");
      }
      socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
      return in.read(b, off, len);
    }
  }

  /** Reads one HTTP/1.1 response: status line, headers, and a body framed as RFC 9112 says. */
  private static final class ResponseReader {
    private final InputStream in;
    private final long cap;
    private final String method;
    private final byte[] buffer = new byte[8192];
    private int pos;
    private int end;
    private int headBudget = MAX_HEAD_BYTES;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private boolean truncated;

    ResponseReader(InputStream in, long cap, String method) {
      this.in = in;
      this.cap = cap;
      this.method = method;
    }

    OutboundResponse read() throws IOException {
      int status;
      Map<String, List<String>> headers;
      do { // interim 1xx answers (100 Continue, 103 Early Hints) precede the real one
        status = statusLine(line());
        headers = headers();
      } while (status / 100 == 1 && status != 101);
      if (status == 101) {
        throw new ProtocolException("the server switched protocols (101)");
      }
      if (!method.equals("HEAD") && status != 204 && status != 304) {
        body(headers);
      }
      return new OutboundResponse(status, headers, body.toByteArray(), truncated);
    }

    private static int statusLine(String line) throws ProtocolException {
      if (!line.matches("HTTP/1\\.[01] [1-5][0-9][0-9]( .*)?")) {
        throw new ProtocolException("not an HTTP/1.1 status line");
      }
      return Integer.parseInt(line.substring(9, 12));
    }

    private Map<String, List<String>> headers() throws IOException {
      Map<String, List<String>> headers = new LinkedHashMap<>();
      int count = 0;
      for (String line = line(); !line.isEmpty(); line = line()) {
        int colon = line.indexOf(':');
        if (colon <= 0 || line.charAt(0) == ' ' || line.charAt(0) == '\t' || ++count > MAX_HEADERS) {
          throw new ProtocolException("a malformed or excessive header in the answer");
        }
        String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
        headers.computeIfAbsent(name, k -> new ArrayList<>()).add(line.substring(colon + 1).strip());
      }
      return headers;
    }

    private void body(Map<String, List<String>> headers) throws IOException {
      List<String> encodings = headers.get("transfer-encoding");
      if (encodings != null) {
        String last = encodings.getLast();
        String[] codings = last.split(",");
        if (codings[codings.length - 1].strip().equalsIgnoreCase("chunked")) {
          chunked();
        } else {
          untilClose(); // RFC 9112 6.3: a non-chunked transfer coding ends with the connection
        }
        return;
      }
      List<String> lengths = headers.get("content-length");
      if (lengths != null) {
        long length = contentLength(lengths);
        if (!copy(length)) {
          throw new IOException("the answer ended before its Content-Length");
        }
        return;
      }
      untilClose();
    }

    private static long contentLength(List<String> values) throws ProtocolException {
      String first = null;
      for (String value : values) {
        for (String part : value.split(",")) {
          String v = part.strip();
          if (!v.matches("[0-9]{1,18}") || first != null && !first.equals(v)) {
            throw new ProtocolException("an invalid Content-Length in the answer");
          }
          first = v;
        }
      }
      return Long.parseLong(first);
    }

    private void chunked() throws IOException {
      while (!truncated) {
        String line = line();
        int semicolon = line.indexOf(';');
        String size = (semicolon < 0 ? line : line.substring(0, semicolon)).strip();
        if (!size.matches("[0-9A-Fa-f]{1,15}")) {
          throw new ProtocolException("an invalid chunk size in the answer");
        }
        long n = Long.parseLong(size, 16);
        if (n == 0) {
          headers(); // trailers, read and dropped
          return;
        }
        if (!copy(n)) {
          throw new IOException("the answer ended inside a chunk");
        }
        if (!truncated && !line().isEmpty()) {
          throw new ProtocolException("a chunk longer than its size in the answer");
        }
      }
    }

    private void untilClose() throws IOException {
      while (!truncated && fill()) {
        take(end - pos);
      }
    }

    /** Copies {@code n} body bytes, or fewer if the cap is reached first; false at a premature end. */
    private boolean copy(long n) throws IOException {
      long left = n;
      while (left > 0 && !truncated) {
        if (pos == end && !fill()) {
          return false;
        }
        int chunk = (int) Math.min(left, end - pos);
        take(chunk);
        left -= chunk;
      }
      return true;
    }

    /** Keeps up to the cap; one byte past it marks the answer truncated and reading stops. */
    private void take(int n) {
      long room = cap - body.size();
      if (n > room) {
        body.write(buffer, pos, (int) room);
        truncated = true;
      } else {
        body.write(buffer, pos, n);
      }
      pos += n;
    }

    private String line() throws IOException {
      StringBuilder out = new StringBuilder();
      while (true) {
        if (pos == end && !fill()) {
          throw new IOException("the connection closed before the answer's head ended");
        }
        byte b = buffer[pos++];
        if (--headBudget < 0) {
          throw new ProtocolException("the answer's head is larger than " + MAX_HEAD_BYTES + " bytes");
        }
        if (b == '\n') {
          int length = out.length();
          return length > 0 && out.charAt(length - 1) == '\r' ? out.substring(0, length - 1) : out.toString();
        }
        out.append((char) (b & 0xff));
      }
    }

    private boolean fill() throws IOException {
      int n = in.read(buffer, 0, buffer.length);
      if (n <= 0) {
        return false;
      }
      pos = 0;
      end = n;
      return true;
    }
  }
}
