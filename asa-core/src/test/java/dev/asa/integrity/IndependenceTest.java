package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.Identity;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IndependenceTest {

  private static final Party CLIENT = Pools.client();
  private static final Party PROVIDER = Pools.provider();

  private static EvaluatorProfile evaluator(
      String value, String organization, String lineage, String keyName) {
    return new EvaluatorProfile(
        Pools.key(keyName),
        new Identity("api_key", value, lineage),
        "judge",
        organization,
        List.of("research"),
        null,
        null,
        List.of());
  }

  @Test
  void anUnrelatedEvaluatorIsIndependent() {
    Independence i =
        Independence.of(evaluator("judge", "Impartial", "sha256:j", "judge"), CLIENT, PROVIDER);
    assertThat(i.independent()).isTrue();
    assertThat(i.reasons()).isEmpty();
  }

  @Test
  void aMissingOrganizationOrLineageIsNoLink() {
    // Two unknowns are not the same organization: the rule is about declared links.
    Party noOrg =
        new Party(
            Role.CLIENT,
            new Identity("api_key", "carol", null),
            "c",
            null,
            Pools.key("carol"),
            null);
    assertThat(
            Independence.of(evaluator("judge", null, null, "judge"), noOrg, PROVIDER).independent())
        .isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"bob", "BOB", " bob ", "b\u200Bob", "\uFF42\uFF4F\uFF42"})
  void theSameIdentityWrittenAnotherWayIsTheProvider(String written) {
    assertThat(
            Independence.of(evaluator(written, "Impartial", null, "judge"), CLIENT, PROVIDER)
                .reasons())
        .containsExactly("has the same identity as the provider");
  }

  @Test
  void theSameValueUnderAnotherSchemeIsAnotherIdentity() {
    EvaluatorProfile e =
        new EvaluatorProfile(
            Pools.key("judge"),
            new Identity("coc", "bob", null),
            "judge",
            null,
            List.of("research"),
            null,
            null,
            List.of());
    assertThat(Independence.of(e, CLIENT, PROVIDER).independent()).isTrue();
  }

  @Test
  void holdingAPartysKeyIsDependence() {
    assertThat(
            Independence.of(evaluator("judge", "Impartial", null, "alice"), CLIENT, PROVIDER)
                .reasons())
        .containsExactly("holds the client's key");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Bob Industries",
        "BOB INDUSTRIES",
        "bob\u00A0industries",
        "Bob Industries\u200B",
        "  bob   industries "
      })
  void theProvidersOrganizationWrittenAnotherWayIsStillItsOrganization(String written) {
    assertThat(
            Independence.of(evaluator("judge", written, null, "judge"), CLIENT, PROVIDER).reasons())
        .containsExactly("belongs to the provider's organization ('Bob Industries')");
  }

  @Test
  void sharingTheProvidersLineageIsDependence() {
    assertThat(
            Independence.of(
                    evaluator("judge", null, "SHA256:BOB-LINEAGE", "judge"), CLIENT, PROVIDER)
                .reasons())
        .containsExactly("shares its CoC lineage with the provider");
  }

  @Test
  void everyLinkIsReported() {
    assertThat(
            Independence.of(
                    evaluator("alice", "Alice Corp", "sha256:bob-lineage", "bob"), CLIENT, PROVIDER)
                .reasons())
        .containsExactly(
            "has the same identity as the client",
            "belongs to the client's organization ('Alice Corp')",
            "holds the provider's key",
            "shares its CoC lineage with the provider");
  }
}
