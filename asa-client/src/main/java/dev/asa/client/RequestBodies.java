package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * The bodies of the mutating calls, exactly as the server reads them. Kept apart from the HTTP
 * plumbing so that each shape can be checked without a server.
 */
final class RequestBodies {
  private RequestBodies() {}

  /** What a party signs: the UTF-8 bytes of the {@code agreement_hash} text, {@code sha256:...}. */
  static Ed25519Signature signatureOver(String agreementHash, Ed25519PrivateKey key) {
    return key.sign(agreementHash.getBytes(StandardCharsets.UTF_8));
  }

  static ObjectNode sign(String party, String signatureBase64Url) {
    ObjectNode body = Json.object();
    body.put("party", party);
    body.putObject("signature").put("scheme", "ed25519").put("value", signatureBase64Url);
    return body;
  }

  static ObjectNode deliver(String content, String format) {
    Objects.requireNonNull(content, "content");
    ObjectNode body = Json.object();
    body.put("content", content);
    if (format != null) {
      body.put("format", format);
    }
    return body;
  }

  static ObjectNode deliverByUrl(String url, Digest contentHash) {
    ObjectNode body = Json.object();
    body.put("content_url", Objects.requireNonNull(url, "url"));
    body.put("content_hash", Objects.requireNonNull(contentHash, "contentHash").toString());
    return body;
  }

  /**
   * {@code {}} asks the server to score what it can; {@code {"evaluator_result": ...}} adds the
   * evaluator's scores.
   */
  static ObjectNode verify(JsonNode evaluatorResult) {
    ObjectNode body = Json.object();
    if (evaluatorResult != null && !evaluatorResult.isNull() && !evaluatorResult.isMissingNode()) {
      body.set("evaluator_result", evaluatorResult);
    }
    return body;
  }

  static ObjectNode challenge(Role role, String reasonCode) {
    ObjectNode body = Json.object();
    body.put("party", signingParty(role));
    body.put("reason_code", Objects.requireNonNull(reasonCode, "reasonCode"));
    return body;
  }

  static ObjectNode evaluatorRegistration(
      String identityScheme, String identityValue, String displayName, List<String> serviceTypes) {
    ObjectNode body = Json.object();
    body.putObject("identity")
        .put("scheme", Objects.requireNonNull(identityScheme, "identityScheme"))
        .put("value", Objects.requireNonNull(identityValue, "identityValue"));
    body.put("display_name", Objects.requireNonNull(displayName, "displayName"));
    ArrayNode types = body.putArray("service_types");
    serviceTypes.forEach(types::add);
    return body;
  }

  static ObjectNode suspension(String reason) {
    return Json.object().put("reason", reason);
  }

  /** Only the client and the provider sign, negotiate and challenge; the evaluator judges. */
  static String signingParty(Role role) {
    if (role != Role.CLIENT && role != Role.PROVIDER) {
      throw new IllegalArgumentException(
          "only the client or the provider can act here, not the " + role.wireName());
    }
    return role.wireName();
  }
}
