package dev.asa.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 decoding: every byte sequence that is not well-formed UTF-8 (RFC 3629) is refused
 * rather than replaced with U+FFFD. That covers truncated sequences, stray continuation bytes,
 * overlong forms such as {@code C0 AF} (a second spelling of '/'), UTF-16 surrogates encoded as
 * UTF-8 ({@code ED A0 80}) and code points above U+10FFFF. A lenient decoder would let two
 * different byte strings (the signed one and a rewritten one) read as the same text, or hide a
 * character from a filter that looks at bytes.
 */
public final class Utf8 {
  private Utf8() {}

  /** The bytes were not well-formed UTF-8; {@link #offset} is where the bad sequence starts. */
  public static final class MalformedException extends IllegalArgumentException {
    private final long offset;

    MalformedException(long offset, int length) {
      super(
          "malformed UTF-8 at byte "
              + offset
              + " ("
              + length
              + " byte"
              + (length == 1 ? "" : "s")
              + " that are not a well-formed UTF-8 sequence: overlong, surrogate, truncated or out of range)");
      this.offset = offset;
    }

    public long offset() {
      return offset;
    }
  }

  /** Decodes well-formed UTF-8, throwing {@link MalformedException} at the first bad sequence. */
  public static String decode(byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    // UTF-8 never decodes to more UTF-16 units than it has bytes.
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw new MalformedException(in.position(), result.length());
    }
    result = decoder.flush(out);
    if (result.isError()) {
      throw new MalformedException(in.position(), result.length());
    }
    return out.flip().toString();
  }
}
