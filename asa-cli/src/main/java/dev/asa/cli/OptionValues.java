package dev.asa.cli;

import dev.asa.agreement.RotationTerms;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.server.config.Observability;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The kinds of option value that need more than picocli's own conversion: a whole number in a
 * range, a decimal in a range, an http(s) URL of some shape, a switch written {@code on|off}. Each
 * converter refuses a bad value with a {@link BadValue} whose message reads after the option's name
 * ({@code "must be a whole number from 0 to 65535, not '99999'"}); {@link Main} puts the option in
 * front, and the environment variable after it when the value came from there.
 *
 * <p>A converter takes no arguments (picocli makes it), so a range is a small subclass, named for
 * what it counts and reused by every option that counts it.
 */
final class OptionValues {
  private OptionValues() {}

  /** A value the option does not take; the message follows the option's name. */
  static final class BadValue extends TypeConversionException {
    BadValue(String message) {
      super(message);
    }
  }

  /**
   * A whole number from {@code min} to {@code max} ({@link Integer#MAX_VALUE}: no bound), as the
   * type the option holds.
   */
  abstract static class WholeNumber<T> implements ITypeConverter<T> {
    private final int min;
    private final int max;
    private final IntFunction<T> type;

    WholeNumber(int min, int max, IntFunction<T> type) {
      this.min = min;
      this.max = max;
      this.type = type;
    }

