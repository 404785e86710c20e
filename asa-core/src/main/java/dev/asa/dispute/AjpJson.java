package dev.asa.dispute;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.Digest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Agent Justice Protocol's canonical JSON and hashes, which are not this project's: AJP hashes
 * Python's {@code json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)} with
 * SHA-256 and writes the digest as bare lower-case hex, where ASA hashes RFC 8785 (JCS) and writes
 * {@code sha256:<hex>}. The two differ in how they escape text (AJP escapes every non-ASCII
 * character as {@code \\uXXXX}, a character beyond the BMP as its surrogate pair; JCS writes
 * UTF-8), in key order beyond the BMP (code points against UTF-16 units) and in how they write
 * floats (Python's {@code repr}). So the claims this server files hold no floats at all (amounts
 * are decimal strings, as AJP's whitepaper writes them), and this class refuses one rather than
 * guess how Python would print it.
 *
 * <p>Written here rather than taken from a library: no Java library implements Python's {@code
 * json.dumps}, and the rules are a screenful. Checked against claims the AJP reference code hashed
 * ({@code ajp-claims.json} in the tests).
 */
public final class AjpJson {
  private AjpJson() {}

  /** AJP's canonical text of {@code node}. */
  public static String canonical(JsonNode node) {
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  /** AJP's hash: SHA-256 of the canonical text, bare hex. */
  public static String hash(JsonNode node) {
    return Digest.sha256(canonical(node).getBytes(StandardCharsets.UTF_8)).hex();
  }

  /** AJP's content hash of a string: SHA-256 of its UTF-8 bytes, bare hex. */
  public static String contentHash(String text) {
    return Digest.sha256(text.getBytes(StandardCharsets.UTF_8)).hex();
  }

  private static void write(JsonNode node, StringBuilder out) {
    switch (node.getNodeType()) {
      case OBJECT -> {
        // Python sorts str keys by code point; a String's natural order is by UTF-16 unit, which
        // differs only beyond the BMP: compare code points.
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        names.sort(AjpJson::byCodePoint);
        out.append('{');
        for (int i = 0; i < names.size(); i++) {
          if (i > 0) {
            out.append(',');
          }
          string(names.get(i), out);
          out.append(':');
          write(node.get(names.get(i)), out);
        }
        out.append('}');
      }
      case ARRAY -> {
        out.append('[');
        for (int i = 0; i < node.size(); i++) {
          if (i > 0) {
            out.append(',');
          }
          write(node.get(i), out);
        }
        out.append(']');
      }
      case STRING -> string(node.textValue(), out);
      case BOOLEAN -> out.append(node.booleanValue() ? "true" : "false");
      case NULL -> out.append("null");
      case NUMBER -> {
        if (!node.isIntegralNumber()) {
          throw new IllegalArgumentException(
              "AJP hashes floats as Python prints them; write " + node + " as a decimal string");
        }
        out.append(node.bigIntegerValue());
      }
      default -> throw new IllegalArgumentException("not JSON: " + node.getNodeType());
    }
  }

  private static int byCodePoint(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /** As Python's {@code ensure_ascii} encoder writes a string. */
  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c)); // a surrogate is written as it is held
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
