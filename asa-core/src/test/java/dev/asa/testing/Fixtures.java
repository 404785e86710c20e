package dev.asa.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Deterministic keys and ready-made agreement documents for tests. Keys are derived from a name, so
 * a test reads "Fixtures.key("alice")" and gets the same key every run.
 */
public final class Fixtures {
  private Fixtures() {}

  public static Ed25519PrivateKey key(String name) {
    try {
      byte[] seed =
          MessageDigest.getInstance("SHA-256")
              .digest(("asa-test-key:" + name).getBytes(StandardCharsets.UTF_8));
      return Ed25519PrivateKey.fromSeed(seed);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public static ObjectNode party(String name, Ed25519PrivateKey key) {
    ObjectNode p = Json.object();
    p.putObject("identity").put("scheme", "api_key").put("value", name);
    p.put("display_name", name);
    p.putObject("verification_key")
        .put("scheme", "ed25519")
        .put("value", key.publicKey().toBase64Url());
    return p;
  }

  /**
   * A partial document naming a template, with client "alice", provider "bob", evaluator "eval-1"
   * (each with the key of the same name), an amount of 10.00 USD.
   */
  public static ObjectNode fromTemplate(String template) {
    ObjectNode doc = Json.object();
    doc.put("asa_version", "1.0.0");
    doc.put("template", template);
    ObjectNode parties = doc.putObject("parties");
    parties.set("client", party("alice", key("alice")));
    parties.set("provider", party("bob", key("bob")));
    ObjectNode evaluator = parties.putObject("evaluator");
    evaluator.putObject("identity").put("scheme", "api_key").put("value", "eval-1");
    evaluator.put("type", "agent_as_judge");
    evaluator
        .putObject("verification_key")
        .put("scheme", "ed25519")
        .put("value", key("eval-1").publicKey().toBase64Url());
    doc.putObject("service")
        .put("description", "Summarise recent work on federated learning privacy");
    doc.putObject("escrow").putObject("payment").put("amount", "10.00").put("currency", "USD");
    return doc;
  }

  /**
   * The document with its evaluator slot naming the server's built-in evaluator ({@code
   * parties.evaluator.type "builtin"}, with no key: it signs with the server's): the terms give it
   * the verdict, so either party may ask it to run (dev.asa.access.Judging).
   */
  public static ObjectNode judgedByBuiltIn(ObjectNode doc) {
    ObjectNode evaluator = (ObjectNode) doc.path("parties").path("evaluator");
    evaluator.put("type", "builtin");
    evaluator.remove("verification_key");
    return doc;
  }

  /** The caller a request signed with the named fixture key is. */
  public static dev.asa.access.Caller caller(String name) {
    return new dev.asa.access.Caller.Key(key(name).publicKey(), false);
  }

  public static ObjectNode general() {
    return fromTemplate("general");
  }
}
