package dev.asa.server.config;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * How the server reports on itself: its log lines ({@code --log-format}, {@code --log-level}) and
 * where {@code GET /metrics} answers ({@code --metrics-port}, {@code --metrics-bind}).
 *
 * @param logging the log format and level to configure at start-up; null leaves logging as the
 *     process has it (tests, and embedders with their own Logback configuration)
 * @param metrics where the metrics are served
 */
public record Observability(Logging logging, MetricsEndpoint metrics) {

  /** Logging left alone; metrics on the main port, for the operator key. */
  public static final Observability DEFAULTS =
      new Observability(null, MetricsEndpoint.OPERATOR_SIGNED);

  public Observability {
    Objects.requireNonNull(metrics, "metrics");
  }

  public Observability withLogging(Logging l) {
    return new Observability(l, metrics);
  }

  public Observability withMetrics(MetricsEndpoint m) {
    return new Observability(logging, m);
  }

  /**
   * One line per log event: {@code text} for people, {@code json} (one object a line) for tools.
   */
  public enum LogFormat {
    TEXT,
    JSON;

    /** {@code text} or {@code json}, in any case. */
    public static LogFormat fromWire(String name) {
      for (LogFormat f : values()) {
        if (f.name().equalsIgnoreCase(name)) {
          return f;
        }
      }
      throw new IllegalArgumentException("the log format is text or json, not '" + name + "'");
    }
  }

  /**
   * @param level the server's own level: error, warn, info, debug or trace (libraries stay at warn
   *     unless this is error)
   */
  public record Logging(LogFormat format, String level) {
    public static final Set<String> LEVELS = Set.of("error", "warn", "info", "debug", "trace");

    /** Text lines at info. */
    public static final Logging DEFAULTS = new Logging(LogFormat.TEXT, "info");

    public Logging {
      Objects.requireNonNull(format, "format");
      level = Objects.requireNonNull(level, "level").toLowerCase(Locale.ROOT);
      if (!LEVELS.contains(level)) {
        throw new IllegalArgumentException(
            "the log level is one of error, warn, info, debug, trace; not '" + level + "'");
      }
    }
  }

  /**
   * Where {@code GET /metrics} answers: on the main port, signed with the operator key ({@link
   * #OPERATOR_SIGNED}), or unauthenticated on a port of its own, bound to an address the operator
   * chooses (loopback by default), for a scraper that cannot sign requests.
   *
   * @param port the separate port (0 picks a free one), or -1 for the main port
   */
  public record MetricsEndpoint(String bind, int port) {
    public static final MetricsEndpoint OPERATOR_SIGNED = new MetricsEndpoint(null, -1);
    public static final String DEFAULT_BIND = "127.0.0.1";

    public MetricsEndpoint {
      if (port < -1 || port > 65535) {
        throw new IllegalArgumentException("the metrics port must be 0..65535, not " + port);
      }
      if (port >= 0) {
        Objects.requireNonNull(bind, "bind");
      }
    }

    /** A plain port of its own at {@code bind}. */
    public static MetricsEndpoint separate(String bind, int port) {
      return new MetricsEndpoint(bind, port);
    }

    public boolean isSeparate() {
      return port >= 0;
    }
  }
}
