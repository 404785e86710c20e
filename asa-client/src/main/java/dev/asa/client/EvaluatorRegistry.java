package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * The evaluator registry with typed answers, acting with the key of the {@link AsaClient} it came
 * from ({@link AsaClient#registry()}): an evaluator registers itself with its own key, anyone who
 * signs reads the registry, and the operator's key suspends and reinstates.
 *
 * <pre>{@code
 * EvaluatorRegistry registry = AsaClient.connect(server, evaluatorKey).registry();
 * EvaluatorView me = registry.register(AsaClient.evaluatorRegistration(
 *     "api_key", "judge-7", "Judge Seven", List.of("research")));
 * System.out.println(me.qualified() ? "qualified" : "not yet: " + me.why());
 * }</pre>
 *
 * <p>Every method throws {@link AsaApiException} when the server refuses the request or cannot be
 * reached (status 0), and when its answer is not what the route answers.
 */
public final class EvaluatorRegistry {

  private final AsaClient asa;

  EvaluatorRegistry(AsaClient asa) {
    this.asa = asa;
  }

  /**
   * Registers the evaluator whose key signs this client's requests ({@code POST /evaluators}). It
   * starts active, with an empty track record, so not yet qualified: it earns its evaluations from
   * qualification canaries.
   *
   * @param registration the registration, e.g. from {@link AsaClient#evaluatorRegistration}
   * @return the registered evaluator
   * @throws AsaApiException 409 when this key is registered already, 422 naming a member of the
   *     registration the server cannot take
   */
  public EvaluatorView register(JsonNode registration) {
    return AsaClient.typed(
        "POST /evaluators", () -> asa.registerEvaluator(registration), EvaluatorView::from);
  }

  /**
   * One page of the registry in key order ({@code GET /evaluators}), each entry with its track
   * record and whether it qualifies now.
   *
   * @param serviceType only evaluators of this service type; null for all
   * @param cursor the previous page's {@link EvaluatorPage#nextCursor()}, or null for the first
   * @param limit the page size, 1 to 500; 0 or less lets the server choose
   * @return the page
   * @throws AsaApiException 400 for a cursor the server did not issue or a limit out of range
   */
  public EvaluatorPage list(String serviceType, String cursor, int limit) {
    return AsaClient.typed(
        "GET /evaluators", () -> asa.evaluators(serviceType, cursor, limit), EvaluatorPage::from);
  }

  /**
   * A registered evaluator ({@code GET /evaluators/{key}}): in full, with its record over time, for
   * the evaluator itself and the operator; without what names parties for anyone else.
   *
   * @param key the evaluator's key, base64url or did:key
   * @return the evaluator
   * @throws AsaApiException 404 when no evaluator has that key
   */
  public EvaluatorView get(String key) {
    return AsaClient.typed(
        "GET " + AsaClient.evaluatorPath(key), () -> asa.evaluator(key), EvaluatorView::from);
  }

  /**
   * Suspends an evaluator ({@code POST /evaluators/{key}/suspend}, the operator's call): whatever
   * its record, it is never assigned until reinstated.
   *
   * @param key the evaluator's key, base64url or did:key
   * @param reason why, shown to the evaluator and in the registry
   * @return the evaluator, suspended
   * @throws AsaApiException 403 unless this client signs with the operator key, 404 when no
   *     evaluator has that key
   */
  public EvaluatorView suspend(String key, String reason) {
    Objects.requireNonNull(reason, "reason");
    return AsaClient.typed(
        "POST " + AsaClient.evaluatorPath(key) + "/suspend",
        () -> asa.suspendEvaluator(key, reason),
        EvaluatorView::from);
  }

  /**
   * Lifts an evaluator's suspension ({@code POST /evaluators/{key}/reinstate}, the operator's
   * call); it is assigned again when qualified.
   *
   * @param key the evaluator's key, base64url or did:key
   * @return the evaluator, active again
   * @throws AsaApiException 403 unless this client signs with the operator key, 404 when no
   *     evaluator has that key
   */
  public EvaluatorView reinstate(String key) {
    return AsaClient.typed(
        "POST " + AsaClient.evaluatorPath(key) + "/reinstate",
        () -> asa.reinstateEvaluator(key),
        EvaluatorView::from);
  }
}
