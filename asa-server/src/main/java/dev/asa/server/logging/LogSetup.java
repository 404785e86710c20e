package dev.asa.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import dev.asa.server.config.Observability;
import java.io.OutputStream;
import net.logstash.logback.encoder.LogstashEncoder;
import org.slf4j.LoggerFactory;

/**
 * Configures Logback from {@code asa serve}'s flags, in code, once at start-up: one appender on
 * stderr (stdout carries the start-up summary), in text or JSON, the server's loggers at the chosen
 * level and libraries at warn (Jetty, Flyway and Hikari are chatty at info).
 *
 * <p>Text lines read {@code time LEVEL logger message [request_id=...]}. JSON lines are one flat
 * object each, from logstash-logback-encoder: {@code @timestamp}, {@code level}, {@code
 * logger_name}, {@code thread_name}, {@code message}, the request's {@code request_id} (from the
 * MDC) and the line's own fields (SLF4J key-value pairs such as {@code agreement_id}, {@code
 * status}).
 */
public final class LogSetup {

  /** The logger of the server's own lines: the level flag applies to it and below. */
  static final String SERVER_LOGGERS = "dev.asa";

  static final String TEXT_PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX} %-5level %logger{0} %msg"
          + "%replace( request_id=%X{request_id}){' request_id=$', ''}%n";

  private LogSetup() {}

  /** Replaces the process's Logback configuration with {@code settings}, writing to stderr. */
  public static void apply(Observability.Logging settings) {
    apply(settings, System.err);
  }

  /**
   * As {@link #apply(Observability.Logging)}, writing to {@code out} (tests). Does nothing when
   * SLF4J is bound to another backend than Logback (an embedder's choice).
   */
  static void apply(Observability.Logging settings, OutputStream out) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      LoggerFactory.getLogger(LogSetup.class)
          .warn("SLF4J is not bound to Logback; --log-format and --log-level are ignored");
      return;
    }
    context.reset();
    OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    appender.setContext(context);
    appender.setName("asa");
    appender.setEncoder(encoder(settings.format(), context));
    appender.setOutputStream(out);
    appender.start();

    Level level = Level.toLevel(settings.level());
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(level.isGreaterOrEqual(Level.WARN) ? level : Level.WARN);
    root.addAppender(appender);
    context.getLogger(SERVER_LOGGERS).setLevel(level);
    // DJL (the embedding model's tokenizer) warns when it finds no GPU: expected, not news.
    context.getLogger("ai.djl").setLevel(Level.ERROR);
  }

  private static Encoder<ILoggingEvent> encoder(
      Observability.LogFormat format, LoggerContext context) {
    return switch (format) {
      case TEXT -> {
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern(TEXT_PATTERN);
        text.start();
        yield text;
      }
      case JSON -> {
        LogstashEncoder json = new LogstashEncoder();
        json.setContext(context);
        // Noise for a reader: the encoder's schema version and the level as a number.
        json.getFieldNames().setVersion("[ignore]");
        json.getFieldNames().setLevelValue("[ignore]");
        json.start();
        yield json;
      }
    };
  }
}
