package dev.asa.server.escrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Currency;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.agreement.Violation;
import dev.asa.json.Json;
import dev.asa.server.escrow.x402.Authorization;
import dev.asa.server.escrow.x402.Requirements;
import dev.asa.server.escrow.x402.X402;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class X402Test {

  static final String ASSET = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
  static final String PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  static Money money(String amount, String currency) {
    return new Money(new BigDecimal(amount), Currency.of(currency).orElseThrow());
  }

  static ObjectNode binding(String scheme) {
    ObjectNode b = Json.object();
    b.put("type", "x402");
    b.put("network", "eip155:84532");
    b.put("asset", ASSET);
    b.put("pay_to", PAY_TO);
    if (scheme != null) {
      b.put("scheme", scheme);
    }
    return b;
  }

  static Requirements upto() {
    return X402.requirements(binding(null), money("10.00", "USDC"), 300);
  }

  static Requirements exact() {
    return X402.requirements(binding("exact"), money("10.00", "USDC"), 300);
  }

  static List<String> pointers(Runnable r) {
    InvalidDocumentException e = catchThrowableOfType(InvalidDocumentException.class, r::run);
    assertThat(e).as("an InvalidDocumentException").isNotNull();
    return e.violations().stream().map(Violation::pointer).toList();
  }

  // --- atomic amounts -------------------------------------------------------------------------

  @Test
  void atomicAmountsScaleByTheCurrencysDecimals() {
    assertThat(X402.atomicAmount(money("10.00", "USDC"))).isEqualTo("10000000");
    assertThat(X402.atomicAmount(money("0.000001", "USDC"))).isEqualTo("1");
    assertThat(X402.atomicAmount(money("7", "JPY"))).isEqualTo("7");
    assertThat(X402.atomicAmount(money("0", "CREDIT"))).isEqualTo("0");
    assertThat(X402.atomicAmount(money("1.5", "DAI"))).isEqualTo("1500000000000000000");
    assertThat(X402.atomicAmount(money("0.000000000000000001", "ETH"))).isEqualTo("1");
    assertThat(X402.atomicAmount(money("123456789012345678.123456789012345678", "ETH")))
        .isEqualTo("123456789012345678123456789012345678");
    assertThat(X402.atomicAmount(money("0", "USDC"))).isEqualTo("0");
  }

  @Test
  void atomicAmountsAreExactForRandomAmounts() {
    Random random = new Random(402);
    for (String code : List.of("CREDIT", "JPY", "USD", "USDC", "BTC", "SOL", "DAI")) {
      Currency currency = Currency.of(code).orElseThrow();
      for (int i = 0; i < 500; i++) {
        BigInteger units = new BigInteger(1 + random.nextInt(90), random);
        Money m = new Money(new BigDecimal(units, currency.decimals()), currency);
        String atomic = X402.atomicAmount(m);
        assertThat(atomic).isEqualTo(units.toString()).doesNotContain(".", "E", "-");
        assertThat(new BigDecimal(new BigInteger(atomic), currency.decimals()))
            .isEqualByComparingTo(m.amount());
      }
    }
  }

  // --- requirements ---------------------------------------------------------------------------

  @Test
  void requirementsComeFromTheBindingAndTheEscrowAmount() {
    Requirements r = upto();
    assertThat(r.scheme()).isEqualTo("upto");
    assertThat(r.toJson())
        .isEqualTo(
            Json.parseTrusted(
                """
                {"scheme":"upto","network":"eip155:84532","amount":"10000000",
                 "asset":"0x036CbD53842c5426634e7929541eC2318f3dCF7e",
                 "payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","maxTimeoutSeconds":300}\
                """));
    assertThat(exact().scheme()).isEqualTo("exact");
    assertThat(r.withAmount("2500000").toJson().get("amount").textValue()).isEqualTo("2500000");
  }

  @Test
  void bindingExtraIsPassedToTheRequirements() {
    ObjectNode b = binding("exact");
    b.putObject("extra").put("name", "USDC").put("version", "2");
    Requirements r = X402.requirements(b, money("1", "USDC"), 60);
    assertThat(r.toJson().get("extra"))
        .isEqualTo(Json.parseTrusted("{\"name\":\"USDC\",\"version\":\"2\"}"));
    // The record is immutable although Jackson nodes are not.
    r.extra().put("name", "changed");
    b.with("extra").put("name", "changed");
    assertThat(r.toJson().at("/extra/name").textValue()).isEqualTo("USDC");
  }

  @Test
  void badBindingsNameTheField() {
    record Case(Consumer<ObjectNode> change, String pointer) {}
    List<Case> cases =
        List.of(
            new Case(b -> b.put("type", "ledger"), "/escrow/binding/type"),
            new Case(b -> b.remove("network"), "/escrow/binding/network"),
            new Case(b -> b.put("network", "84532"), "/escrow/binding/network"),
            new Case(b -> b.put("network", "base-sepolia"), "/escrow/binding/network"),
            new Case(b -> b.put("network", "eip155:"), "/escrow/binding/network"),
            new Case(
                b -> b.put("network", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"),
                "/escrow/binding/network"),
            new Case(b -> b.put("network", 84532), "/escrow/binding/network"),
            new Case(b -> b.remove("asset"), "/escrow/binding/asset"),
            new Case(
                b -> b.put("asset", "0x036CbD53842c5426634e7929541eC2318f3dCF7"),
                "/escrow/binding/asset"),
            new Case(
                b -> b.put("asset", "036CbD53842c5426634e7929541eC2318f3dCF7e00"),
                "/escrow/binding/asset"),
            new Case(b -> b.put("asset", "USDC"), "/escrow/binding/asset"),
            new Case(b -> b.remove("pay_to"), "/escrow/binding/pay_to"),
            new Case(
                b -> b.put("pay_to", "0xZZ9693Bc6afc0C5328bA36FaF03C514EF312287C"),
                "/escrow/binding/pay_to"),
            new Case(b -> b.put("scheme", "stream"), "/escrow/binding/scheme"),
            new Case(b -> b.put("scheme", 1), "/escrow/binding/scheme"),
            new Case(b -> b.put("extra", "USDC"), "/escrow/binding/extra"));
    for (Case c : cases) {
      ObjectNode b = binding(null);
      c.change().accept(b);
      assertThat(pointers(() -> X402.requirements(b, money("10.00", "USDC"), 300)))
          .as(b.toString())
          .containsExactly(c.pointer());
    }
  }

  @Test
  void everyBindingProblemIsReportedAtOnce() {
    ObjectNode b = Json.object();
    b.put("type", "x402");
    assertThat(pointers(() -> X402.requirements(b, money("0", "USDC"), 300)))
        .containsExactlyInAnyOrder(
            "/escrow/binding/network",
            "/escrow/binding/asset",
            "/escrow/binding/pay_to",
            "/escrow/payment/amount");
    assertThat(pointers(() -> X402.requirements(Json.parseTrusted("[]"), money("1", "USDC"), 300)))
        .containsExactly("/escrow/binding");
    assertThatThrownBy(() -> X402.requirements(binding(null), money("1", "USDC"), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void requirementsReadBackFromTheirJson() {
    Requirements r = upto();
    assertThat(Requirements.fromJson(r.toJson(), "/r")).isEqualTo(r);
    ObjectNode bad = r.toJson();
    bad.put("amount", "10.5");
    bad.remove("maxTimeoutSeconds");
    assertThat(pointers(() -> Requirements.fromJson(bad, "/r")))
        .containsExactlyInAnyOrder("/r/amount", "/r/maxTimeoutSeconds");
  }

  // --- payloads -------------------------------------------------------------------------------

  @Test
  void aWellFormedPayloadIsAcceptedForEachScheme() {
    for (Requirements r : List.of(upto(), exact())) {
      ObjectNode payload = FakeFacilitator.paymentPayload(r, NOW);
      ObjectNode parsed = X402.parsePayload(payload, r, NOW);
      assertThat(parsed).isEqualTo(payload).isNotSameAs(payload);
      Authorization a = Authorization.of(parsed);
      assertThat(a.method())
          .isEqualTo(r.scheme().equals("upto") ? Authorization.PERMIT2 : Authorization.EIP3009);
      assertThat(a.from()).isEqualTo(FakeFacilitator.PAYER);
      assertThat(a.to()).isEqualTo(PAY_TO);
      assertThat(a.value()).isEqualTo(new BigInteger("10000000"));
      assertThat(a.expiresAt()).isAfter(NOW);
    }
  }

  @Test
  void addressesCompareWithoutCase() {
    Requirements r = upto();
    ObjectNode payload = FakeFacilitator.paymentPayload(r, NOW);
    ((ObjectNode) payload.get("accepted")).put("payTo", PAY_TO.toLowerCase());
    ((ObjectNode) payload.at("/payload/permit2Authorization/witness"))
        .put("to", PAY_TO.toUpperCase().replace("0X", "0x"));
    X402.parsePayload(payload, r, NOW);
  }

  record Mutation(String description, Consumer<ObjectNode> change, String pointer) {}

  static ObjectNode at(ObjectNode root, String pointer) {
    return (ObjectNode) root.at(pointer);
  }

  static void check(Requirements r, List<Mutation> mutations) {
    for (Mutation m : mutations) {
      ObjectNode payload = FakeFacilitator.paymentPayload(r, NOW);
      m.change().accept(payload);
      assertThat(pointers(() -> X402.parsePayload(payload, r, NOW)))
          .as(r.scheme() + ": " + m.description())
          .containsExactly(m.pointer());
    }
  }

  static final String FUTURE = Long.toString(NOW.getEpochSecond() + 3600);
  static final String PAST = Long.toString(NOW.getEpochSecond() - 1);

  @Test
  void badPayloadFieldsAreNamedForBothSchemes() {
    for (Requirements r : List.of(upto(), exact())) {
      check(
          r,
          List.of(
              new Mutation("version 1", p -> p.put("x402Version", 1), "/x402/x402Version"),
              new Mutation("version as text", p -> p.put("x402Version", "2"), "/x402/x402Version"),
              new Mutation("no version", p -> p.remove("x402Version"), "/x402/x402Version"),
              new Mutation("unknown member", p -> p.put("scheme", "upto"), "/x402/scheme"),
              new Mutation("resource without url", p -> p.putObject("resource"), "/x402/resource"),
              new Mutation(
                  "extensions not an object", p -> p.put("extensions", "x"), "/x402/extensions"),
              new Mutation("no accepted", p -> p.remove("accepted"), "/x402/accepted"),
              new Mutation(
                  "other scheme",
                  p ->
                      at(p, "/accepted")
                          .put("scheme", r.scheme().equals("upto") ? "exact" : "upto"),
                  "/x402/accepted/scheme"),
              new Mutation(
                  "unknown scheme",
                  p -> at(p, "/accepted").put("scheme", "stream"),
                  "/x402/accepted/scheme"),
              new Mutation(
                  "other network",
                  p -> at(p, "/accepted").put("network", "eip155:8453"),
                  "/x402/accepted/network"),
              new Mutation(
                  "v1 network name",
                  p -> at(p, "/accepted").put("network", "base"),
                  "/x402/accepted/network"),
              new Mutation(
                  "other asset",
                  p -> at(p, "/accepted").put("asset", "0x" + "1".repeat(40)),
                  "/x402/accepted/asset"),
              new Mutation(
                  "other payTo",
                  p -> at(p, "/accepted").put("payTo", "0x" + "2".repeat(40)),
                  "/x402/accepted/payTo"),
              new Mutation(
                  "other amount",
                  p -> at(p, "/accepted").put("amount", "9999999"),
                  "/x402/accepted/amount"),
              new Mutation(
                  "amount as number",
                  p -> at(p, "/accepted").put("amount", 10000000),
                  "/x402/accepted/amount"),
              new Mutation(
                  "amount with leading zero",
                  p -> at(p, "/accepted").put("amount", "010000000"),
                  "/x402/accepted/amount"),
              new Mutation(
                  "no maxTimeoutSeconds",
                  p -> at(p, "/accepted").remove("maxTimeoutSeconds"),
                  "/x402/accepted/maxTimeoutSeconds"),
              new Mutation(
                  "v1 maxAmountRequired",
                  p -> at(p, "/accepted").put("maxAmountRequired", "1"),
                  "/x402/accepted/maxAmountRequired"),
              new Mutation("no payload", p -> p.remove("payload"), "/x402/payload"),
              new Mutation(
                  "no signature",
                  p -> at(p, "/payload").remove("signature"),
                  "/x402/payload/signature"),
              new Mutation(
                  "short signature",
                  p -> at(p, "/payload").put("signature", "0x" + "ab".repeat(64)),
                  "/x402/payload/signature"),
              new Mutation(
                  "signature not hex",
                  p -> at(p, "/payload").put("signature", "0x" + "zz".repeat(65)),
                  "/x402/payload/signature"),
              new Mutation(
                  "odd-length signature",
                  p -> at(p, "/payload").put("signature", "0x" + "a".repeat(131)),
                  "/x402/payload/signature"),
              new Mutation(
                  "unknown payload member",
                  p -> at(p, "/payload").put("v", 27),
                  "/x402/payload/v")));
    }
  }

  @Test
  void badEip3009AuthorizationFieldsAreNamed() {
    String a = "/payload/authorization";
    String x = "/x402" + a;
    check(
        exact(),
        List.of(
            new Mutation("missing", p -> at(p, "/payload").remove("authorization"), x),
            new Mutation(
                "permit2 instead",
                p -> {
                  at(p, "/payload").remove("authorization");
                  at(p, "/payload").putObject("permit2Authorization");
                },
                "/x402/payload/permit2Authorization"),
            new Mutation("no from", p -> at(p, a).remove("from"), x + "/from"),
            new Mutation("bad from", p -> at(p, a).put("from", "0x123"), x + "/from"),
            new Mutation("no to", p -> at(p, a).remove("to"), x + "/to"),
            new Mutation(
                "to someone else", p -> at(p, a).put("to", "0x" + "3".repeat(40)), x + "/to"),
            new Mutation("no value", p -> at(p, a).remove("value"), x + "/value"),
            new Mutation("value too low", p -> at(p, a).put("value", "9999999"), x + "/value"),
            new Mutation("value too high", p -> at(p, a).put("value", "10000001"), x + "/value"),
            new Mutation("value as number", p -> at(p, a).put("value", 10000000), x + "/value"),
            new Mutation("value negative", p -> at(p, a).put("value", "-10000000"), x + "/value"),
            new Mutation(
                "value beyond uint256",
                p -> at(p, a).put("value", BigInteger.TWO.pow(256).toString()),
                x + "/value"),
            new Mutation(
                "not yet valid", p -> at(p, a).put("validAfter", FUTURE), x + "/validAfter"),
            new Mutation(
                "validAfter hex", p -> at(p, a).put("validAfter", "0x10"), x + "/validAfter"),
            new Mutation("expired", p -> at(p, a).put("validBefore", PAST), x + "/validBefore"),
            new Mutation(
                "expires now",
                p -> at(p, a).put("validBefore", Long.toString(NOW.getEpochSecond())),
                x + "/validBefore"),
            new Mutation("no validBefore", p -> at(p, a).remove("validBefore"), x + "/validBefore"),
            new Mutation("no nonce", p -> at(p, a).remove("nonce"), x + "/nonce"),
            new Mutation("short nonce", p -> at(p, a).put("nonce", "0x1234"), x + "/nonce"),
            new Mutation("decimal nonce", p -> at(p, a).put("nonce", "12345"), x + "/nonce"),
            new Mutation("unknown member", p -> at(p, a).put("chainId", "84532"), x + "/chainId")));
  }

  @Test
  void badPermit2AuthorizationFieldsAreNamed() {
    String a = "/payload/permit2Authorization";
    String x = "/x402" + a;
    check(
        upto(),
        List.of(
            new Mutation("missing", p -> at(p, "/payload").remove("permit2Authorization"), x),
            new Mutation(
                "EIP-3009 instead",
                p -> {
                  at(p, "/payload").remove("permit2Authorization");
                  at(p, "/payload").putObject("authorization");
                },
                "/x402/payload/authorization"),
            new Mutation("no from", p -> at(p, a).remove("from"), x + "/from"),
            new Mutation("bad spender", p -> at(p, a).put("spender", "proxy"), x + "/spender"),
            new Mutation("hex nonce", p -> at(p, a).put("nonce", "0xabc"), x + "/nonce"),
            new Mutation("no permitted", p -> at(p, a).remove("permitted"), x + "/permitted"),
            new Mutation(
                "other token",
                p -> at(p, a + "/permitted").put("token", "0x" + "4".repeat(40)),
                x + "/permitted/token"),
            new Mutation(
                "amount too low",
                p -> at(p, a + "/permitted").put("amount", "1"),
                x + "/permitted/amount"),
            new Mutation(
                "amount too high",
                p -> at(p, a + "/permitted").put("amount", "20000000"),
                x + "/permitted/amount"),
            new Mutation("expired", p -> at(p, a).put("deadline", PAST), x + "/deadline"),
            new Mutation("no witness", p -> at(p, a).remove("witness"), x + "/witness"),
            new Mutation(
                "witness to someone else",
                p -> at(p, a + "/witness").put("to", "0x" + "5".repeat(40)),
                x + "/witness/to"),
            new Mutation(
                "not yet valid",
                p -> at(p, a + "/witness").put("validAfter", FUTURE),
                x + "/witness/validAfter"),
            new Mutation(
                "bad facilitator",
                p -> at(p, a + "/witness").put("facilitator", "me"),
                x + "/witness/facilitator"),
            new Mutation("unknown member", p -> at(p, a).put("value", "1"), x + "/value")));
  }

  @Test
  void theWitnessFacilitatorMustBeTheOneOffered() {
    ObjectNode b = binding(null);
    b.putObject("extra").put("facilitatorAddress", "0x" + "6".repeat(40));
    Requirements r = X402.requirements(b, money("10.00", "USDC"), 300);
    ObjectNode payload = FakeFacilitator.paymentPayload(r, NOW);
    X402.parsePayload(payload, r, NOW);
    at(payload, "/payload/permit2Authorization/witness").put("facilitator", "0x" + "7".repeat(40));
    assertThat(pointers(() -> X402.parsePayload(payload, r, NOW)))
        .containsExactly("/x402/payload/permit2Authorization/witness/facilitator");
  }

  @Test
  void aPayloadThatIsNotAnObjectIsRefused() {
    assertThat(pointers(() -> X402.parsePayload(Json.parseTrusted("\"eyJ4NDAy\""), upto(), NOW)))
        .containsExactly("/x402");
    assertThat(pointers(() -> X402.parsePayload(null, upto(), NOW))).containsExactly("/x402");
  }

  @Test
  void errorsSayWhatToDo() {
    ObjectNode payload = FakeFacilitator.paymentPayload(upto(), NOW);
    at(payload, "/accepted").put("amount", "1");
    InvalidDocumentException e =
        catchThrowableOfType(
            InvalidDocumentException.class, () -> X402.parsePayload(payload, upto(), NOW));
    assertThat(e.violations().getFirst().message()).contains("must be 10000000", "atomic units");
  }

  // --- settlement and headers -----------------------------------------------------------------

  @Test
  void theSettleBodyChargesTheReleasedAmount() {
    Requirements r = upto();
    ObjectNode payload = X402.parsePayload(FakeFacilitator.paymentPayload(r, NOW), r, NOW);
    JsonNode body = Json.parseTrusted(X402.settleBody(payload, r.withAmount("7500000")));
    assertThat(body.get("x402Version").intValue()).isEqualTo(2);
    assertThat(body.get("paymentPayload")).isEqualTo(payload);
    assertThat(body.get("paymentRequirements")).isEqualTo(r.withAmount("7500000").toJson());
    assertThat(
            Json.parseTrusted(X402.verifyBody(payload, r))
                .get("paymentRequirements")
                .get("amount")
                .textValue())
        .isEqualTo("10000000");
  }

  @Test
  void impossibleSettlementsAreRefused() {
    Requirements r = upto();
    ObjectNode payload = X402.parsePayload(FakeFacilitator.paymentPayload(r, NOW), r, NOW);
    assertThatThrownBy(() -> X402.settleBody(payload, r.withAmount("0")))
        .hasMessageContaining("nothing to settle");
    assertThatThrownBy(() -> X402.settleBody(payload, r.withAmount("10000001")))
        .hasMessageContaining("authorized");
    Requirements elsewhere =
        new Requirements("upto", "eip155:8453", "1", r.asset(), r.payTo(), 300, null);
    assertThatThrownBy(() -> X402.settleBody(payload, elsewhere))
        .isInstanceOf(IllegalArgumentException.class);

    Requirements e = exact();
    ObjectNode exactPayload = X402.parsePayload(FakeFacilitator.paymentPayload(e, NOW), e, NOW);
    X402.settleBody(exactPayload, e);
    assertThatThrownBy(() -> X402.settleBody(exactPayload, e.withAmount("5000000")))
        .hasMessageContaining("upto");
  }

  @Test
  void thePaymentResponseHeaderIsBase64OfTheSettleResponse() {
    JsonNode response =
        Json.parseTrusted(
            """
            {"success":true,"transaction":"0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef",
             "network":"eip155:84532","payer":"0x857b06519E91e3A54538791bDbb0E22373e36b66"}\
            """);
    String header = X402.header(response);
    assertThat(header).matches("[A-Za-z0-9+/]+=*");
    assertThat(
            Json.parseTrusted(
                new String(Base64.getDecoder().decode(header), StandardCharsets.UTF_8)))
        .isEqualTo(response);
  }
}
