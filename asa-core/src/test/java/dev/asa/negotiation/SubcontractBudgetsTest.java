package dev.asa.negotiation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.Service.Constraints;
import dev.asa.agreement.Violation;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubcontractBudgetsTest {
  static Constraints c(Long tokens, String cost, Long seconds) {
    return new Constraints(tokens, seconds, cost == null ? null : new BigDecimal(cost));
  }

  @Test
  void aChildMayTakeExactlyWhatIsLeftAndNotOneMore() {
    Constraints parent = c(1000L, "2.00", 600L);
    List<Constraints> siblings = List.of(c(400L, "0.50", 600L), c(100L, "0.50", 300L));
    assertThat(SubcontractBudgets.checkChild(parent, siblings, c(500L, "1.00", 600L))).isEmpty();
    List<Violation> over = SubcontractBudgets.checkChild(parent, siblings, c(501L, "1.01", 601L));
    assertThat(over)
        .extracting(Violation::pointer)
        .containsExactly(
            "/service/constraints/max_tokens",
            "/service/constraints/max_cost_usd",
            "/service/constraints/max_duration_seconds");
    assertThat(over.get(0).message()).contains("at most 500").contains("hold 500");
  }

  @Test
  void durationIsADeadlineNotAQuantity() {
    Constraints parent = c(null, null, 600L);
    List<Constraints> siblings = List.of(c(null, null, 600L), c(null, null, 600L));
    assertThat(SubcontractBudgets.checkChild(parent, siblings, c(null, null, 600L))).isEmpty();
  }

  @Test
  void aBudgetTheParentCapsMustBeDeclared() {
    assertThat(SubcontractBudgets.checkChild(c(1000L, null, null), List.of(), c(null, null, null)))
        .extracting(Violation::pointer)
        .containsExactly("/service/constraints/max_tokens");
    assertThat(SubcontractBudgets.checkChild(c(null, null, null), List.of(), c(null, null, null)))
        .isEmpty();
  }

  @Test
  void aParentCannotShrinkBelowWhatItsChildrenHold() {
    List<Constraints> children = List.of(c(400L, "0.50", 500L), c(300L, "0.25", 600L));
    assertThat(SubcontractBudgets.checkParent(c(700L, "0.75", 600L), children)).isEmpty();
    assertThat(SubcontractBudgets.checkParent(c(699L, "0.74", 599L), children)).hasSize(3);
  }
}
