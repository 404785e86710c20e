package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The typed views read the server's answers as the server writes them, and refuse half of one. */
class TypedViewsTest {

  private static final String HASH = "sha256:" + "ab".repeat(32);

  private static ObjectNode json(String text) throws IOException {
    return (ObjectNode) Json.parse(text.replace('\'', '"'));
  }

  @Test
  void anEnvelopeReadsItsMembersAndKeepsTheRest() throws IOException {
    ObjectNode answer =
        json(
            "{'agreement_id':'asa-1','state':'ACTIVE','version':3,'agreement_hash':'"
                + HASH
                + "','allowed_actions':['deliver','close'],'agreement':{'service':{'type':'general'}},"
                + "'extra':1}");

    AgreementView view = AgreementView.from(answer);

    assertThat(view.id()).isEqualTo("asa-1");
    assertThat(view.state()).isEqualTo(State.ACTIVE);
    assertThat(view.version()).isEqualTo(3);
    assertThat(view.agreementHash()).isEqualTo(HASH);
    assertThat(view.allows("deliver")).isTrue();
    assertThat(view.allows("sign")).isFalse();
    assertThat(view.document().at("/service/type").asText()).isEqualTo("general");
    assertThat(view.json().path("extra").asInt()).isEqualTo(1);
  }

  @Test
  void aViewIsNotChangedThroughTheTreesItWasBuiltFromOrHandsOut() throws IOException {
    ObjectNode answer =
        json(
            "{'agreement_id':'asa-1','state':'ACTIVE','version':3,'agreement_hash':'"
                + HASH
                + "','allowed_actions':[],'agreement':{'a':1}}");
    AgreementView view = AgreementView.from(answer);

    answer.put("agreement_id", "changed");
    ((ObjectNode) answer.path("agreement")).put("a", 2);
    view.document().put("a", 3);
    view.json().put("agreement_id", "changed too");

    assertThat(view.document().path("a").asInt()).isEqualTo(1);
    assertThat(view.json().path("agreement_id").asText()).isEqualTo("asa-1");
  }

  @Test
  void aMissingMemberIsNamedWithWhatWasExpected() throws IOException {
    ObjectNode answer = json("{'agreement_id':'asa-1','state':'ACTIVE','agreement_hash':'x'}");

    assertThatThrownBy(() -> AgreementView.from(answer))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("an agreement envelope needs member 'version' as an integer")
        .hasMessageContaining("it is missing");
    assertThatThrownBy(() -> AgreementView.from(json("{'agreement_id':7}")))
        .hasMessageContaining("member 'agreement_id' as a string, but it is 7");
    assertThatThrownBy(() -> AgreementView.from(Json.parse("[1]")))
        .hasMessageContaining("an agreement envelope must be a JSON object; got [1]");
  }

  @Test
  void anUnknownStateIsRefusedNamingTheStatesThereAre() throws IOException {
    ObjectNode answer =
        json(
            "{'agreement_id':'asa-1','state':'PAUSED','version':1,'agreement_hash':'"
                + HASH
                + "','allowed_actions':[],'agreement':{}}");

    assertThatThrownBy(() -> AgreementView.from(answer))
        .hasMessageContaining("member 'state'")
        .hasMessageContaining("unknown agreement state 'PAUSED'");
  }

  @Test
  void aStatusReadsSignaturesDeadlinesVerdictAndPayment() throws IOException {
    ObjectNode answer =
        json(
            "{'agreement_id':'asa-1','state':'CLOSED','version':7,'agreement_hash':'"
                + HASH
                + "','allowed_actions':[],"
                + "'signatures':{'client':true,'provider':true},"
                + "'deadlines':{'challenge_window_closes_at':'2026-11-22T12:00:00Z',"
                + "'challenge_window_open':false},"
                + "'verification':{'verification_id':'ver-1','verified_at':'2026-11-22T10:00:00Z',"
                + "'result':'PASS','composite':80.5,'payment_release_percent':85},"
                + "'payment':{'amount':'10.00','currency':'USD','binding':'ledger',"
                + "'status':'settled','released_to_provider':'8.50','refunded_to_client':'1.50'}}");

    AgreementStatus status = AgreementStatus.from(answer);

    assertThat(status.state()).isEqualTo(State.CLOSED);
    assertThat(status.signedByClient()).isTrue();
    assertThat(status.signedByProvider()).isTrue();
    assertThat(status.expiresAt()).isEmpty();
    assertThat(status.challengeWindowClosesAt()).hasValue(Instant.parse("2026-11-22T12:00:00Z"));
    AgreementStatus.Verdict verdict = status.verdict().orElseThrow();
    assertThat(verdict.verificationId()).isEqualTo("ver-1");
    assertThat(verdict.passed()).isTrue();
    assertThat(verdict.composite()).hasValue(new BigDecimal("80.5"));
    assertThat(verdict.releasePercent()).isEqualByComparingTo("85");
    assertThat(status.payment().status()).isEqualTo("settled");
    // Amounts keep the digits the server wrote: 8.50, not 8.5.
    assertThat(status.payment().releasedToProvider()).hasValue(new BigDecimal("8.50"));
    assertThat(status.payment().refundedToClient()).hasValue(new BigDecimal("1.50"));
    assertThat(status.payment().currency()).hasValue("USD");
  }

