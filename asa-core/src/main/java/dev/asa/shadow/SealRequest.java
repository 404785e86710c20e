package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The body of {@code POST /agreements/{id}/seal} and {@code POST /shadow/seals}: {@code
 * {"criteria":[...], "scale":"SS-100", "sealer":"did:key:..."}}, scale and sealer optional.
 *
 * <p>Read by strict Java rather than a JSON Schema: the checks (a regex that compiles, a JSON
 * Schema the validator accepts, ids unique across the array, a count that depends on the scale) are
 * not expressible in a schema, and one reader gives one set of messages. Every violation is
 * reported at once in an {@link InvalidDocumentException}, each with the JSON pointer of its
 * member.
 *
 * @param sealer who sealed, when the request names someone other than its authenticated caller; the
 *     server decides whether the caller may name another
 */
public record SealRequest(SealedCriteria criteria, Optional<Scale> scale, Optional<String> sealer) {

  private static final Set<String> MEMBERS = Set.of("criteria", "scale", "sealer");

  public SealRequest {
    Objects.requireNonNull(criteria, "criteria");
    Objects.requireNonNull(scale, "scale");
    Objects.requireNonNull(sealer, "sealer");
    scale.ifPresent(s -> {
      if (criteria.size() > s.criteriaCount()) {
        throw new IllegalArgumentException(
            criteria.size()
                + " criteria are more than scale "
                + s.wire()
                + " allows ("
                + s.criteriaCount()
                + ")");
      }
    });
  }

  /** The hardening rules of the request's scale, or {@link HardeningPolicy#DEFAULT}. */
  public HardeningPolicy hardening() {
    return scale.map(Scale::hardening).orElse(HardeningPolicy.DEFAULT);
  }

  /**
   * @throws InvalidDocumentException listing every violation, each with its JSON pointer
   */
  public static SealRequest parse(JsonNode body) {
    StrictJson errors = new StrictJson();
    if (errors.object(body, "", "the request body") == null) {
      errors.throwIfAny();
    }
    errors.allowOnly(body, "", MEMBERS);
    Scale scale = null;
    String scaleText = errors.optionalText(body, "", "scale", 16);
    if (scaleText != null) {
      try {
        scale = Scale.fromWire(scaleText);
      } catch (IllegalArgumentException e) {
        errors.add("/scale", e.getMessage());
      }
    }
    String sealer = errors.optionalText(body, "", "sealer", 512);
    boolean scaleUnusable = scaleText != null && scale == null;
    SealedCriteria criteria =
        SealedCriteria.parse(
            body.get("criteria"), "/criteria", scaleUnusable ? null : scale, errors);
    errors.throwIfAny();
    return new SealRequest(criteria, Optional.ofNullable(scale), Optional.ofNullable(sealer));
  }
}
