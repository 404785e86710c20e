package dev.asa.signedrequests;

import dev.asa.signedrequests.RequestAuthException.Reason;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A strict parser for the small part of RFC 8941 (Structured Field Values) that the ASA signature
 * profile uses, and nothing more.
 *
 * <p>Accepted: a dictionary whose member values are either an inner list of strings or a byte
 * sequence, each followed by parameters whose values are integers or strings. Refused, with a
 * message naming the position: tokens, decimals, booleans, bare keys, parameters on list items,
 * duplicate keys or parameters, and any whitespace the canonical serialization would not produce
 * inside a member. Requiring the canonical form means that the text of a member is exactly what RFC
 * 9421 would re-serialize it to, so the signature base can use the text as received with no room
 * for the two sides to disagree.
 *
 * <p>Every failure is a {@link RequestAuthException} with the reason the caller chose for this
 * header; the parser does no more work than one pass over the text, which the caller has already
 * limited in length.
 */
final class StructuredFields {

  /**
   * One dictionary member: its key, its value, its parameters and the exact text of all but key.
   */
  record Member(String key, Object value, List<Param> params, String rawValue) {
    boolean isInnerList() {
      return value instanceof InnerList;
    }

    boolean isByteSequence() {
      return value instanceof byte[];
    }
  }

  /** An inner list of strings, such as the covered components {@code ("@method" "@target-uri")}. */
  record InnerList(List<String> strings) {}

  /** A parameter; {@code value} is a {@link Long} or a {@link String}. */
  record Param(String key, Object value) {}

  private static final int MAX_INTEGER_DIGITS = 15;

  private final String field;
  private final Reason reason;
  private final String text;
  private int pos;

  private StructuredFields(String field, Reason reason, String text) {
    this.field = field;
    this.reason = reason;
    this.text = text;
  }

  /**
   * Parses {@code text}, the value of header {@code field}, as a dictionary.
   *
   * @throws RequestAuthException with {@code reason} if the text is not in the accepted subset
   */
  static List<Member> parseDictionary(String field, Reason reason, String text) {
    return new StructuredFields(field, reason, text).dictionary();
  }

  private List<Member> dictionary() {
    // Leading and trailing whitespace is not part of an HTTP field value (RFC 9110 section 5.5),
    // and RFC 8941 discards leading and trailing spaces too.
    int end = text.length();
    while (end > 0 && isOws(text.charAt(end - 1))) {
      end--;
    }
    skipOws();
    if (pos >= end) {
      throw fail("is empty");
    }
    List<Member> members = new ArrayList<>();
    while (true) {
      Member member = member(end);
      for (Member seen : members) {
        if (seen.key().equals(member.key())) {
          throw fail("names the member '" + member.key() + "' twice");
        }
      }
      members.add(member);
      if (pos == end) {
        return List.copyOf(members);
      }
      skipOws();
      if (pos >= end || text.charAt(pos) != ',') {
        throw failAt("expected ',' between members or the end of the value");
      }
      pos++;
      skipOws();
      if (pos >= end) {
        throw failAt("has a trailing ','");
      }
    }
  }

  private Member member(int end) {
    String key = key();
    if (pos >= end || text.charAt(pos) != '=') {
      throw failAt("member '" + key + "' needs a value: expected '=' after the key");
    }
    pos++;
    int valueStart = pos;
    Object value;
    if (pos < end && text.charAt(pos) == '(') {
      value = innerList(end);
    } else if (pos < end && text.charAt(pos) == ':') {
      value = byteSequence(end);
    } else {
      throw failAt("member '" + key + "' must be an inner list '(...)' or a byte sequence ':...:'");
    }
    List<Param> params = parameters(end);
    return new Member(key, value, params, text.substring(valueStart, pos));
  }

  private InnerList innerList(int end) {
    pos++; // '('
    List<String> items = new ArrayList<>();
    if (pos < end && text.charAt(pos) == ')') {
      pos++;
      return new InnerList(List.of());
    }
    while (true) {
      if (pos >= end) {
        throw failAt("inner list is not closed: expected ')'");
      }
      char c = text.charAt(pos);
      if (c == ' ' || c == ')') {
        throw failAt("has a space the canonical form does not have; separate items by one space");
      }
      if (c != '"') {
        throw failAt("inner list items must be quoted strings such as \"@method\"");
      }
      items.add(string(end));
      if (pos >= end) {
        throw failAt("inner list is not closed: expected ')'");
      }
      c = text.charAt(pos);
      if (c == ')') {
        pos++;
        return new InnerList(List.copyOf(items));
      }
      if (c == ';') {
        throw failAt("component parameters (such as ;sf or ;key) are not supported");
      }
      if (c != ' ') {
        throw failAt("expected ' ' or ')' after an inner list item");
      }
      pos++;
    }
  }

