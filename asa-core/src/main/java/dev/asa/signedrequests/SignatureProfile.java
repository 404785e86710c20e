package dev.asa.signedrequests;

import dev.asa.signedrequests.RequestAuthException.Reason;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The fixed choices of the ASA request-signature profile, shared by {@link RequestSigner} and
 * {@link RequestVerifier} so that each rule is written once. The profile itself is described for
 * client authors in {@link RequestSigner}.
 */
final class SignatureProfile {

  static final String SIGNATURE_INPUT = "Signature-Input";
  static final String SIGNATURE = "Signature";
  static final String LABEL = "sig1";
  static final String ALG = "ed25519";

  static final List<String> COVERED_WITH_BODY = List.of("@method", "@target-uri", "content-digest");
  static final List<String> COVERED_WITHOUT_BODY = List.of("@method", "@target-uri");

  /** Longest Signature-Input or Signature value accepted; real ones are about 200 characters. */
  static final int MAX_HEADER_LENGTH = 4096;

  static final int MIN_NONCE_LENGTH = 16;
  static final int MAX_NONCE_LENGTH = 128;

  private SignatureProfile() {}

  static boolean hasBody(byte[] body) {
    return body != null && body.length > 0;
  }

  static List<String> coveredComponents(boolean hasBody) {
    return hasBody ? COVERED_WITH_BODY : COVERED_WITHOUT_BODY;
  }

