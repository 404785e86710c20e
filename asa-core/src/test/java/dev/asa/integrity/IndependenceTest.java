package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.Identity;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.crypto.DidKey;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Independence rests on what the server checks (a party's key: it signed with it) and on what the
 * evaluator declared about itself, never on what a party claims about itself (issue 53).
 */
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

  /** The provider, claiming for itself whatever organization, lineage and identity it likes. */
  private static Party providerClaiming(String identity, String organization, String lineage) {
    return new Party(
        Role.PROVIDER,
        new Identity("api_key", identity, lineage),
        "bob",
        organization,
        Pools.key("bob"),
        null);
  }

  @Test
  void anUnrelatedEvaluatorIsIndependent() {
    Independence i =
        Independence.of(evaluator("judge", "Impartial", "sha256:j", "judge"), CLIENT, PROVIDER);
    assertThat(i.independent()).isTrue();
    assertThat(i.reasons()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"Impartial Ltd", "  iMPARTIAL   ltd ", "impartial\u200Bltd", "IMPARTIAL LTD"})
  void aPartyClaimingTheEvaluatorsOrganizationDoesNotRemoveIt(String claimed) {
    // The attack of issue 53: the provider claims the honest evaluators' organization.
    EvaluatorProfile honest = evaluator("judge", "Impartial Ltd", null, "judge");
    assertThat(
            Independence.of(honest, CLIENT, providerClaiming("bob", claimed, null)).independent())
        .isTrue();
  }

  @Test
  void aPartyClaimingTheEvaluatorsLineageOrIdentityDoesNotRemoveIt() {
    EvaluatorProfile honest =
        evaluator("judge-7", "Impartial Ltd", "sha256:judge-lineage", "judge");
    assertThat(
            Independence.of(
                    honest,
                    CLIENT,
                    providerClaiming("JUDGE-7", "Impartial Ltd", "SHA256:JUDGE-LINEAGE"))
                .independent())
        .as("identity value, lineage and organization are the provider's unchecked words")
        .isTrue();
  }

  @Test
  void holdingAPartysKeyIsDependence() {
    Independence i =
        Independence.of(evaluator("judge", "Impartial", null, "alice"), CLIENT, PROVIDER);
    assertThat(i.reasons()).containsExactly("holds the client's key");
    assertThat(i.conflicts())
        .extracting(Screening.Reason::rule)
        .containsExactly(ExclusionRule.SAME_KEY_AS_CLIENT);
  }

  @Test
  void theSameDidKeyIsTheSameKey() {
    // A did:key identity encodes its key (checked at registration and in agreements), so the
    // provider's did:key is the provider's key: checked, not claimed.
    EvaluatorProfile e =
        new EvaluatorProfile(
            Pools.key("bob"),
            new Identity("did", DidKey.of(Pools.key("bob")), null),
            "judge",
            null,
            List.of("research"),
            null,
            null,
            List.of());
    assertThat(Independence.of(e, CLIENT, PROVIDER).conflicts())
        .extracting(Screening.Reason::rule)
        .containsExactly(ExclusionRule.SAME_KEY_AS_PROVIDER);
  }

  @Test
  void aConflictTheEvaluatorDeclaredExcludesItFromThatPartysWorkOnly() {
    EvaluatorProfile declared = Pools.conflicted("judge", PROVIDER);
    Independence i = Independence.of(declared, CLIENT, PROVIDER);
    assertThat(i.conflicts())
        .extracting(Screening.Reason::rule)
        .containsExactly(ExclusionRule.DECLARED_CONFLICT);
    assertThat(i.reasons())
        .as("the line does not say which party: the other party reads it too")
        .containsExactly("declared a conflict of interest with a party of this agreement");
    Party otherProvider = Pools.party(Role.PROVIDER, "carol", "Carol Co", null);
    assertThat(Independence.of(declared, CLIENT, otherProvider).independent()).isTrue();
  }

  @Test
  void aConflictWithBothPartiesIsOneReason() {
    assertThat(
            Independence.of(Pools.conflicted("judge", CLIENT, PROVIDER), CLIENT, PROVIDER)
                .conflicts())
        .hasSize(1);
  }

  @Test
  void everyCheckedLinkIsReported() {
    EvaluatorProfile e =
        new EvaluatorProfile(
            Pools.key("bob"),
            new Identity("api_key", "alice", "sha256:bob-lineage"),
            "judge",
            "Alice Corp",
            List.of("research"),
            null,
            null,
            List.of(),
            List.of(Pools.key("alice")));
    assertThat(Independence.of(e, CLIENT, PROVIDER).conflicts())
        .extracting(Screening.Reason::rule)
        .containsExactly(ExclusionRule.SAME_KEY_AS_PROVIDER, ExclusionRule.DECLARED_CONFLICT);
  }
}