    @Override
    public T convert(String text) {
      try {
        int n = Integer.parseInt(text.strip());
        if (n >= min && n <= max) {
          return type.apply(n);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new BadValue(
          "must be a whole number"
              + (max == Integer.MAX_VALUE ? ", " + min + " or more" : " from " + min + " to " + max)
              + ", not '"
              + text
              + "'");
    }
  }

  /** A TCP port; 0 picks a free one. */
  static final class Port extends WholeNumber<Integer> {
    Port() {
      super(0, 65535, n -> n);
    }
  }

  /** How many of something may be asked for, from none up to a million. */
  static final class Count extends WholeNumber<Integer> {
    Count() {
      super(0, 1_000_000, n -> n);
    }
  }

  /** Requests per second. */
  static final class PerSecond extends WholeNumber<Integer> {
    PerSecond() {
      super(1, 1_000_000, n -> n);
    }
  }

  /** Rounds of a negotiation. */
  static final class Rounds extends WholeNumber<Integer> {
    Rounds() {
      super(1, 100, n -> n);
    }
  }

  /** Consecutive deliveries of one provider to one evaluator. */
  static final class Consecutive extends WholeNumber<Integer> {
    Consecutive() {
      super(1, RotationTerms.MAX, n -> n);
    }
  }

  /** Verifications run at once. */
  static final class Workers extends WholeNumber<Integer> {
    Workers() {
      super(1, 64, n -> n);
    }
  }

  /** Blocks deep on a chain. */
  static final class Blocks extends WholeNumber<Integer> {
    Blocks() {
      super(1, Integer.MAX_VALUE, n -> n);
    }
  }

  /** Whole days, up to a hundred years. */
  static final class Days extends WholeNumber<Duration> {
    Days() {
      super(1, 36_500, Duration::ofDays);
    }
  }

  /** Whole seconds, at least one. */
  static final class Seconds extends WholeNumber<Duration> {
    Seconds() {
      super(1, Integer.MAX_VALUE, Duration::ofSeconds);
    }
  }

  /** Whole seconds, up to an hour: how long one outgoing call may take. */
  static final class SecondsUpToAnHour extends WholeNumber<Duration> {
    SecondsUpToAnHour() {
      super(1, 3600, Duration::ofSeconds);
    }
  }

  /**
   * A decimal from 0 to {@code max} (null: no bound), described to the user as {@code expected}.
   */
  abstract static class Decimal implements ITypeConverter<BigDecimal> {
    private final BigDecimal max;
    private final String expected;

    Decimal(BigDecimal max, String expected) {
      this.max = max;
      this.expected = expected;
    }

    @Override
    public BigDecimal convert(String text) {
      try {
        BigDecimal value = new BigDecimal(text.strip());
        if (value.signum() >= 0 && (max == null || value.compareTo(max) <= 0)) {
          return value;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new BadValue("must be " + expected + ", not '" + text + "'");
    }
  }

  /** A fraction from 0 to 1. */
  static final class Fraction extends Decimal {
    Fraction() {
      super(BigDecimal.ONE, "a fraction from 0 to 1, such as 0.9 for 90%");
    }
  }

  /** A relative change, as a fraction of the value changed; above 1 is more than double. */
  static final class Ratio extends Decimal {
    Ratio() {
      super(null, "a decimal number, 0 or more, such as 0.25 for 25%");
    }
  }

  /** Score points from 0 to 100. */
  static final class ScorePoints extends Decimal {
    ScorePoints() {
      super(BigDecimal.valueOf(100), "score points from 0 to 100, such as 10");
    }
  }

  /** {@code LOW,HIGH}: multiples of the market median, {@code 0 <= LOW <= HIGH}. */
  record PriceBand(BigDecimal low, BigDecimal high) {

    static final class Converter implements ITypeConverter<PriceBand> {
      @Override
      public PriceBand convert(String text) {
        String[] parts = text.split(",", -1);
        try {
          if (parts.length == 2) {
            BigDecimal low = new BigDecimal(parts[0].strip());
            BigDecimal high = new BigDecimal(parts[1].strip());
            if (low.signum() >= 0 && low.compareTo(high) <= 0) {
              return new PriceBand(low, high);
            }
          }
        } catch (NumberFormatException e) {
          // reported below
        }
        throw new BadValue(
            "takes LOW,HIGH, two decimals with 0 <= LOW <= HIGH such as 0.5,3.0, not '"
                + text
                + "'");
      }
    }
  }

  /** An absolute http(s) URL with a host: where the server will send requests. */
  static final class HttpUrl implements ITypeConverter<URI> {
    @Override
    public URI convert(String text) {
      return httpUrl(text, "");
    }
  }

  /**
   * The start of the URLs the server may call, matched as text: it must end the host with a path,
   * or {@code https://pay.example} would let in {@code https://pay.example.evil/}.
   */
  static final class UrlPrefix implements ITypeConverter<URI> {
    @Override
    public URI convert(String text) {
      URI uri = httpUrl(text, "");
      if (uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
        throw new BadValue(
            "must end the host with a path, such as " + text + "/, not '" + text + "'");
      }
      return uri;
    }
  }

  /** A URL clients reach the server under: a scheme and authority, nothing after. */
  static final class Origin implements ITypeConverter<URI> {
    @Override
    public URI convert(String text) {
      URI uri = httpUrl(text, "");
      String path = uri.getRawPath();
      if ((path != null && !path.isEmpty() && !"/".equals(path))
          || uri.getRawQuery() != null
          || uri.getRawFragment() != null) {
        throw new BadValue(
            "is a scheme and authority such as https://asa.example.com, with no path, not '"
                + text
                + "'");
      }
      return uri;
    }
  }

  /**
   * {@code PROTOCOL=URL}: where disputes under a dispute protocol are filed.
   *
   * @param protocol as agreements write it in {@code dispute.protocol}: {@code ajp}, {@code
   *     kleros-v2}
   */
  record DisputeEndpoint(String protocol, URI url) {
    private static final Pattern PROTOCOL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    static final class Converter implements ITypeConverter<DisputeEndpoint> {
      @Override
      public DisputeEndpoint convert(String text) {
        int eq = text.indexOf('=');
        String protocol = eq < 0 ? "" : text.substring(0, eq).strip();
        if (!PROTOCOL.matcher(protocol).matches()) {
          throw new BadValue(
              "takes PROTOCOL=URL such as ajp=https://disputes.example/ajp, not '" + text + "'");
        }
        return new DisputeEndpoint(
            protocol, httpUrl(text.substring(eq + 1).strip(), protocol + " "));
      }
    }
  }

  /**
   * A public key written out (base64url or a did:key), or the name of a file holding one: the file
   * is read when the server is configured, so that one that cannot be read is an I/O failure.
   *
   * @param key the key written out, or null for a file
   * @param file the file, or null for a key written out
   */
  record PublicKeyOrFile(Ed25519PublicKey key, Path file) {

    static final class Converter implements ITypeConverter<PublicKeyOrFile> {
      @Override
      public PublicKeyOrFile convert(String text) {
        if (Files.isRegularFile(Path.of(text))) {
          return new PublicKeyOrFile(null, Path.of(text));
        }
        try {
          return new PublicKeyOrFile(
              text.startsWith("did:") ? DidKey.parse(text) : Ed25519PublicKey.fromBase64Url(text),
              null);
        } catch (IllegalArgumentException e) {
          throw new BadValue("must be a public key in base64url or a did:key: " + e.getMessage());
        }
      }
    }
  }

  /**
   * {@code on} or {@code off}. Not a {@code boolean}: picocli reads a boolean option's value itself
   * and would turn {@code on} into {@code true}.
   */
  enum Switch {
    ON,
    OFF;

    static final class Converter implements ITypeConverter<Switch> {
      @Override
      public Switch convert(String text) {
        return switch (text) {
          case "on" -> ON;
          case "off" -> OFF;
          default -> throw new BadValue("must be on or off, not '" + text + "'");
        };
      }
    }
  }

  /** {@code text} or {@code json}, in any case. */
  static final class LogFormat implements ITypeConverter<Observability.LogFormat> {
    @Override
    public Observability.LogFormat convert(String text) {
      try {
        return Observability.LogFormat.fromWire(text);
      } catch (IllegalArgumentException e) {
        throw new BadValue("must be text or json, not '" + text + "'");
      }
    }
  }

  /** One of {@link Observability.Logging#LEVELS}, in any case; lower-cased. */
  static final class LogLevel implements ITypeConverter<String> {
    @Override
    public String convert(String text) {
      String level = text.strip().toLowerCase(Locale.ROOT);
      if (Observability.Logging.LEVELS.contains(level)) {
        return level;
      }
      throw new BadValue("must be one of error, warn, info, debug, trace, not '" + text + "'");
    }
  }

  /**
   * An absolute http(s) URL with a host; {@code what} (the dispute protocol and a space, or empty)
   * goes before the message.
   */
  private static URI httpUrl(String text, String what) {
    try {
      URI uri = new URI(text);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new BadValue(
        what
            + "must be an http(s) URL with a host, such as https://payments.example/, not '"
            + text
            + "'");
  }
}
