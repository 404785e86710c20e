package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class AgreementBuilderTest {

  private final Ed25519PublicKey client =
      Ed25519PrivateKey.generate(new SecureRandom()).publicKey();
  private final Ed25519PublicKey provider =
      Ed25519PrivateKey.generate(new SecureRandom()).publicKey();

  @Test
  void buildsThePartialDocumentATemplateCompletes() {
    ObjectNode doc =
        AgreementBuilder.template("general")
            .client(client)
            .provider(provider)
            .evaluator("api_key", "eval-1", "agent_as_judge")
            .description("Summarise the paper")
            .payment("10.00", "USDC")
            .build();

    assertThat(doc.path("template").asText()).isEqualTo("general");
    assertThat(doc.at("/parties/client/verification_key/scheme").asText()).isEqualTo("ed25519");
    assertThat(doc.at("/parties/client/verification_key/value").asText())
        .isEqualTo(client.toBase64Url());
    assertThat(doc.at("/parties/provider/verification_key/value").asText())
        .isEqualTo(provider.toBase64Url());
    assertThat(doc.at("/parties/evaluator/identity/scheme").asText()).isEqualTo("api_key");
    assertThat(doc.at("/parties/evaluator/identity/value").asText()).isEqualTo("eval-1");
    assertThat(doc.at("/parties/evaluator/type").asText()).isEqualTo("agent_as_judge");
    assertThat(doc.at("/parties/evaluator/verification_key").isMissingNode()).isTrue();
    assertThat(doc.at("/service/description").asText()).isEqualTo("Summarise the paper");
    assertThat(doc.at("/escrow/payment/amount").isTextual())
        .as("amounts are decimal strings")
        .isTrue();
    assertThat(doc.at("/escrow/payment/amount").asText()).isEqualTo("10.00");
    assertThat(doc.at("/escrow/payment/currency").asText()).isEqualTo("USDC");
  }

  @Test
  void aPartyGivenByItsKeyIsIdentifiedByItsDidKey() {
    ObjectNode doc = AgreementBuilder.template("general").client(client).build();

    assertThat(doc.at("/parties/client/identity/scheme").asText()).isEqualTo("did");
    assertThat(doc.at("/parties/client/identity/value").asText())
        .isEqualTo(DidKey.of(client))
        .startsWith("did:key:z6Mk");
  }

  @Test
  void anExplicitIdentityWinsAndTheIdIsOptional() {
    ObjectNode doc =
        AgreementBuilder.blank()
            .agreementId("asa-test-1")
            .provider("erc8004", "0x742d", provider)
            .build();

    assertThat(doc.has("template")).isFalse();
    assertThat(doc.path("agreement_id").asText()).isEqualTo("asa-test-1");
    assertThat(doc.at("/parties/provider/identity/scheme").asText()).isEqualTo("erc8004");
    assertThat(doc.at("/parties/provider/identity/value").asText()).isEqualTo("0x742d");
  }

  @Test
  void buildReturnsACopy() {
    AgreementBuilder builder = AgreementBuilder.template("general");
    ObjectNode first = builder.build();
    first.put("template", "changed");

    assertThat(builder.build().path("template").asText()).isEqualTo("general");
  }
}
