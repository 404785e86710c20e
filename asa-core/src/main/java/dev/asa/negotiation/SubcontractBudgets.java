package dev.asa.negotiation;

import dev.asa.agreement.Service;
import dev.asa.agreement.Violation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Delegated budgets may not exceed what the parent has left (whitepaper section 7.3, after the
 * Agent Contracts framework): an agreement that names a {@code parent_agreement_id} is a
 * sub-contract, and its declared resource constraints are drawn from the parent's.
 *
 * <ul>
 *   <li>{@code max_tokens} and {@code max_cost_usd} are consumed: a child may take at most the
 *       parent's figure minus what its other live sub-contracts already hold;
 *   <li>{@code max_duration_seconds} is a deadline, not a quantity: a child may not run longer than
 *       its parent, however many siblings it has.
 * </ul>
 *
 * A budget the parent sets must be set by the child too (an unbounded child would escape it).
 */
public final class SubcontractBudgets {
  private SubcontractBudgets() {}

  private record Budget(
      String name, Function<Service.Constraints, BigDecimal> read, boolean consumed) {}

  private static final List<Budget> BUDGETS =
      List.of(
          new Budget(
              "max_tokens",
              c -> c.maxTokens() == null ? null : BigDecimal.valueOf(c.maxTokens()),
              true),
          new Budget("max_cost_usd", Service.Constraints::maxCostUsd, true),
          new Budget(
              "max_duration_seconds",
              c ->
                  c.maxDurationSeconds() == null
                      ? null
                      : BigDecimal.valueOf(c.maxDurationSeconds()),
              false));

  /**
   * Violations of a child's budgets against its parent, given the parent's other live children.
   * Pointers are into the child's document.
   */
  public static List<Violation> checkChild(
      Service.Constraints parent, List<Service.Constraints> siblings, Service.Constraints child) {
    List<Violation> out = new ArrayList<>();
    for (Budget b : BUDGETS) {
      BigDecimal cap = b.read().apply(parent);
      if (cap == null) {
        continue;
      }
      BigDecimal mine = b.read().apply(child);
      String at = "/service/constraints/" + b.name();
      if (mine == null) {
        out.add(
            new Violation(
                at,
                "required: the parent agreement caps "
                    + b.name()
                    + " at "
                    + plain(cap)
                    + ", so a sub-contract must declare its share"));
        continue;
      }
      BigDecimal taken = BigDecimal.ZERO;
      if (b.consumed()) {
        for (Service.Constraints s : siblings) {
          BigDecimal v = b.read().apply(s);
          taken = taken.add(v == null ? BigDecimal.ZERO : v);
        }
      }
      BigDecimal left = cap.subtract(taken).max(BigDecimal.ZERO);
      if (mine.compareTo(left) > 0) {
        out.add(
            new Violation(
                at,
                plain(mine)
                    + " exceeds what the parent agreement has left: it allows "
                    + plain(cap)
                    + (b.consumed() ? ", its other sub-contracts hold " + plain(taken) : "")
                    + ", so at most "
                    + plain(left)));
      }
    }
    return out;
  }

  /**
   * Violations of a parent's (changed) budgets against what its live children already hold.
   * Pointers are into the parent's document.
   */
  public static List<Violation> checkParent(
      Service.Constraints parent, List<Service.Constraints> children) {
    List<Violation> out = new ArrayList<>();
    for (Budget b : BUDGETS) {
      BigDecimal cap = b.read().apply(parent);
      if (cap == null || children.isEmpty()) {
        continue;
      }
      BigDecimal needed = BigDecimal.ZERO;
      for (Service.Constraints c : children) {
        BigDecimal v = b.read().apply(c);
        if (v != null) {
          needed = b.consumed() ? needed.add(v) : needed.max(v);
        }
      }
      if (cap.compareTo(needed) < 0) {
        out.add(
            new Violation(
                "/service/constraints/" + b.name(),
                plain(cap)
                    + " is less than the "
                    + plain(needed)
                    + " this agreement's sub-contracts already hold"));
      }
    }
    return out;
  }

  private static String plain(BigDecimal d) {
    return d.stripTrailingZeros().toPlainString();
  }
}
