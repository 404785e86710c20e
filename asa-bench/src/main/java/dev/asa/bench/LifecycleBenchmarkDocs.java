package dev.asa.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;

/** The agreement, deliverable and scores every benchmark lifecycle uses. */
final class LifecycleBenchmarkDocs {
  private LifecycleBenchmarkDocs() {}

  static ObjectNode document(
      Ed25519PrivateKey clientKey, Ed25519PrivateKey providerKey, Ed25519PrivateKey evaluatorKey) {
    ObjectNode doc = Json.object();
    doc.put("asa_version", "1.0.0");
    doc.put("template", "general");
    ObjectNode parties = doc.putObject("parties");
    party(parties.putObject("client"), "bench-client", clientKey);
    party(parties.putObject("provider"), "bench-provider", providerKey);
    ObjectNode evaluator = parties.putObject("evaluator");
    evaluator.putObject("identity").put("scheme", "api_key").put("value", "bench-evaluator");
    evaluator.put("type", "agent_as_judge");
    evaluator
        .putObject("verification_key")
        .put("scheme", "ed25519")
        .put("value", evaluatorKey.publicKey().toBase64Url());
    doc.putObject("service").put("description", "Summarise the benchmark input");
    doc.putObject("verification").put("strategy", "pessimistic").put("challenge_window_seconds", 0);
    doc.putObject("escrow").putObject("payment").put("amount", "10.00").put("currency", "USD");
    return doc;
  }

  static void party(ObjectNode p, String name, Ed25519PrivateKey key) {
    p.putObject("identity").put("scheme", "api_key").put("value", name);
    p.putObject("verification_key")
        .put("scheme", "ed25519")
        .put("value", key.publicKey().toBase64Url());
  }

  static final String DELIVERABLE =
      "# Summary\n\nFederated learning trains models where the data lives; differential privacy bounds what "
          + "any single record reveals.\n\n## Sources\n\n1. McMahan et al., 2017.\n";

  static final ObjectNode SCORES = scores();

  /**
   * A standalone Verification Request at structural depth, on the ~1,000-token Markdown deliverable
   * {@code ./asa bench-evaluators} checks in process, so the two figures compare.
   */
  static final ObjectNode STRUCTURAL_REQUEST = structuralRequest();

  private static ObjectNode structuralRequest() {
    ObjectNode r = Json.object();
    r.putObject("deliverable")
        .put("content", EvaluatorBenchmark.deliverable())
        .put("format", "markdown")
        .put("type", "text/research");
    r.putObject("original_request").put("description", EvaluatorBenchmark.REQUEST);
    r.putObject("verification_config").put("depth", "structural");
    return r;
  }

  static ObjectNode scores() {
    ObjectNode r = Json.object();
    r.put("confidence", 0.9);
    ArrayNode dims = r.putArray("dimensions");
    dims.addObject().put("name", "accuracy").put("score", 88).put("evidence", "spot-checked");
    dims.addObject()
        .put("name", "completeness")
        .put("score", 82)
        .put("evidence", "covers the request");
    dims.addObject().put("name", "relevance").put("score", 94).put("evidence", "on topic");
    return r;
  }
}
