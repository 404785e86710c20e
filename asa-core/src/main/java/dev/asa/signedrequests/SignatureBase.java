package dev.asa.signedrequests;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The signature base of RFC 9421 section 2.5: the exact text that an HTTP message signature signs.
 *
 * <p>The signer and the verifier both build it here, so they cannot drift apart. The base is one
 * line per covered component, {@code "<name>": <value>}, then the line {@code "@signature-params":
 * <params>}, joined by {@code \n} with no trailing newline. It is signed as UTF-8.
 *
 * <p>Construction refuses inputs that would make the base ambiguous: a value holding a line break
 * could forge extra lines, and a params string that lists other components than the lines would
 * sign one thing while claiming another. (A class rather than a record so that there is no public
 * constructor to skip those checks.)
 */
public final class SignatureBase {

  /**
   * One covered component and its value in the message, for example {@code ("@method", "POST")} or
   * {@code ("content-digest", "sha-256=:...:")}.
   *
   * @param name the component identifier without quotes: a derived component such as {@code
   *     "@target-uri"} or a lower-case header name
   * @param value the component value: for a header, its value as sent, trimmed
   */
  public record Component(String name, String value) {
    public Component {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      checkName(name);
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
          throw new IllegalArgumentException(
              "the value of component \""
                  + name
                  + "\" holds control character "
                  + String.format("U+%04X", (int) c)
                  + " at index "
                  + i
                  + "; a signature base line cannot hold line breaks or control characters");
        }
      }
    }

    private static void checkName(String name) {
      int start = name.startsWith("@") ? 1 : 0;
      if (name.length() == start) {
        throw new IllegalArgumentException("a component name cannot be empty");
      }
      for (int i = start; i < name.length(); i++) {
        char c = name.charAt(i);
        boolean ok =
            (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
        if (!ok) {
          throw new IllegalArgumentException(
              "component name "
                  + RequestAuthException.quote(name)
                  + " is not valid: names are lower-case header names or derived names such as"
                  + " @method");
        }
      }
    }
  }

  private final String text;

  private SignatureBase(String text) {
    this.text = text;
  }

  /**
   * Builds the base for {@code components} in order, ending with {@code signatureParams}.
   *
   * @param signatureParams the serialized inner list and its parameters, exactly as it appears in
   *     Signature-Input after {@code <label>=}, for example {@code ("@method");created=1;keyid="k"}
   * @throws IllegalArgumentException if a component repeats, or if {@code signatureParams} does not
   *     begin with the inner list of exactly these component names
   */
  public static SignatureBase of(List<Component> components, String signatureParams) {
    Objects.requireNonNull(components, "components");
    Objects.requireNonNull(signatureParams, "signatureParams");
    Set<String> seen = new HashSet<>();
    StringBuilder list = new StringBuilder("(");
    StringBuilder base = new StringBuilder();
    for (Component component : components) {
      if (!seen.add(component.name())) {
        throw new IllegalArgumentException(
            "component \"" + component.name() + "\" is covered twice; list each component once");
      }
      if (list.length() > 1) {
        list.append(' ');
      }
      list.append('"').append(component.name()).append('"');
      base.append('"')
          .append(component.name())
          .append("\": ")
          .append(component.value())
          .append('\n');
    }
    list.append(')');
    String expected = list.toString();
    if (!signatureParams.startsWith(expected)
        || (signatureParams.length() > expected.length()
            && signatureParams.charAt(expected.length()) != ';')) {
      throw new IllegalArgumentException(
          "signatureParams must start with the covered components "
              + expected
              + " followed by its parameters; got "
              + RequestAuthException.quote(signatureParams));
    }
    for (int i = 0; i < signatureParams.length(); i++) {
      char c = signatureParams.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw new IllegalArgumentException(
            "signatureParams holds a character outside printable ASCII at index " + i);
      }
    }
    base.append("\"@signature-params\": ").append(signatureParams);
    return new SignatureBase(base.toString());
  }

  /** The signature base as text. */
  public String text() {
    return text;
  }

  /** The UTF-8 bytes that are signed. */
  public byte[] utf8() {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SignatureBase other && text.equals(other.text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