  @Test
  void aProposedStatusHasNoVerdictAndNoSignaturesYet() throws IOException {
    AgreementStatus status =
        AgreementStatus.from(
            json(
                "{'agreement_id':'asa-1','state':'PROPOSED','version':1,'agreement_hash':'"
                    + HASH
                    + "','allowed_actions':['sign'],'signatures':{'client':false,'provider':false},"
                    + "'deadlines':{},'payment':{'status':'not_yet_due'}}"));

    assertThat(status.verdict()).isEmpty();
    assertThat(status.signedByClient()).isFalse();
    assertThat(status.payment().amount()).isEmpty();
  }

  private static final String RESULT =
      "{'verification_id':'ver-1','agreement_id':'asa-1','timestamp':'2026-11-22T10:00:00Z',"
          + "'evaluator':{'type':'agent_as_judge'},"
          + "'dimensions':["
          + "{'name':'accuracy','score':80,'slo_target':80,'slo_met':true,'evidence':'3 of 3'},"
          + "{'name':'relevance','score':null,'slo_met':false,'evidence':'no judge configured'}],"
          + "'composite':{'score':80.5,'method':'weighted_average','threshold':70,'passed':true},"
          + "'determination':{'result':'PASS','payment_release_percent':85,'confidence':0.872,"
          + "'notes':''},"
          + "'evidence_trail':{'deliverable_hash':'"
          + HASH
          + "'}}";

  @Test
  void aResultReadsDeterminationCompositeAndDimensions() throws IOException {
    VerificationView result = VerificationView.from(json(RESULT));

    assertThat(result.verificationId()).isEqualTo("ver-1");
    assertThat(result.agreementId()).hasValue("asa-1");
    assertThat(result.passed()).isTrue();
    assertThat(result.releasePercent()).isEqualByComparingTo("85");
    assertThat(result.confidence()).hasValue(new BigDecimal("0.872"));
    assertThat(result.notes()).isEmpty();
    assertThat(result.composite().score()).isEqualByComparingTo("80.5");
    assertThat(result.composite().threshold()).isEqualByComparingTo("70");
    assertThat(result.composite().passed()).isTrue();
    assertThat(result.composite().method()).hasValue("weighted_average");
    VerificationView.Dimension accuracy = result.dimension("accuracy").orElseThrow();
    assertThat(accuracy.evaluated()).isTrue();
    assertThat(accuracy.sloMet()).isTrue();
    VerificationView.Dimension relevance = result.dimension("relevance").orElseThrow();
    assertThat(relevance.evaluated()).isFalse();
    assertThat(relevance.score()).isEmpty();
    assertThat(relevance.evidence()).isEqualTo("no judge configured");
    assertThat(result.dimension("speed")).isEmpty();
    assertThat(result.json().at("/evidence_trail/deliverable_hash").asText()).isEqualTo(HASH);
  }

  @Test
  void aVerifyAnswerCarriesTheNewStateAndTheResult() throws IOException {
    ObjectNode answer = json("{'agreement_id':'asa-1','state':'VERIFIED'}");
    answer.set("verification", json(RESULT));

    VerifyOutcome outcome = VerifyOutcome.from(answer);

    assertThat(outcome.state()).isEqualTo(State.VERIFIED);
    assertThat(outcome.verification().passed()).isTrue();
  }

  @Test
  void aJobStillRunningIsNotMistakenForAResult() throws IOException {
    JsonNode job = json("{'verification_id':'ver-9','status':'running','progress':{}}");

    assertThatThrownBy(() -> VerifyOutcome.from(job))
        .hasMessageContaining("job ver-9 (status running)")
        .hasMessageContaining("AsaClient.awaitVerification");
    assertThatThrownBy(() -> VerificationView.from(job))
        .hasMessageContaining("verification ver-9 is still running");
  }

