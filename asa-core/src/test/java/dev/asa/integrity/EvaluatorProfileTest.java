package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.agreement.Violation;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EvaluatorProfileTest {

  private static final Ed25519PublicKey SIGNER = Pools.key("judge-7");

  @Test
  void aFullRegistrationIsReadWithTheSignerAsItsKey() {
    EvaluatorProfile p = EvaluatorProfile.parse(Pools.registration(), SIGNER);
    assertThat(p.key()).isEqualTo(SIGNER);
    assertThat(p.keyId()).isEqualTo(SIGNER.toBase64Url());
    assertThat(p.identity().scheme()).isEqualTo("api_key");
    assertThat(p.identity().value()).isEqualTo("judge-7");
    assertThat(p.identity().lineage()).isEqualTo("sha256:judge-lineage");
    assertThat(p.displayName()).isEqualTo("Judge Seven");
    assertThat(p.organization()).isEqualTo("Impartial Ltd");
    assertThat(p.serviceTypes()).containsExactly("research", "code_generation");
    assertThat(p.model()).isEqualTo("judge-large-2");
    assertThat(p.priceUsd()).isEqualByComparingTo("0.30");
    assertThat(p.domains()).containsExactly("medicine");
    assertThat(p.serves("research")).isTrue();
    assertThat(p.serves("translation")).isFalse();
  }

  @Test
  void optionalMembersMayBeLeftOut() {
    ObjectNode b = Json.object();
    b.putObject("identity").put("scheme", "did").put("value", DidKey.of(SIGNER));
    b.put("display_name", "Minimal");
    b.putArray("service_types").add("review");
    EvaluatorProfile p = EvaluatorProfile.parse(b, SIGNER);
    assertThat(p.organization()).isNull();
    assertThat(p.identity().lineage()).isNull();
    assertThat(p.model()).isNull();
    assertThat(p.priceUsd()).isNull();
    assertThat(p.domains()).isEmpty();
  }

  @Test
  void itRoundTripsThroughItsStoredForm() {
    EvaluatorProfile p = EvaluatorProfile.parse(Pools.registration(), SIGNER);
    ObjectNode stored = p.toJson();
    assertThat(stored.path("key").asText()).isEqualTo(SIGNER.toBase64Url());
    assertThat(EvaluatorProfile.fromJson(Json.parseTrusted(Json.write(stored)))).isEqualTo(p);
    stored.put("key", "not-a-key");
    assertThatThrownBy(() -> EvaluatorProfile.fromJson(stored))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/key");
  }

  @Test
  void asAPartyItIsAnEvaluatorWithItsKeyAndOrganization() {
    var party = EvaluatorProfile.parse(Pools.registration(), SIGNER).asParty();
    assertThat(party.role()).isEqualTo(Role.EVALUATOR);
    assertThat(party.verificationKey()).isEqualTo(SIGNER);
    assertThat(party.organization()).isEqualTo("Impartial Ltd");
    assertThat(party.identity().lineage()).isEqualTo("sha256:judge-lineage");
    assertThat(party.evaluatorType()).isEqualTo("pool");
  }

  @Test
  void everyProblemIsReportedAtOnceByItsPointer() {
    ObjectNode b = Pools.registration();
    b.remove("display_name");
    b.putArray("service_types");
    b.put("price_usd", -1);
    b.put("colour", "blue");
    assertThatThrownBy(() -> EvaluatorProfile.parse(b, SIGNER))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations())
                .extracting(Violation::pointer)
                .containsExactlyInAnyOrder(
                    "/display_name", "/service_types", "/price_usd", "/colour"));
  }

  @Test
  void theBodyMustBeAnObject() {
    assertRefused(Json.mapper().createArrayNode(), "", "must be an object");
  }

  @Test
  void identityIsRequiredAndStrict() {
    assertRefused(b -> b.remove("identity"), "/identity", "is missing");
    assertRefused(b -> b.put("identity", "judge-7"), "/identity", "must be an object");
    assertRefused(
        b -> ((ObjectNode) b.get("identity")).put("scheme", "API KEY"),
        "/identity/scheme",
        "lower case");
    assertRefused(b -> ((ObjectNode) b.get("identity")).remove("value"), "/identity/value", "");
    assertRefused(
        b -> ((ObjectNode) b.get("identity")).put("value", "x".repeat(513)),
        "/identity/value",
        "at most 512");
    assertRefused(
        b -> ((ObjectNode) b.get("identity")).put("nickname", "j7"),
        "/identity/nickname",
        "unknown member");
  }

  @Test
  void theLineageIsGivenOnceAtTheTopLevel() {
    assertRefused(
        b -> ((ObjectNode) b.get("identity")).put("lineage", "sha256:x"),
        "/identity/lineage",
        "top-level member \"lineage\"");
  }

  @Test
  void aDidKeyIdentityMustBeTheSignersOwnKey() {
    assertRefused(
        b ->
            ((ObjectNode) b.get("identity"))
                .put("scheme", "did")
                .put("value", DidKey.of(Pools.key("someone-else"))),
        "/identity/value",
        "did:key of another key");
    assertRefused(
        b -> ((ObjectNode) b.get("identity")).put("scheme", "did").put("value", "judge-7"),
        "/identity/value",
        "must start with 'did:'");
    assertRefused(
        b -> ((ObjectNode) b.get("identity")).put("scheme", "did").put("value", "did:key:zzz"),
        "/identity/value",
        "");
  }

  @Test
  void namesAreBoundedAndFreeOfControlCharacters() {
    assertRefused(b -> b.put("display_name", " "), "/display_name", "blank");
    assertRefused(b -> b.put("display_name", "x".repeat(201)), "/display_name", "at most 200");
    assertRefused(b -> b.put("organization", "Acme\u0000"), "/organization", "U+0000");
    assertRefused(b -> b.put("model", 7), "/model", "must be a string");
    assertRefused(b -> b.put("lineage", "x".repeat(513)), "/lineage", "at most 512");
    assertRefused(
        b -> ((ObjectNode) b.get("identity")).put("value", "judge\r7"),
        "/identity/value",
        "U+000D");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Research", "code generation", "1research", ""})
  void serviceTypesAreSnakeCaseNames(String type) {
    assertRefused(b -> b.putArray("service_types").add(type), "/service_types/0", "snake_case");
  }

  @Test
  void serviceTypesAreANonEmptyBoundedListWithoutRepeats() {
    assertRefused(b -> b.remove("service_types"), "/service_types", "is missing");
    assertRefused(b -> b.put("service_types", "research"), "/service_types", "a string");
    assertRefused(b -> b.putArray("service_types"), "/service_types", "found 0 entries");
    assertRefused(
        b -> b.putArray("service_types").add("research").add("review").add("research"),
        "/service_types/2",
        "listed twice");
    assertRefused(
        b -> {
          var a = b.putArray("service_types");
          for (int i = 0; i < 33; i++) {
            a.add("type_" + i);
          }
        },
        "/service_types",
        "found 33 entries");
    assertRefused(b -> b.putArray("domains").add(3), "/domains/0", "a number");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-0.01", "10000.01", "0.0000001", "\"0.30\""})
  void aPriceIsADollarAmountWithinBounds(String price) {
    assertRefused(b -> b.set("price_usd", Json.parseTrusted(price)), "/price_usd", "US dollars");
  }

  @Test
  void boundaryPricesAreAccepted() {
    for (String price : new String[] {"0", "10000", "0.000001", "1E+2"}) {
      ObjectNode b = Pools.registration();
      b.set("price_usd", Json.parseTrusted(price));
      assertThat(EvaluatorProfile.parse(b, SIGNER).priceUsd())
          .isEqualByComparingTo(new BigDecimal(price));
    }
  }

  @Test
  void conflictsOfInterestArePartyKeysThatRoundTrip() {
    ObjectNode b = Pools.registration();
    b.putArray("conflicts_of_interest")
        .add(Pools.key("bob").toBase64Url())
        .add(Pools.key("alice").toBase64Url());
    EvaluatorProfile p = EvaluatorProfile.parse(b, SIGNER);
    assertThat(p.conflictsOfInterest()).containsExactly(Pools.key("bob"), Pools.key("alice"));
    assertThat(p.declaresConflictWith(Pools.key("bob"))).isTrue();
    assertThat(p.declaresConflictWith(Pools.key("carol"))).isFalse();
    assertThat(EvaluatorProfile.fromJson(Json.parseTrusted(Json.write(p.toJson())))).isEqualTo(p);
    assertThat(
            EvaluatorProfile.parse(Pools.registration(), SIGNER)
                .toJson()
                .has("conflicts_of_interest"))
        .as("none declared, none shown")
        .isFalse();
  }

  @Test
  void conflictsOfInterestAreABoundedListOfKeysWithoutRepeats() {
    assertRefused(
        b -> b.put("conflicts_of_interest", "Bob Industries"),
        "/conflicts_of_interest",
        "keys (base64url");
    assertRefused(
        b -> b.putArray("conflicts_of_interest").add("Bob Industries"),
        "/conflicts_of_interest/0",
        "is not a key");
    assertRefused(
        b -> b.putArray("conflicts_of_interest").add(7), "/conflicts_of_interest/0", "a number");
    String bob = Pools.key("bob").toBase64Url();
    assertRefused(
        b -> b.putArray("conflicts_of_interest").add(bob).add(bob),
        "/conflicts_of_interest/1",
        "listed twice");
    assertRefused(
        b -> {
          var a = b.putArray("conflicts_of_interest");
          for (int i = 0; i <= EvaluatorProfile.MAX_CONFLICTS; i++) {
            a.add(Pools.key("party-" + i).toBase64Url());
          }
        },
        "/conflicts_of_interest",
        "found 257 entries");
  }

  private static void assertRefused(Consumer<ObjectNode> edit, String pointer, String fragment) {
    ObjectNode b = Pools.registration();
    edit.accept(b);
    assertRefused(b, pointer, fragment);
  }

  private static void assertRefused(
      com.fasterxml.jackson.databind.JsonNode body, String pointer, String fragment) {
    assertThatThrownBy(() -> EvaluatorProfile.parse(body, SIGNER))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations())
                .as(e.getMessage())
                .anySatisfy(v -> {
                  assertThat(v.pointer()).isEqualTo(pointer);
                  assertThat(v.message()).contains(fragment);
                }));
  }
}
