package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.lifecycle.Event;
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
  void aDisputedStatusReadsItsJudgeDeliveryDisputeAndRuling() throws IOException {
    AgreementStatus status =
        AgreementStatus.from(
            json(
                "{'agreement_id':'asa-1','state':'CLOSED','version':9,'agreement_hash':'"
                    + HASH
                    + "','allowed_actions':[],'signatures':{'client':true,'provider':true},"
                    + "'judged_by':{'builtin':false,'because':'the terms name an evaluator'},"
                    + "'activated_at':'2026-11-22T09:00:00Z',"
                    + "'deadlines':{'challenge_window_closes_at':'2026-11-22T12:00:00Z',"
                    + "'challenge_window_open':true},"
                    + "'deliverable':{'delivered_at':'2026-11-22T09:30:00Z','content_hash':'"
                    + HASH
                    + "','size_bytes':412,'format':'markdown'},"
                    + "'verification':{'verification_id':'ver-1','verified_at':"
                    + "'2026-11-22T10:00:00Z','result':'FAIL','payment_release_percent':0},"
                    + "'dispute':{'party':'provider','filed_at':'2026-11-22T10:30:00Z',"
                    + "'reason_code':'evaluator_error'},"
                    + "'ruling':{'release_percent':95,'ruled_by':'arbiter',"
                    + "'ruled_at':'2026-11-22T11:00:00Z','reason':null},"
                    + "'payment':{'status':'settled'}}"));

    assertThat(status.judgedBy())
        .hasValue(new AgreementStatus.JudgedBy(false, "the terms name an evaluator"));
    assertThat(status.activatedAt()).hasValue(Instant.parse("2026-11-22T09:00:00Z"));
    assertThat(status.challengeWindowOpen()).isTrue();
    AgreementStatus.Delivery delivery = status.delivery().orElseThrow();
    assertThat(delivery.deliveredAt()).isEqualTo(Instant.parse("2026-11-22T09:30:00Z"));
    assertThat(delivery.sizeBytes()).hasValue(412L);
    assertThat(delivery.format()).hasValue("markdown");
    assertThat(status.verdict().orElseThrow().result()).isEqualTo("FAIL");
    assertThat(status.verdict().orElseThrow().passed()).isFalse();
    assertThat(status.verdict().orElseThrow().composite()).isEmpty();
    // An older dispute names its filer "party" rather than "filed_by".
    assertThat(status.dispute().orElseThrow().filedBy()).hasValue("provider");
    assertThat(status.dispute().orElseThrow().reasonCode()).isEqualTo("evaluator_error");
    AgreementStatus.Ruling ruling = status.ruling().orElseThrow();
    assertThat(ruling.releasePercent()).isEqualByComparingTo("95");
    assertThat(ruling.ruledBy()).isEqualTo("arbiter");
    assertThat(ruling.reason()).isEmpty();
    assertThatThrownBy(() ->
            AgreementStatus.from(
                json(
                    "{'agreement_id':'asa-1','state':'DISPUTED','version':9,"
                        + "'agreement_hash':'"
                        + HASH
                        + "','dispute':{'filed_at':'t'},'payment':{'status':'frozen'}}")))
        .hasMessageContaining("the dispute of an agreement status needs member 'reason_code'");
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
  void aResultReadsItsShadowsGatesEvaluatorAndTrail() throws IOException {
    VerificationView result =
        VerificationView.from(
            json(
                "{'verification_id':'ver-2','evaluator':{'type':'agent_as_judge','model':'m-1'},"
                    + "'dimensions':[{'name':'accuracy','score':88,'slo_target':85,'slo_met':true,"
                    + "'evidence':'ok','shadow_metric':{'name':'hallucination_rate','value':3.2,"
                    + "'slo_target':5,'slo_met':true}},"
                    + "{'name':'length','score':50,'slo_target':[10,20],'slo_met':false,"
                    + "'shadow_metric':{'name':'verbosity','value':null,'slo_target':null,"
                    + "'slo_met':null}},"
                    + "{'name':'timeliness','score':100,'slo_target':true,'slo_met':true}],"
                    + "'quality_gates':[{'condition':'accuracy_gte_60','passed':false}],"
                    + "'composite':{'score':70,'threshold':75,'passed':false},"
                    + "'determination':{'result':'FAIL','payment_release_percent':0},"
                    + "'evidence_trail':{'deliverable_hash':'"
                    + HASH
                    + "','evaluation_duration_ms':1200,'evaluation_cost_usd':0.0125}}"));

    assertThat(result.result()).isEqualTo("FAIL");
    assertThat(result.evaluator())
        .hasValue(new VerificationView.Evaluator("agent_as_judge", Optional.of("m-1")));
    VerificationView.Dimension accuracy = result.dimensions().get(0);
    assertThat(accuracy.sloTarget())
        .hasValue(new VerificationView.Target.Threshold(new BigDecimal("85")));
    VerificationView.Shadow shadow = accuracy.shadow().orElseThrow();
    assertThat(shadow.value()).hasValue(new BigDecimal("3.2"));
    assertThat(shadow.sloMet()).hasValue(true);
    VerificationView.Dimension length = result.dimensions().get(1);
    assertThat(length.sloTarget())
        .hasValue(new VerificationView.Target.Range(new BigDecimal("10"), new BigDecimal("20")));
    assertThat(length.evidence()).isEmpty();
    assertThat(length.shadow().orElseThrow().value()).isEmpty();
    assertThat(length.shadow().orElseThrow().sloTarget()).isEmpty();
    assertThat(length.shadow().orElseThrow().sloMet()).isEmpty();
    assertThat(result.dimensions().get(2).sloTarget())
        .hasValue(new VerificationView.Target.Flag(true));
    assertThat(result.dimensions().get(2).shadow()).isEmpty();
    assertThat(result.gates())
        .containsExactly(new VerificationView.Gate("accuracy_gte_60", false, ""));
    VerificationView.EvidenceTrail trail = result.evidenceTrail().orElseThrow();
    assertThat(trail.evaluationDurationMs()).hasValue(1200L);
    assertThat(trail.evaluationCostUsd()).hasValue(new BigDecimal("0.0125"));
  }

  @Test
  void aRunningJobReadsItsProgress() throws IOException {
    VerificationJob job =
        VerificationJob.from(
            json(
                "{'verification_id':'ver-9','status':'running',"
                    + "'progress':{'stage':'judging','done':1,'total':2,'percent':50}}"));

    assertThat(job.verificationId()).isEqualTo("ver-9");
    assertThat(job.status()).isEqualTo("running");
    assertThat(job.progress()).isEqualTo(new VerificationJob.Progress("judging", 1, 2, 50));
    assertThatThrownBy(
            () -> VerificationJob.from(json("{'verification_id':'ver-9','status':'running'}")))
        .hasMessageContaining("a verification job needs member 'progress' as an object");
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
  void anX402EscrowReadsThePaymentRequirementsAsTheServerNamesThem() throws IOException {
    String escrow =
        "{'agreement_id':'asa-1','state':'ACTIVE','binding':'x402','enabled':true,"
            + "'amount':'10.00','currency':'USDC','status':'unfunded','balances':{},"
            + "'transfers':[],'messages':[]%s}";
    EscrowView x402 =
        EscrowView.from(
            json(
                escrow.formatted(
                    ",'x402_requirements':{'scheme':'upto','network':'eip155:84532',"
                        + "'amount':'10000000','asset':'0x036C','payTo':'0x2096',"
                        + "'maxTimeoutSeconds':259500,'extra':{'assetTransferMethod':'permit2'}},"
                        + "'x402_payment_required':{'x402Version':2}")));

    EscrowView.PaymentRequirements offered = x402.x402Requirements().orElseThrow();
    assertThat(offered.scheme()).isEqualTo("upto");
    assertThat(offered.amount()).isEqualTo("10000000");
    assertThat(offered.payTo()).isEqualTo("0x2096");
    assertThat(offered.maxTimeoutSeconds()).isEqualTo(259500);
    assertThat(x402.json().at("/x402_requirements/extra/assetTransferMethod").asText())
        .isEqualTo("permit2");
    assertThat(EscrowView.from(json(escrow.formatted(""))).x402Requirements())
        .as("a binding that offers none")
        .isEmpty();
    assertThatThrownBy(
            () -> EscrowView.from(json(escrow.formatted(",'x402_requirements':{'scheme':'upto'}"))))
        .hasMessageContaining("the x402 requirements of an escrow answer needs member 'network'");
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
  void aPageItemReadsItsPaymentWhenTheTermsNameOne() throws IOException {
    AgreementPage page =
        AgreementPage.from(
            json(
                "{'items':[{'agreement_id':'asa-2','state':'ACTIVE','version':2,"
                    + "'service_type':'general','created_at':'2026-11-22T10:00:00Z',"
                    + "'updated_at':'2026-11-22T10:00:01Z','amount':'10.50','currency':'EUR'},"
                    + "{'agreement_id':'asa-3','state':'PROPOSED','version':1,"
                    + "'service_type':'general','created_at':'2026-11-22T10:00:00Z',"
                    + "'updated_at':'2026-11-22T10:00:00Z','amount':null,'currency':null}],"
                    + "'next_cursor':'c2'}"));

    assertThat(page.items().get(0).amount()).hasValue(new BigDecimal("10.50"));
    assertThat(page.items().get(0).currency()).hasValue("EUR");
    assertThat(page.items().get(1).amount()).isEmpty();
    assertThat(page.items().get(1).currency()).isEmpty();
    assertThat(page.nextCursor()).hasValue("c2");
  }

  @Test
  void anEscrowReadsItsCollateralMessagesAndBalancesInTheServersOrder() throws IOException {
    EscrowView escrow =
        EscrowView.from(
            json(
                "{'agreement_id':'asa-1','state':'CLOSED','binding':'http_callback',"
                    + "'enabled':true,'status':'settled','balances':{'USD':'0.00','EUR':'1.00',"
                    + "'CHF':'2.00'},'transfers':[],"
                    + "'collateral':{'amount':'3.00','currency':'USD','status':'slashed',"
                    + "'slashed':'1.20','returned':'1.80','trigger':'verification_failure'},"
                    + "'messages':[{'webhook_id':'msg_1','kind':'escrow.release',"
                    + "'destination':'https://pay.example/hook','status':'pending','attempts':2,"
                    + "'next_attempt_at':'2026-11-22T10:05:00Z','last_error':'HTTP 503'}]}"));

    assertThat(escrow.state()).isEqualTo(State.CLOSED);
    assertThat(escrow.balances().keySet()).containsExactly("USD", "EUR", "CHF");
    EscrowView.Collateral collateral = escrow.collateral().orElseThrow();
    assertThat(collateral.status()).isEqualTo("slashed");
    assertThat(collateral.slashed()).hasValue(new BigDecimal("1.20"));
    assertThat(collateral.trigger()).hasValue("verification_failure");
    EscrowView.Message message = escrow.messages().get(0);
    assertThat(message.attempts()).isEqualTo(2);
    assertThat(message.nextAttemptAt()).hasValue(Instant.parse("2026-11-22T10:05:00Z"));
    assertThat(message.lastError()).hasValue("HTTP 503");
    assertThat(message.deliveredAt()).isEmpty();
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
    assertThat(task.createdAt()).isEqualTo(Instant.parse("2026-11-22T10:00:00Z"));
    assertThat(task.contentHash()).hasValue(HASH);
    assertThatThrownBy(() -> EvaluatorTask.listFrom(json("{'tasks':[{'task_id':'tsk-1'}]}")))
        .hasMessageContaining(
            "an evaluator task needs member 'request' as an object, but it is missing");
  }

  @Test
  void aReceiptReadsWhenTheAnswerWasReceived() throws IOException {
    TaskReceipt receipt =
        TaskReceipt.from(
            json("{'task_id':'tsk-1','status':'received','received_at':'2026-11-22T10:30:00Z'}"));

    assertThat(receipt.taskId()).isEqualTo("tsk-1");
    assertThat(receipt.status()).isEqualTo("received");
    assertThat(receipt.receivedAt()).isEqualTo(Instant.parse("2026-11-22T10:30:00Z"));
    assertThatThrownBy(() -> TaskReceipt.from(json("{'task_id':'tsk-1','status':'received'}")))
        .hasMessageContaining("a task's acknowledgement needs member 'received_at'");
  }

  @Test
  void anEventLogReadsItsEntriesAndChecksItsChainHere() throws IOException {
    Event first =
        Event.append(
            null,
            "asa-1",
            "agreement.created",
            json("{'role':'client','authenticated':true}"),
            Instant.parse("2026-11-22T10:00:00Z"),
            Json.object());
    Event second =
        Event.append(
            first,
            "asa-1",
            "agreement.signed",
            json("{'role':'provider','authenticated':false}"),
            Instant.parse("2026-11-22T10:01:00Z"),
            Json.object());
    ObjectNode answer = Json.object().put("agreement_id", "asa-1");
    answer.putArray("events").add(first.toJson()).add(second.toJson());

    EventLog log = EventLog.from(answer);

    assertThat(log.events()).extracting(EventLog.Entry::seq).containsExactly(1L, 2L);
    EventLog.Entry signed = log.events().get(1);
    assertThat(signed.actorRole()).isEqualTo("provider");
    assertThat(signed.actorAuthenticated()).isFalse();
    assertThat(signed.at()).isEqualTo("2026-11-22T10:01:00Z");
    assertThat(signed.hash()).isEqualTo(second.hash());
    assertThat(log.firstBreak()).isEmpty();

    ((ObjectNode) answer.path("events").get(1)).put("type", "agreement.rejected");
    assertThat(EventLog.from(answer).firstBreak())
        .hasValue("event 2 was altered: its digest does not match its content");
    ((ObjectNode) answer.path("events").get(1)).put("at", "yesterday");
    EventLog unreadable = EventLog.from(answer);
    assertThat(unreadable.events().get(1).at()).isEqualTo("yesterday");
    assertThat(unreadable.firstBreak().orElseThrow()).startsWith("event 2 is unreadable");
  }
}
