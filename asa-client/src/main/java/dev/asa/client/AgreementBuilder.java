package dev.asa.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.util.Objects;

/**
 * Writes the partial document most agreements start from: a template, the three parties, what is to
 * be done and what it pays. The server fills the rest from the template.
 *
 * <pre>{@code
 * ObjectNode doc = AgreementBuilder.template("general")
 *     .client(clientKey.publicKey())
 *     .provider(providerPublicKey)
 *     .evaluator("api_key", "eval-key-789", "agent_as_judge")
 *     .description("Summarise the attached paper")
 *     .payment("10.00", "USDC")
 *     .build();
 * }</pre>
 *
 * A party given only by its public key is identified by that key's {@code did:key}, which lets
 * anyone check its signature without a registry.
 */
public final class AgreementBuilder {

  private final ObjectNode doc = Json.object();

  private AgreementBuilder(String template) {
    if (template != null) {
      doc.put("template", template);
    }
  }

  /**
   * A document that takes every term it does not state from the named template, e.g. {@code
   * general}.
   *
   * @param type the template's service type, e.g. {@code general}
   * @return a new builder
   */
  public static AgreementBuilder template(String type) {
    return new AgreementBuilder(Objects.requireNonNull(type, "type"));
  }

  /**
   * A document without a template: every required term must then be given.
   *
   * @return a new builder
   */
  public static AgreementBuilder blank() {
    return new AgreementBuilder(null);
  }

  /**
   * The agreement's id ({@code agreement_id}); without it the server makes one.
   *
   * @param id the id the agreement will have ({@code agreement_id}); without one the server chooses
   * @return this builder
   */
  public AgreementBuilder agreementId(String id) {
    doc.put("agreement_id", Objects.requireNonNull(id, "id"));
    return this;
  }

  /**
   * The client, identified by the {@code did:key} of its key.
   *
   * @param key its Ed25519 public key: the key its signatures and requests are made with
   * @return this builder
   */
  public AgreementBuilder client(Ed25519PublicKey key) {
    return client("did", DidKey.of(key), key);
  }

  /**
   * The client, identified by {@code scheme} and {@code value}, signing with {@code key}.
   *
   * @param scheme the identity scheme, e.g. {@code did} or {@code api_key}
   * @param value the identity value, e.g. a {@code did:key}
   * @param key its Ed25519 public key: the key its signatures and requests are made with
   * @return this builder
   */
  public AgreementBuilder client(String scheme, String value, Ed25519PublicKey key) {
    signingParty("client", scheme, value, key);
    return this;
  }

  /**
   * The provider, identified by the {@code did:key} of its key.
   *
   * @param key its Ed25519 public key: the key its signatures and requests are made with
   * @return this builder
   */
  public AgreementBuilder provider(Ed25519PublicKey key) {
    return provider("did", DidKey.of(key), key);
  }

  /**
   * The provider, identified by {@code scheme} and {@code value}, signing with {@code key}.
   *
   * @param scheme the identity scheme, e.g. {@code did} or {@code api_key}
   * @param value the identity value, e.g. a {@code did:key}
   * @param key its Ed25519 public key: the key its signatures and requests are made with
   * @return this builder
   */
  public AgreementBuilder provider(String scheme, String value, Ed25519PublicKey key) {
    signingParty("provider", scheme, value, key);
    return this;
  }

  /**
   * The evaluator: its identity and its kind, e.g. {@code agent_as_judge}; {@code type} may be
   * null. Without a key only the server's built-in evaluator can act for it.
   *
   * @param scheme the identity scheme, e.g. {@code did} or {@code api_key}
   * @param value the identity value, e.g. a {@code did:key}
   * @param type the evaluator's kind, e.g. {@code agent_as_judge}; null to leave it out
   * @return this builder
   */
  public AgreementBuilder evaluator(String scheme, String value, String type) {
    return evaluator(scheme, value, type, null);
  }