  @Test
  void anEscrowReadsBalancesAndTransfers() throws IOException {
    EscrowView escrow =
        EscrowView.from(
            json(
                "{'agreement_id':'asa-1','state':'ACTIVE','binding':'ledger','enabled':true,"
                    + "'amount':'10.00','currency':'USD','status':'held',"
                    + "'balances':{'USD':'10.00'},"
                    + "'transfers':[{'transfer_id':'t-1','kind':'fund','from':'party:abc',"
                    + "'to':'escrow:asa-1','amount':'10.00','currency':'USD',"
                    + "'at':'2026-11-22T10:00:00Z'}],'messages':[]}"));

    assertThat(escrow.status()).isEqualTo("held");
    assertThat(escrow.enabled()).isTrue();
    assertThat(escrow.amount()).hasValue(new BigDecimal("10.00"));
    assertThat(escrow.balances()).containsEntry("USD", new BigDecimal("10.00"));
    assertThat(escrow.transfers()).hasSize(1);
    EscrowView.Transfer fund = escrow.transfers().get(0);
    assertThat(fund.kind()).isEqualTo("fund");
    assertThat(fund.to()).isEqualTo("escrow:asa-1");
    assertThat(fund.at()).isEqualTo(Instant.parse("2026-11-22T10:00:00Z"));
  }

  @Test
  void aPageReadsItsItemsAndItsCursor() throws IOException {
    AgreementPage page =
        AgreementPage.from(
            json(
                "{'items':[{'agreement_id':'asa-2','state':'PROPOSED','version':1,"
                    + "'service_type':'general','client':'did:key:z6Mk','created_at':"
                    + "'2026-11-22T10:00:00Z','updated_at':'2026-11-22T10:00:01Z'}],"
                    + "'next_cursor':null}"));

    assertThat(page.items()).extracting(AgreementPage.Summary::id).containsExactly("asa-2");
    assertThat(page.items().get(0).state()).isEqualTo(State.PROPOSED);
    assertThat(page.nextCursor()).isEmpty();
    assertThatThrownBy(() -> AgreementPage.from(json("{'next_cursor':'c'}")))
        .hasMessageContaining("member 'items' as an array of objects, but it is missing");
  }

  @Test
  void aSummaryReadsEachPartyWithTheDisplayNameTheAgreementGivesIt() throws IOException {
    AgreementPage page =
        AgreementPage.from(
            json(
                "{'items':[{'agreement_id':'asa-3','state':'ACTIVE','version':4,"
                    + "'service_type':'general','client':'did:key:z6MkA',"
                    + "'client_display_name':'Alice <b>&amp;</b>','provider':'did:key:z6MkB',"
                    + "'evaluator':null,'created_at':'2026-11-22T10:00:00Z',"
                    + "'updated_at':'2026-11-22T10:00:01Z'}],'next_cursor':null}"));

    AgreementPage.Summary s = page.items().get(0);
    assertThat(s.client())
        .contains(new AgreementPage.Party("did:key:z6MkA", Optional.of("Alice <b>&amp;</b>")));
    assertThat(s.provider()).contains(new AgreementPage.Party("did:key:z6MkB", Optional.empty()));
    assertThat(s.evaluator()).as("null while no evaluator is named").isEmpty();
  }

  @Test
  void aQueueReadsEachTaskAndNamesWhatATaskLacks() throws IOException {
    ObjectNode queue =
        json(
            "{'tasks':[{'task_id':'tsk-1','service_type':'general',"
                + "'request':{'description':'Explain TLS'},"
                + "'deliverable':{'content':'# TLS','content_hash':'"
                + HASH
                + "','format':'markdown'},'criteria':{},"
                + "'dimensions':['accuracy','timeliness'],'deadline':'2026-11-22T11:00:00Z',"
                + "'created_at':'2026-11-22T10:00:00Z'}]}");

    EvaluatorTask task = EvaluatorTask.listFrom(queue).get(0);

    assertThat(task.taskId()).isEqualTo("tsk-1");
    assertThat(task.description()).isEqualTo("Explain TLS");
    assertThat(task.content()).hasValue("# TLS");
    assertThat(task.contentUrl()).isEmpty();
    assertThat(task.dimensions()).containsExactly("accuracy", "timeliness");
    assertThat(task.deadline()).isEqualTo(Instant.parse("2026-11-22T11:00:00Z"));
    assertThat(EvaluatorTask.listFrom(json("{'tasks':[]}"))).isEmpty();
    assertThatThrownBy(() -> EvaluatorTask.listFrom(json("{'tasks':[{'task_id':'tsk-1'}]}")))
        .hasMessageContaining(
            "an evaluator task needs member 'request' as an object, but it is missing");
  }
}
