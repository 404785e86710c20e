package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class AsaApiExceptionTest {

  private static final URI URL = URI.create("http://127.0.0.1:8080/agreements");

  @Test
  void readsAProblemDocumentWithFieldErrors() {
    String body =
        """
        {"type":"https://asa.dev/problems/invalid-document","title":"The request body breaks the rules",
         "status":422,"detail":"2 problems; see errors","instance":"/agreements",
         "errors":[{"pointer":"/service/description","detail":"required"},
                   {"pointer":"/escrow/payment/amount","detail":"must be a decimal string"}]}\
        """;

    AsaApiException e = AsaApiException.fromResponse("POST", URL, 422, body);

    assertThat(e.status()).isEqualTo(422);
    assertThat(e.type()).isEqualTo("https://asa.dev/problems/invalid-document");
    assertThat(e.kind()).isEqualTo("invalid-document");
    assertThat(e.detail()).isEqualTo("2 problems; see errors");
    assertThat(e.errors())
        .containsExactly(
            new AsaApiException.FieldError("/service/description", "required"),
            new AsaApiException.FieldError("/escrow/payment/amount", "must be a decimal string"));
    assertThat(e.getMessage())
        .startsWith("HTTP 422 invalid-document: 2 problems; see errors")
        .contains("/service/description: required")
        .contains("/escrow/payment/amount: must be a decimal string");
    assertThat(e.body()).isEqualTo(body);
  }

  @Test
  void keepsExtensionMembersReachable() {
    String body =
        "{\"type\":\"https://asa.dev/problems/transition-refused\",\"status\":409,"
            + "\"detail\":\"cannot deliver in PROPOSED\",\"current_state\":\"PROPOSED\",\"allowed_actions\":[\"sign\"]}";

    AsaApiException e = AsaApiException.fromResponse("POST", URL, 409, body);

    assertThat(e.errors()).isEmpty();
    assertThat(e.problem().path("current_state").asText()).isEqualTo("PROPOSED");
    assertThat(e.getMessage()).isEqualTo("HTTP 409 transition-refused: cannot deliver in PROPOSED");
  }

  @Test
  void describesAnAnswerThatIsNotAProblem() {
    AsaApiException e = AsaApiException.fromResponse("GET", URL, 502, "<html>Bad Gateway</html>");

    assertThat(e.type()).isNull();
    assertThat(e.kind()).isNull();
    assertThat(e.detail()).contains("GET " + URL).contains("HTTP 502").contains("Bad Gateway");
  }

  @Test
  void anUnreachableServerHasStatusZeroAndSaysHowToStartOne() {
    AsaApiException e = AsaApiException.unreachable(URL, "connection refused", null);

    assertThat(e.status()).isZero();
    assertThat(e.isUnreachable()).isTrue();
    assertThat(e.getMessage())
        .contains(URL.toString())
        .contains("connection refused")
        .contains("./asa serve");
  }
}
