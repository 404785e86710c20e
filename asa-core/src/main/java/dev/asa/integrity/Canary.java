package dev.asa.integrity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.StrictJson;
import dev.asa.agreement.Violation;
import dev.asa.document.StandaloneCriteria;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One canary task (whitepaper 6.3): a request, a deliverable and the criteria to judge it by, all
 * as an evaluator receives real work, with the score each dimension is known to deserve and how far
 * off a score may be.
 *
 * <pre>
 * {"id": "research-bad-03", "service_type": "research",
 *  "request": {"description": "Summarise ..."}, "deliverable": {"content": "...", "format": "markdown"},
 *  "criteria": {... quality_criteria, as in an agreement ...},
 *  "known_scores": {"accuracy": 20, "completeness": 35}, "tolerance": 10}
 * </pre>
 *
 * @param serviceType the service type it poses as, or null to pose as any
 * @param knownScores per dimension of the criteria, the score it deserves (0 to 100; 0 or 100 for a
 *     boolean dimension); dimensions left out are not checked
 * @param tolerance how far from a known score a score may lie and still pass, in points
 */
public record Canary(
    String id,
    String serviceType,
    ObjectNode request,
    ObjectNode deliverable,
    ObjectNode criteria,
    Map<String, BigDecimal> knownScores,
    BigDecimal tolerance) {

  public static final int MAX_ID = 128;
  public static final int MAX_DESCRIPTION = 10_000;

  /** As large as a real deliverable may reasonably be inline. */
  public static final int MAX_CONTENT = 1_000_000;

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");
  private static final Pattern SNAKE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

  public Canary {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(tolerance, "tolerance");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(deliverable, "deliverable");
    Objects.requireNonNull(criteria, "criteria");
    request = request.deepCopy();
    deliverable = deliverable.deepCopy();
    criteria = criteria.deepCopy();
    knownScores = Collections.unmodifiableSortedMap(new TreeMap<>(knownScores));
    if (knownScores.isEmpty()) {
      throw new IllegalArgumentException("a canary knows the score of at least one dimension");
    }
    if (tolerance.signum() < 0 || tolerance.compareTo(HUNDRED) > 0) {
      throw new IllegalArgumentException("a tolerance is from 0 to 100 points");
    }
  }

  // JSON nodes are mutable: hand out copies, so that no caller can change a loaded canary.
  @Override
  public ObjectNode request() {
    return request.deepCopy();
  }

  @Override
  public ObjectNode deliverable() {
    return deliverable.deepCopy();
  }

  @Override
  public ObjectNode criteria() {
    return criteria.deepCopy();
  }

  public Optional<String> serviceTypeName() {
    return Optional.ofNullable(serviceType);
  }

  /** Whether it can pose as work of this service type. */
  public boolean posesAs(String type) {
    return serviceType == null || serviceType.equals(type);
  }

  /**
   * Reads one canary at {@code at} (the pointer of the canary in its file), recording every problem
   * in {@code json}; null when it cannot be read.
   */
  static Canary read(JsonNode node, String at, StrictJson json) {
    ObjectNode o = json.object(node, at, "a canary");
    if (o == null) {
      return null;
    }
    int before = json.count();
    json.allowOnly(
        o,
        at,
        "id",
        "service_type",
        "request",
        "deliverable",
        "criteria",
        "known_scores",
        "tolerance");
    String id =
        json.text(
            o,
            at,
            "id",
            ID,
            "an id of 1 to "
                + MAX_ID
                + " letters, digits and _ . : - (starting with a letter or digit)");
    String serviceType =
        o.has("service_type")
            ? json.text(
                o,
                at,
                "service_type",
                SNAKE_NAME,
                "a lower-case snake_case service type such as research")
            : null;
    ObjectNode request = request(o, StrictJson.child(at, "request"), json);
    ObjectNode deliverable = deliverable(o, StrictJson.child(at, "deliverable"), json);
    String criteriaAt = StrictJson.child(at, "criteria");
    QualityCriteria criteria = criteria(o.get("criteria"), criteriaAt, json);
    Map<String, BigDecimal> known =
        knownScores(o.get("known_scores"), StrictJson.child(at, "known_scores"), criteria, json);
    BigDecimal tolerance = tolerance(o.get("tolerance"), StrictJson.child(at, "tolerance"), json);
    if (json.count() > before) {
      return null;
    }
    return new Canary(
        id, serviceType, request, deliverable, (ObjectNode) o.get("criteria"), known, tolerance);
  }

  private static ObjectNode request(ObjectNode o, String at, StrictJson json) {
    JsonNode r = o.get("request");
    if (r == null) {
      json.add(at, "is missing: expected {\"description\": what was asked for}");
      return null;
    }
    ObjectNode request = json.object(r, at, "request");
    if (request != null) {
      json.allowOnly(request, at, "description", "constraints");
      json.text(request, at, "description", MAX_DESCRIPTION);
      if (request.has("constraints")) {
        json.object(request.get("constraints"), StrictJson.child(at, "constraints"), "constraints");
      }
    }
    return request;
  }

  private static ObjectNode deliverable(ObjectNode o, String at, StrictJson json) {
    JsonNode d = o.get("deliverable");
    if (d == null) {
      json.add(at, "is missing: expected {\"content\": the deliverable, \"format\"?, \"type\"?}");
      return null;
    }
    ObjectNode deliverable = json.object(d, at, "deliverable");
    if (deliverable != null) {
      json.allowOnly(deliverable, at, "content", "format", "type");
      json.text(deliverable, at, "content", MAX_CONTENT);
      json.optionalText(deliverable, at, "format", 64);
      String type = json.optionalText(deliverable, at, "type", 64);
      if (type != null && !StandaloneCriteria.isKnownType(type)) {
        json.add(
            StrictJson.child(at, "type"),
            "'"
                + type
                + "' is not a deliverable type; one of "
                + String.join(", ", StandaloneCriteria.TYPES));
      }
    }
    return deliverable;
  }

  // The criteria are checked by the one validator of quality criteria (the agreement schema and
  // its semantic rules); its pointers are moved under this canary's.
  private static QualityCriteria criteria(JsonNode c, String at, StrictJson json) {
    if (c == null) {
      json.add(
          at, "is missing: expected quality criteria in the agreement's quality_criteria form");
      return null;
    }
    try {
      return StandaloneCriteria.parse(c);
    } catch (InvalidDocumentException e) {
      for (Violation v : e.violations()) {
        json.add(at + v.pointer().replaceFirst("^/quality_criteria", ""), v.message());
      }
      return null;
    }
  }

  private static Map<String, BigDecimal> knownScores(
      JsonNode k, String at, QualityCriteria criteria, StrictJson json) {
    if (k == null) {
      json.add(at, "is missing: expected {\"dimension\": known score, ...}");
      return null;
    }
    ObjectNode known = json.object(k, at, "known_scores");
    if (known == null) {
      return null;
    }
    if (known.isEmpty()) {
      json.add(at, "must give the known score of at least one dimension");
      return null;
    }
    Map<String, BigDecimal> out = new TreeMap<>();
    for (var e : known.properties()) {
      String p = StrictJson.child(at, e.getKey());
      JsonNode v = e.getValue();
      if (!v.isNumber()
          || v.decimalValue().signum() < 0
          || v.decimalValue().compareTo(HUNDRED) > 0) {
        json.add(p, "must be a score from 0 to 100, found " + StrictJson.kind(v) + " " + v);
        continue;
      }
      if (criteria != null) {
        Optional<Dimension> d = criteria.dimension(e.getKey());
        if (d.isEmpty()) {
          json.add(
              p,
              "is not a dimension of the criteria; they have "
                  + String.join(
                      ", ", criteria.dimensions().stream().map(Dimension::name).toList()));
          continue;
        }
        if (d.get().metric() == MetricType.BOOLEAN
            && v.decimalValue().signum() != 0
            && v.decimalValue().compareTo(HUNDRED) != 0) {
          json.add(p, "is a boolean dimension: its known score is 0 (false) or 100 (true)");
          continue;
        }
      }
      out.put(e.getKey(), v.decimalValue());
    }
    return out;
  }

  private static BigDecimal tolerance(JsonNode t, String at, StrictJson json) {
    String expected = "the points a score may be off and still pass, from 0 to 100 (e.g. 10)";
    if (t == null || t.isNull()) {
      json.add(at, "is missing: expected " + expected);
      return null;
    }
    if (!t.isNumber() || t.decimalValue().signum() < 0 || t.decimalValue().compareTo(HUNDRED) > 0) {
      json.add(at, "must be " + expected + ", found " + StrictJson.kind(t) + " " + t);
      return null;
    }
    return t.decimalValue();
  }

  /** The canary as a line of a canary file. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("id", id);
    if (serviceType != null) {
      o.put("service_type", serviceType);
    }
    o.set("request", request());
    o.set("deliverable", deliverable());
    o.set("criteria", criteria());
    ObjectNode k = o.putObject("known_scores");
    knownScores.forEach(k::put);
    o.put("tolerance", tolerance);
    return o;
  }
}
