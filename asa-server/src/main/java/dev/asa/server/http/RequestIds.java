package dev.asa.server.http;

import io.javalin.http.Context;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The request id: the caller's {@code X-Request-Id} when it is well formed (1 to 128 characters of
 * letters, digits, {@code - _ . :}), so a request can be followed from the caller's logs into ours;
 * otherwise a new one. It is answered as the {@code X-Request-Id} header, written on the access-log
 * line and every line logged while the request runs, and put in problem+json bodies.
 */
public final class RequestIds {
  public static final String HEADER = "X-Request-Id";
  static final String ATTRIBUTE = "asa.request_id";
  static final int MAX_LENGTH = 128;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private RequestIds() {}

  /** {@code incoming} when it is well formed, otherwise a new id. */
  static String accept(String incoming) {
    return isWellFormed(incoming) ? incoming : generate();
  }

  /** The id given to this request (a new one if none was given yet). */
  static String of(Context ctx) {
    String id = ctx.attribute(ATTRIBUTE);
    if (id == null) {
      id = generate();
      ctx.attribute(ATTRIBUTE, id);
    }
    return id;
  }

  static boolean isWellFormed(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_'
              || c == '.'
              || c == ':';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * 128 random bits as 32 hex digits: unique enough to correlate lines, and no secure random on the
   * request path (an id is not a secret).
   */
  static String generate() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    char[] out = new char[32];
    for (int half = 0; half < 2; half++) {
      long bits = random.nextLong();
      for (int i = 0; i < 16; i++) {
        out[half * 16 + i] = HEX[(int) (bits >>> (60 - 4 * i)) & 0xf];
      }
    }
    return new String(out);
  }
}
