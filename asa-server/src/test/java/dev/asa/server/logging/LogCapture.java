package dev.asa.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/**
 * Captures every log line while open: the server's own at info, libraries at their level. Each
 * captured line can be read whole ({@link #everything}, for "this never appears" checks) or by
 * field ({@link Line}).
 */
public final class LogCapture implements AutoCloseable {
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
  private final Logger server = context.getLogger(LogSetup.SERVER_LOGGERS);
  private final Level serverLevel = server.getLevel();
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  public LogCapture() {
    appender.setContext(context);
    appender.start();
    root.addAppender(appender);
    server.setLevel(Level.INFO);
  }

  /** One captured line: its logger, message, fields (key-value pairs) and MDC. */
  public record Line(
      String logger,
      String level,
      String message,
      Map<String, Object> fields,
      Map<String, String> mdc) {
    public Object field(String name) {
      return fields.get(name);
    }

    /** Message, fields, MDC: everything the line would write. */
    String whole() {
      return logger + " " + level + " " + message + " " + fields + " " + mdc;
    }
  }

  public synchronized List<Line> lines() {
    return List.copyOf(appender.list).stream().map(LogCapture::line).toList();
  }

  /** The lines of one logger. */
  public List<Line> of(String logger) {
    return lines().stream().filter(l -> l.logger().equals(logger)).toList();
  }

  /** Every captured line written out, stack traces included. */
  public String everything() {
    return List.copyOf(appender.list).stream()
        .map(e ->
            line(e).whole()
                + (e.getThrowableProxy() == null
                    ? ""
                    : "\n" + ThrowableProxyUtil.asString(e.getThrowableProxy())))
        .collect(Collectors.joining("\n"));
  }

  private static Line line(ILoggingEvent e) {
    List<KeyValuePair> pairs = e.getKeyValuePairs() == null ? List.of() : e.getKeyValuePairs();
    Map<String, Object> fields =
        pairs.stream()
            .filter(p -> p.value != null)
            .collect(Collectors.toMap(p -> p.key, p -> p.value, (a, b) -> b));
    return new Line(
        e.getLoggerName(),
        e.getLevel().toString(),
        e.getFormattedMessage(),
        fields,
        Objects.requireNonNullElse(e.getMDCPropertyMap(), Map.of()));
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    server.setLevel(serverLevel);
  }
}