  private List<Param> parameters(int end) {
    List<Param> params = new ArrayList<>();
    while (pos < end && text.charAt(pos) == ';') {
      pos++;
      String key = key();
      for (Param seen : params) {
        if (seen.key().equals(key)) {
          throw failAt("repeats the parameter '" + key + "'");
        }
      }
      if (pos >= end || text.charAt(pos) != '=') {
        throw failAt("parameter '" + key + "' needs a value: expected '='");
      }
      pos++;
      Object value;
      if (pos < end && text.charAt(pos) == '"') {
        value = string(end);
      } else if (pos < end && (text.charAt(pos) == '-' || isDigit(text.charAt(pos)))) {
        value = integer(end);
      } else {
        throw failAt("parameter '" + key + "' must be an integer or a quoted string");
      }
      params.add(new Param(key, value));
    }
    return List.copyOf(params);
  }

  private String key() {
    int start = pos;
    if (pos >= text.length() || !(isLcAlpha(text.charAt(pos)) || text.charAt(pos) == '*')) {
      throw failAt("expected a key (lower-case letters, digits, '_', '-', '.', '*')");
    }
    pos++;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (!(isLcAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*')) {
        break;
      }
      pos++;
    }
    return text.substring(start, pos);
  }

  private String string(int end) {
    pos++; // opening quote
    StringBuilder out = new StringBuilder();
    while (pos < end) {
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c == '\\') {
        if (pos >= end || (text.charAt(pos) != '"' && text.charAt(pos) != '\\')) {
          pos = Math.min(pos, end);
          throw failAt("a string may only escape '\"' and '\\'");
        }
        out.append(text.charAt(pos++));
      } else if (c < 0x20 || c > 0x7e) {
        pos--;
        throw failAt("strings may only hold printable ASCII");
      } else {
        out.append(c);
      }
    }
    throw failAt("string is not closed: expected '\"'");
  }

  private Long integer(int end) {
    int start = pos;
    if (text.charAt(pos) == '-') {
      pos++;
    }
    int digitsStart = pos;
    while (pos < end && isDigit(text.charAt(pos))) {
      pos++;
    }
    int digits = pos - digitsStart;
    if (digits == 0) {
      throw failAt("expected digits");
    }
    if (digits > MAX_INTEGER_DIGITS) {
      pos = digitsStart;
      throw failAt("integers have at most " + MAX_INTEGER_DIGITS + " digits");
    }
    if (pos < end && text.charAt(pos) == '.') {
      throw failAt("decimals are not allowed here; use a whole number");
    }
    if (digits > 1 && text.charAt(digitsStart) == '0') {
      pos = digitsStart;
      throw failAt("integers must not have leading zeros");
    }
    String literal = text.substring(start, pos);
    if (literal.equals("-0")) {
      pos = start;
      throw failAt("write zero as 0, not -0");
    }
    // At most 15 digits and a sign: Long.parseLong cannot fail here.
    return Long.parseLong(literal);
  }

  private byte[] byteSequence(int end) {
    pos++; // ':'
    int start = pos;
    while (pos < end && text.charAt(pos) != ':') {
      char c = text.charAt(pos);
      if (!(isLcAlpha(c)
          || (c >= 'A' && c <= 'Z')
          || isDigit(c)
          || c == '+'
          || c == '/'
          || c == '=')) {
        throw failAt("byte sequences hold standard base64 (A-Z a-z 0-9 + / =)");
      }
      pos++;
    }
    if (pos >= end) {
      throw failAt("byte sequence is not closed: expected ':'");
    }
    String base64 = text.substring(start, pos);
    pos++; // ':'
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw fail("holds a byte sequence that is not valid base64 (with '=' padding)");
    }
    // One spelling per value: padding present and unused bits zero, as the serializer writes it.
    if (!Base64.getEncoder().encodeToString(bytes).equals(base64)) {
      throw fail(
          "holds a byte sequence that is not canonical base64: pad to a multiple of 4 characters"
              + " with '=' and leave the unused bits of the last character zero");
    }
    return bytes;
  }

  private void skipOws() {
    while (pos < text.length() && isOws(text.charAt(pos))) {
      pos++;
    }
  }

  private static boolean isOws(char c) {
    return c == ' ' || c == '\t';
  }

  private static boolean isLcAlpha(char c) {
    return c >= 'a' && c <= 'z';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private RequestAuthException fail(String problem) {
    return new RequestAuthException(reason, field + " " + problem);
  }

  private RequestAuthException failAt(String problem) {
    String found =
        pos < text.length()
            ? "found " + RequestAuthException.quote(String.valueOf(text.charAt(pos)))
            : "found the end of the value";
    return new RequestAuthException(
        reason, field + " is not valid at character " + pos + ": " + problem + "; " + found);
  }
}
