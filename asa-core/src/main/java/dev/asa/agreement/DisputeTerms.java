package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.List;

/** Where disputes go (e.g. {@code ajp}) and when one is filed automatically. */
public record DisputeTerms(
    String protocol, String autoFileOn, BigDecimal threshold, List<String> evidenceIncludes) {
  public DisputeTerms {
    evidenceIncludes = List.copyOf(evidenceIncludes);
  }
}
