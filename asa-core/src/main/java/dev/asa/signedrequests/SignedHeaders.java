package dev.asa.signedrequests;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The headers {@link RequestSigner#sign} produced, to add to the request unchanged.
 *
 * @param contentDigest the {@code Content-Digest} value, or null for a request without a body
 * @param signatureInput the {@code Signature-Input} value
 * @param signature the {@code Signature} value
 */
public record SignedHeaders(String contentDigest, String signatureInput, String signature) {

  public SignedHeaders {
    Objects.requireNonNull(signatureInput, "signatureInput");
    Objects.requireNonNull(signature, "signature");
  }

  /**
   * Header name to value, in the order Content-Digest (when present), Signature-Input, Signature.
   */
  public Map<String, String> asMap() {
    Map<String, String> headers = new LinkedHashMap<>();
    if (contentDigest != null) {
      headers.put(ContentDigest.HEADER, contentDigest);
    }
    headers.put(SignatureProfile.SIGNATURE_INPUT, signatureInput);
    headers.put(SignatureProfile.SIGNATURE, signature);
    return java.util.Collections.unmodifiableMap(headers);
  }
}
