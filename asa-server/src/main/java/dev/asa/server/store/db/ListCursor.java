package dev.asa.server.store.db;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque cursor of {@code AgreementStore.listByParty}: the internal row position of the last
 * row returned. Keyset pagination (rather than OFFSET) keeps every page an index range scan,
 * however deep the caller pages, and new agreements never shift later pages. Encoded so callers
 * treat it as a token rather than a number to do arithmetic on; the "v1" prefix leaves room to
 * change it.
 */
public final class ListCursor {

  private static final String PREFIX = "v1:";

  private ListCursor() {}

  public static String encode(long rowSeq) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((PREFIX + rowSeq).getBytes(StandardCharsets.US_ASCII));
  }

  /** The row position to continue below; {@link Long#MAX_VALUE} for a null cursor (first page). */
  public static long decode(String cursor) {
    if (cursor == null) {
      return Long.MAX_VALUE;
    }
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
      if (text.startsWith(PREFIX)) {
        long rowSeq = Long.parseLong(text.substring(PREFIX.length()));
        if (rowSeq > 0) {
          return rowSeq;
        }
      }
    } catch (IllegalArgumentException e) { // bad base64 or number (NumberFormatException)
      // fall through to the common refusal
    }
    throw new IllegalArgumentException(
        "invalid list cursor '"
            + cursor
            + "': pass back the next_cursor of the previous page unchanged");
  }
}
