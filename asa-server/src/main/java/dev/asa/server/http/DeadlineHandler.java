package dev.asa.server.http;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Enforces {@link ReadDeadlines} on Jetty, which has an idle timeout but no deadline for a request
 * to arrive: a client sending one byte every few seconds is never idle, and would hold its
 * connection for as long as it likes (slowloris). Two timers per connection, at most one running:
 *
 * <ul>
 *   <li>the <b>head</b> timer starts when the connection opens and again when a response completes,
 *       and stops when the next request reaches the handlers (its head has been parsed);
 *   <li>the <b>body</b> timer starts then, for a request that declares a body, and stops when the
 *       last chunk of the body has been read or the response completes.
 * </ul>
 *
 * A timer that fires closes the connection: a stalled head gets no answer (nothing was asked yet),
 * a stalled body fails the read (by {@link AccessGate}, before the handler), which is reported as
 * an aborted upload in one log line.
 *
 * <p>Install it as the server's outermost handler and as a {@link Connection.Listener} bean on the
 * connector ({@link #connections()}).
 */
public final class DeadlineHandler extends Handler.Wrapper {

  private final ReadDeadlines deadlines;
  private final Map<Connection, Scheduler.Task> waitingForHead = new ConcurrentHashMap<>();

  /** The handler it wraps is set with {@link #setHandler}. */
  public DeadlineHandler(ReadDeadlines deadlines) {
    this.deadlines = deadlines;
  }

  /** The listener that starts the head timer of each new connection and drops it at close. */
  public Connection.Listener connections() {
    return new Connection.Listener() {
      @Override
      public void onOpened(Connection connection) {
        awaitHead(connection);
      }

      @Override
      public void onClosed(Connection connection) {
        Scheduler.Task task = waitingForHead.remove(connection);
        if (task != null) {
          task.cancel();
        }
      }
    };
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    Connection connection = request.getConnectionMetaData().getConnection();
    Scheduler.Task head = waitingForHead.remove(connection);
    if (head != null) {
      head.cancel();
    }
    if (!hasBody(request)) {
      return super.handle(request, response, first(callback, () -> awaitHead(connection)));
    }
    Scheduler.Task body =
        scheduler()
            .schedule(
                () ->
                    connection
                        .getEndPoint()
                        .close(
                            new TimeoutException(
                                "the request body did not arrive within "
                                    + deadlines.body().toSeconds()
                                    + " s")),
                deadlines.body());
    Request timed =
        new Request.Wrapper(request) {
          @Override
          public Content.Chunk read() {
            Content.Chunk chunk = super.read();
            if (chunk != null && chunk.isLast()) {
              body.cancel();
            }
            return chunk;
          }
        };
    return super.handle(
        timed,
        response,
        first(
            callback,
            () -> {
              body.cancel();
              awaitHead(connection);
            }));
  }

  /**
   * Runs {@code then} before completing {@code callback}: completing it lets Jetty parse the next
   * request on the connection, whose head timer must not be started after it has arrived.
   */
  private static Callback first(Callback callback, Runnable then) {
    return new Callback.Nested(callback) {
      @Override
      public void succeeded() {
        then.run();
        super.succeeded();
      }

      @Override
      public void failed(Throwable x) {
        then.run();
        super.failed(x);
      }
    };
  }

  private void awaitHead(Connection connection) {
    if (!connection.getEndPoint().isOpen()) {
      return;
    }
    Scheduler.Task task =
        scheduler()
            .schedule(
                () -> {
                  waitingForHead.remove(connection);
                  connection
                      .getEndPoint()
                      .close(
                          new TimeoutException(
                              "the request head did not arrive within "
                                  + deadlines.head().toSeconds()
                                  + " s"));
                },
                deadlines.head());
    Scheduler.Task previous = waitingForHead.put(connection, task);
    if (previous != null) {
      previous.cancel();
    }
  }

  private static boolean hasBody(Request request) {
    return request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
  }

  private Scheduler scheduler() {
    return getServer().getScheduler();
  }
}