  /** The {@code @method} value: the method in upper case, after checking it is an HTTP token. */
  static String methodValue(String method) {
    Objects.requireNonNull(method, "method");
    if (method.isEmpty()) {
      throw new IllegalArgumentException("method is empty; pass the HTTP method such as POST");
    }
    for (int i = 0; i < method.length(); i++) {
      char c = method.charAt(i);
      boolean token =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!token) {
        throw new IllegalArgumentException(
            "method " + RequestAuthException.quote(method) + " is not an HTTP method token");
      }
    }
    return method.toUpperCase(Locale.ROOT);
  }

  /**
   * The {@code @target-uri} value: the absolute URI in its ASCII form, which is what travels on the
   * wire, with an empty path written as {@code /}. A fragment or user info is never sent in an HTTP
   * request, so signing one would sign something the server cannot see.
   */
  static String targetUriValue(URI uri) {
    Objects.requireNonNull(uri, "targetUri");
    if (!uri.isAbsolute() || uri.isOpaque() || uri.getRawAuthority() == null) {
      throw new IllegalArgumentException(
          "target URI "
              + RequestAuthException.quote(uri.toString())
              + " must be absolute, such as http://127.0.0.1:8080/agreements");
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException(
          "target URI " + RequestAuthException.quote(uri.toString()) + " must be http or https");
    }
    if (uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException(
          "target URI "
              + RequestAuthException.quote(uri.toString())
              + " must have no fragment and no user info: neither is sent in an HTTP request");
    }
    String ascii = uri.toASCIIString();
    if (uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
      // HTTP sends an empty path as "/" (RFC 9110 section 4.2.3), so that is what both sides see.
      int at = ascii.indexOf('?');
      ascii = at < 0 ? ascii + "/" : ascii.substring(0, at) + "/" + ascii.substring(at);
    }
    return ascii;
  }

  static boolean isValidNonce(String nonce) {
    if (nonce.length() < MIN_NONCE_LENGTH || nonce.length() > MAX_NONCE_LENGTH) {
      return false;
    }
    for (int i = 0; i < nonce.length(); i++) {
      char c = nonce.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** {@code ("c1" "c2");created=...;nonce="...";keyid="...";alg="ed25519"}, the signer's order. */
  static String serializeParams(List<String> covered, long created, String nonce, String keyId) {
    // The values come from fixed lists and from alphabets without '"' or '\', so no escaping.
    return serializeList(covered)
        + ";created="
        + created
        + ";nonce=\""
        + nonce
        + "\";keyid=\""
        + keyId
        + "\";alg=\""
        + ALG
        + "\"";
  }

  static String serializeList(List<String> names) {
    StringBuilder out = new StringBuilder("(");
    for (String name : names) {
      if (out.length() > 1) {
        out.append(' ');
      }
      out.append('"').append(name).append('"');
    }
    return out.append(')').toString();
  }

  /**
   * The lines of the signature base, in the order of {@code covered}: the profile's components
   * (which {@code covered} holds, see {@link #coveredComponents}) and any others a signer chose to
   * add, in any order: the derived components {@code @authority}, {@code @scheme}, {@code @path}
   * and {@code @query}, and header fields the request carries.
   *
   * @throws RequestAuthException for a component named twice, one this server cannot derive, or a
   *     header field the request does not carry
   */
  static List<SignatureBase.Component> components(
      List<String> covered,
      String method,
      URI targetUri,
      Function<String, String> header,
      String contentDigest) {
    List<SignatureBase.Component> out = new ArrayList<>(covered.size());
    Set<String> seen = new HashSet<>();
    for (String name : covered) {
      if (!seen.add(name)) {
        throw new RequestAuthException(
            Reason.WRONG_COMPONENTS,
            "Signature-Input covers " + RequestAuthException.quote(name) + " twice; cover it once");
      }
      String value =
          switch (name) {
            case "@method" -> method;
            case "@target-uri" -> targetUriValue(targetUri);
            case "@authority" -> authorityValue(targetUri);
            case "@scheme" -> targetUri.getScheme().toLowerCase(Locale.ROOT);
            case "@path" ->
                targetUri.getRawPath() == null || targetUri.getRawPath().isEmpty()
                    ? "/"
                    : targetUri.getRawPath();
            case "@query" -> "?" + (targetUri.getRawQuery() == null ? "" : targetUri.getRawQuery());
            case "content-digest" ->
                contentDigest != null ? contentDigest : headerValue(header, name);
            default -> {
              if (name.startsWith("@") || !FIELD_NAME.matcher(name).matches()) {
                throw new RequestAuthException(
                    Reason.WRONG_COMPONENTS,
                    "Signature-Input covers "
                        + RequestAuthException.quote(name)
                        + ", which this server does not derive; cover @method, @target-uri,"
                        + " content-digest (with a body) and, if you like, @authority, @scheme,"
                        + " @path, @query or header fields by their lower-case names");
              }
              yield headerValue(header, name);
            }
          };
      out.add(new SignatureBase.Component(name, value));
    }
    return out;
  }

  /** A header field name as a component identifier: lower case (RFC 9421 section 2.1). */
  private static final Pattern FIELD_NAME = Pattern.compile("[a-z0-9!#$%&'*+.^_`|~-]{1,64}");

  /** A covered header field's value: its field value without surrounding spaces and tabs. */
  private static String headerValue(Function<String, String> header, String name) {
    String value = header.apply(name);
    if (value == null) {
      throw new RequestAuthException(
          Reason.WRONG_COMPONENTS,
          "Signature-Input covers the header field "
              + RequestAuthException.quote(name)
              + ", which the request does not carry; send it, or do not cover it");
    }
    return trimOws(value);
  }

  /**
   * A field value without leading and trailing whitespace (SP and HTAB only, RFC 9421 section 2.1;
   * anything else is left for a parser to refuse).
   */
  static String trimOws(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && (text.charAt(start) == ' ' || text.charAt(start) == '\t')) {
      start++;
    }
    while (end > start && (text.charAt(end - 1) == ' ' || text.charAt(end - 1) == '\t')) {
      end--;
    }
    return text.substring(start, end);
  }

  /** {@code @authority}: host in lower case, and the port unless it is the scheme's default. */
  private static String authorityValue(URI uri) {
    String host = uri.getHost() == null ? uri.getRawAuthority() : uri.getHost();
    host = host.toLowerCase(Locale.ROOT);
    int port = uri.getPort();
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    boolean defaultPort =
        port < 0
            || (scheme.equals("http") && port == 80)
            || (scheme.equals("https") && port == 443);
    return defaultPort ? host : host + ":" + port;
  }
}
