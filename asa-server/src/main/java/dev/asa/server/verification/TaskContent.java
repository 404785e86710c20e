package dev.asa.server.verification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.QualityCriteria;
import dev.asa.document.Agreement;
import dev.asa.document.StandaloneCriteria;
import dev.asa.integrity.Canary;
import dev.asa.integrity.CanarySet;
import dev.asa.json.Json;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.store.verification.TaskRow;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * What an evaluator is shown for a task, in one shape whether the task is real work or a canary:
 * the request, the deliverable, the criteria, the dimensions to score and the deadline. Nothing
 * else, and nothing only one kind has (no agreement id, no canary id, no deliverable type), since
 * an evaluator that could tell canaries apart would judge those carefully and the rest as it
 * pleased.
 *
 * <p>Stored, a real task keeps exactly what it shows; a canary keeps the whole canary (its known
 * scores are needed to grade the answer) and shows only the same three parts. A real deliverable
 * delivered by URL is stored by URL and digest until the evaluator first lists the task; it is then
 * fetched (checked against the digest) and held inline, so that every task shows its deliverable
 * the same way, and no evaluator learns the provider's URL.
 */
final class TaskContent {
  private TaskContent() {}

  /** The stored content of a real task: the agreement's request and criteria, the deliverable. */
  static String real(Agreement a, DeliverableRow delivered) {
    ObjectNode o = Json.object();
    ObjectNode request = o.putObject("request");
    request.put("description", a.terms().service().description());
    JsonNode constraints = a.member("service").path("constraints");
    if (constraints.isObject() && !constraints.isEmpty()) {
      request.set("constraints", constraints);
    }
    ObjectNode deliverable = o.putObject("deliverable");
    if (delivered.content() != null) {
      deliverable.put("content", delivered.content());
    } else {
      deliverable.put("content_url", delivered.contentUrl());
      deliverable.put("content_hash", delivered.contentHash());
    }
    if (delivered.format() != null) {
      deliverable.put("format", delivered.format());
    }
    o.set("criteria", a.member("quality_criteria"));
    return o.toString();
  }

  /**
   * The URL and digest of a real task's deliverable that was delivered by URL and is not held yet;
   * empty once it is (and for every other task).
   */
  static Optional<DeliveredAt> deliveredAt(TaskRow task) {
    JsonNode deliverable = parse(task).path("deliverable");
    return deliverable.has("content_url")
        ? Optional.of(
            new DeliveredAt(
                deliverable.get("content_url").asText(), deliverable.get("content_hash").asText()))
        : Optional.empty();
  }

  /** Where a deliverable delivered by URL is, and what its bytes hash to. */
  record DeliveredAt(String url, String hash) {}

  /**
   * The task's stored content with its deliverable held inline, as every other task's is: an
   * evaluator shown a URL for real work and content for canaries would know which was which.
   */
  static String withContent(TaskRow task, String content) {
    ObjectNode stored = parse(task);
    ObjectNode deliverable = (ObjectNode) stored.get("deliverable");
    deliverable.remove("content_url");
    deliverable.remove("content_hash");
    deliverable.put("content", content);
    return stored.toString();
  }

  /** The stored content of a canary task: the whole canary. */
  static String canary(Canary c) {
    return c.toJson().toString();
  }

  /** The canary a canary task holds. */
  static Canary canaryOf(TaskRow task) {
    return CanarySet.fromJson(Json.mapper().createArrayNode().add(parse(task))).canaries().get(0);
  }

  /** The task as its evaluator sees it. */
  static ObjectNode view(TaskRow task) {
    ObjectNode stored = parse(task);
    ObjectNode o = Json.object();
    o.put("task_id", task.id());
    o.put("service_type", task.serviceType());
    o.set("request", stored.get("request"));
    ObjectNode deliverable = (ObjectNode) stored.get("deliverable");
    if (task.isCanary()) {
      deliverable.remove("type"); // real deliverables carry none
    }
    o.set("deliverable", deliverable);
    o.set("criteria", stored.get("criteria"));
    ArrayNode dims = o.putArray("dimensions");
    criteria(task).dimensions().forEach(d -> dims.add(d.name()));
    o.put("deadline", task.deadlineAt().toString());
    o.put("created_at", task.createdAt().toString());
    return o;
  }

  /** The criteria the task is judged by. */
  static QualityCriteria criteria(TaskRow task) {
    return StandaloneCriteria.parse(parse(task).get("criteria"));
  }

  static List<String> dimensionNames(TaskRow task) {
    return criteria(task).dimensions().stream().map(Dimension::name).toList();
  }

  private static ObjectNode parse(TaskRow task) {
    if (task.content() == null) {
      throw new IllegalStateException("task " + task.id() + " has ended: its content is erased");
    }
    try {
      return (ObjectNode) Json.mapper().readTree(task.content());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException("stored task " + task.id() + " is not JSON", e);
    }
  }
}
