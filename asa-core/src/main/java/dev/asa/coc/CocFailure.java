package dev.asa.coc;

import java.util.Objects;

/**
 * Why a chain was refused: the entry that breaks (its index in the chain, 0 for genesis; -1 for the
 * chain as a whole, e.g. empty) and the member of it at fault, so a refusal can point at {@code
 * .../chain/7/prev_hash}.
 *
 * @param member the entry's member ({@code prev_hash}, {@code entry_hash}, ...), or null for the
 *     entry as a whole
 */
public record CocFailure(long index, String member, String reason) {
  public CocFailure {
    Objects.requireNonNull(reason, "reason");
  }

  /** The JSON pointer of the fault under {@code base} (the chain's own pointer). */
  public String pointer(String base) {
    if (index < 0) {
      return base;
    }
    return base + "/" + index + (member == null ? "" : "/" + member);
  }

  @Override
  public String toString() {
    return (index < 0 ? "chain" : "entry " + index + (member == null ? "" : " " + member))
        + ": "
        + reason;
  }
}
