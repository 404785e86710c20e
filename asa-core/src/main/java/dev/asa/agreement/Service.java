package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Objects;

/** What is to be delivered, in what format, within which declared resource budgets. */
public record Service(
    String type,
    String description,
    String deliverableFormat,
    Constraints constraints,
    String parentAgreementId) {

  public Service {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(constraints, "constraints");
  }

  /** Declared budgets; each is null when the agreement does not set it. */
  public record Constraints(Long maxTokens, Long maxDurationSeconds, BigDecimal maxCostUsd) {
    public static final Constraints NONE = new Constraints(null, null, null);
  }
}