  /**
   * As {@link #evaluator(String, String, String)}, with the evaluator's key: the key its
   * verification results must be signed with (it does not sign the terms).
   *
   * @param scheme the identity scheme, e.g. {@code did} or {@code api_key}
   * @param value the identity value, e.g. a {@code did:key}
   * @param type the evaluator's kind, e.g. {@code agent_as_judge}; null to leave it out
   * @param key the key its verification results are signed with; null for none
   * @return this builder
   */
  public AgreementBuilder evaluator(
      String scheme, String value, String type, Ed25519PublicKey key) {
    ObjectNode evaluator = parties().putObject("evaluator");
    identity(evaluator, scheme, value);
    if (type != null) {
      evaluator.put("type", type);
    }
    if (key != null) {
      evaluator
          .putObject("verification_key")
          .put("scheme", "ed25519")
          .put("value", key.toBase64Url());
    }
    return this;
  }

  /**
   * The task, in words ({@code service.description}).
   *
   * @param text what is to be done
   * @return this builder
   */
  public AgreementBuilder description(String text) {
    object(doc, "service").put("description", Objects.requireNonNull(text, "text"));
    return this;
  }

  /**
   * What escrow holds: {@code amount} is a decimal string such as {@code "10.00"}, never a float,
   * so that no cent is lost in a binary fraction.
   *
   * @param amount a decimal string such as {@code "10.00"}
   * @param currency an ISO 4217 code such as {@code USD}
   * @return this builder
   */
  public AgreementBuilder payment(String amount, String currency) {
    ObjectNode payment = object(object(doc, "escrow"), "payment");
    payment.put("amount", Objects.requireNonNull(amount, "amount"));
    payment.put("currency", Objects.requireNonNull(currency, "currency"));
    return this;
  }

  /**
   * How long after verification either party may challenge the result; 0 makes the result final as
   * soon as it is recorded (the agreement can then be closed at once).
   *
   * @param seconds 0 or more
   * @return this builder
   */
  public AgreementBuilder challengeWindowSeconds(long seconds) {
    if (seconds < 0) {
      throw new IllegalArgumentException("a challenge window cannot be negative");
    }
    object(doc, "verification").put("challenge_window_seconds", seconds);
    return this;
  }

  /**
   * The tests a code deliverable must pass ({@code quality_criteria.tests}), run by a server with
   * its code sandbox on; they join the template's criteria.
   *
   * @param language python, javascript or java
   * @param content the test file's text
   * @return this builder
   */
  public AgreementBuilder tests(String language, String content) {
    object(object(doc, "quality_criteria"), "tests")
        .put("language", Objects.requireNonNull(language, "language"))
        .put("content", Objects.requireNonNull(content, "content"));
    return this;
  }

  /**
   * How deep the server's own evaluators verify when nobody submits scores ({@code
   * verification.depth}: structural, semantic or composite).
   *
   * @param depth {@code structural}, {@code semantic} or {@code composite}
   * @return this builder
   */
  public AgreementBuilder verificationDepth(String depth) {
    object(doc, "verification").put("depth", Objects.requireNonNull(depth, "depth"));
    return this;
  }

  /**
   * A copy of the document as built so far.
   *
   * @return the document, a copy: the builder can go on
   */
  public ObjectNode build() {
    return doc.deepCopy();
  }

  private void signingParty(String role, String scheme, String value, Ed25519PublicKey key) {
    ObjectNode party = parties().putObject(role);
    identity(party, scheme, value);
    party
        .putObject("verification_key")
        .put("scheme", "ed25519")
        .put("value", Objects.requireNonNull(key, "key").toBase64Url());
  }

  private static void identity(ObjectNode party, String scheme, String value) {
    party
        .putObject("identity")
        .put("scheme", Objects.requireNonNull(scheme, "scheme"))
        .put("value", Objects.requireNonNull(value, "value"));
  }

  private ObjectNode parties() {
    return object(doc, "parties");
  }

  private static ObjectNode object(ObjectNode parent, String field) {
    return parent.get(field) instanceof ObjectNode existing ? existing : parent.putObject(field);
  }
}
