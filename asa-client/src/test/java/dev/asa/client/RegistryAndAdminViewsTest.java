package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.VerificationView.Target;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The typed views of the reference, registry and admin answers (templates, market, reputation,
 * negotiation, evaluators, accounts, health, canaries, archives) read them as the server writes
 * them, keep in {@code json()} what they do not name, and refuse half of one, naming the member.
 */
class RegistryAndAdminViewsTest {

  private static ObjectNode json(String text) throws IOException {
    return (ObjectNode) Json.parse(text.replace('\'', '"'));
  }

  @Test
  void aTemplateReadsItsQualityTermsAndKeepsItsDefaults() throws IOException {
    ObjectNode answer =
        json(
            """
            {'type':'general','version':'1.0.0','title':'General task','description':'Any task.',
             'defaults':{'service':{'type':'general','deliverable_format':'markdown'},
              'quality_criteria':{'dimensions':[
                {'name':'accuracy','weight':0.30,'metric':'percentage',
                 'slo':{'operator':'gte','value':80},
                 'shadow_metric':'hallucination_rate','shadow_slo':{'operator':'lte','value':5}},
                {'name':'relevance','weight':0.45,'slo':{'operator':'between','value':[60,95.5]}},
                {'name':'timeliness','weight':0.25,'metric':'boolean',
                 'slo':{'operator':'eq','value':true}}],
               'composite_threshold':70,'composite_method':'weighted_average',
               'quality_gates':[{'condition':'accuracy_gte_60','type':'threshold'}]},
              'verification':{'strategy':'optimistic','challenge_window_seconds':7200},
              'escrow':{'payment':{'graduated_release':{'mode':'tiers','tiers':[
                {'composite_score_gte':90,'release_percent':100},
                {'composite_score_lt':90,'release_percent':0}]}}}},
             'added_later':1}\
            """);

    TemplateView t = TemplateView.from(answer);

    assertThat(t.type()).isEqualTo("general");
    assertThat(t.deliverableFormat()).hasValue("markdown");
    assertThat(t.dimensions())
        .extracting(TemplateView.Dimension::name)
        .containsExactly("accuracy", "relevance", "timeliness");
    TemplateView.Dimension accuracy = t.dimensions().get(0);
    assertThat(accuracy.weight()).hasValue(new BigDecimal("0.30"));
    assertThat(accuracy.slo())
        .hasValue(new TemplateView.Slo("gte", new Target.Threshold(new BigDecimal("80"))));
    assertThat(accuracy.shadow().orElseThrow().name()).isEqualTo("hallucination_rate");
    assertThat(accuracy.shadow().orElseThrow().slo().orElseThrow().operator()).isEqualTo("lte");
    assertThat(t.dimensions().get(1).slo().orElseThrow().target())
        .isEqualTo(new Target.Range(new BigDecimal("60"), new BigDecimal("95.5")));
    assertThat(t.dimensions().get(2).slo().orElseThrow().target()).isEqualTo(new Target.Flag(true));
    assertThat(t.compositeThreshold()).hasValue(new BigDecimal("70"));
    assertThat(t.gates()).containsExactly(new TemplateView.Gate("accuracy_gte_60", "threshold"));
    assertThat(t.verification())
        .hasValue(new TemplateView.Verification("optimistic", Optional.of(7200L)));
    assertThat(t.releaseTiers())
        .containsExactly(
            new TemplateView.Tier(
                Optional.of(new BigDecimal("90")), Optional.empty(), new BigDecimal("100")),
            new TemplateView.Tier(
                Optional.empty(), Optional.of(new BigDecimal("90")), new BigDecimal("0")));
    assertThat(t.defaults().at("/service/type").asText()).isEqualTo("general");
    assertThat(t.json().path("added_later").asInt()).isEqualTo(1);

    t.defaults().put("asa_version", "9");
    assertThat(t.defaults().has("asa_version")).as("a copy each time").isFalse();
    assertThat(
            TemplateView.listFrom(
                Json.object().set("templates", Json.mapper().createArrayNode().add(answer))))
        .containsExactly(t);
  }

  @Test
  void aTemplateWithoutCriteriaHasNoneAndOneWithAnUnreadableSloSaysWhich() throws IOException {
    TemplateView bare =
        TemplateView.from(
            json("{'type':'bare','version':'1','title':'Bare','description':'-','defaults':{}}"));
    assertThat(bare.dimensions()).isEmpty();
    assertThat(bare.compositeThreshold()).isEmpty();
    assertThat(bare.verification()).isEmpty();
    assertThat(bare.releaseTiers()).isEmpty();

    assertThatThrownBy(() ->
            TemplateView.from(
                json(
                    "{'type':'t','version':'1','title':'T','description':'-','defaults':"
                        + "{'quality_criteria':{'dimensions':[{'name':'a',"
                        + "'slo':{'operator':'gte','value':{}}}]}}}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a dimension of a template's slo needs member 'value'")
        .hasMessageContaining("it is {}");
    assertThatThrownBy(() -> TemplateView.from(json("{'type':'t','version':'1','defaults':{}}")))
        .hasMessageContaining("a template needs member 'title' as a string, but it is missing");
    assertThatThrownBy(() -> TemplateView.listFrom(json("{}")))
        .hasMessageContaining("member 'templates' as an array of objects");
  }

  @Test
  void aMarketReadsEachMedianOrTheNoteWhyThereIsNone() throws IOException {
    MarketView market =
        MarketView.from(
            json(
                "{'service_type':'general','min_sample':3,'medians':[{'median_price':'9.50',"
                    + "'currency':'EUR','source':'closed_agreements','sample':3}]}"));

    assertThat(market.minSample()).isEqualTo(3);
    assertThat(market.medians())
        .containsExactly(
            new MarketView.Median("EUR", new BigDecimal("9.50"), 3, "closed_agreements"));
    assertThat(market.note()).isEmpty();

    MarketView none =
        MarketView.from(
            json("{'service_type':'rare','min_sample':3,'medians':[],'note':'too few pairs'}"));
    assertThat(none.medians()).isEmpty();
    assertThat(none.note()).hasValue("too few pairs");
    assertThatThrownBy(() -> MarketView.from(json("{'service_type':'x','min_sample':3}")))
        .hasMessageContaining("a market answer needs member 'medians'");
  }

  @Test
  void aReputationReadsSignalsFiguresAndItsIssuerWithTheirExactDecimals() throws IOException {
    String signal =
        "{'signal_type':'arp','signal_id':'asa:verification_pass_rate','source':'%s',"
            + "'subject':{'scheme':'api_key','value':'agent-7'},'role':'provider','value':%s,"
            + "'confidence':0.8,'window':'90d','sample_size':4,'timestamp':'2026-03-26T10:00:00Z',"
            + "'verification':{'method':'ed25519-jcs','proof':'AAAA','key':'%s'}}";
    ReputationView r =
        ReputationView.from(
            json(
                "{'identity':{'scheme':'api_key','value':'agent-7'},'verification_key':'K',"
                    + "'signals':["
                    + signal.formatted("asa:server", "0.750", "S")
                    + "],'foreign_signals':["
                    + signal.formatted("other", "1", "F")
                    + "],'combined':[{'role':'provider','signal_id':'asa:verification_pass_rate',"
                    + "'value':0.8333,'sample_size':6,'sources':['local','F']}],"
                    + "'issuer':{'source':'asa:server','key':'S','method':'ed25519-jcs'},"
                    + "'window':'90d','computed_at':'2026-03-26T10:00:00Z'}"));

    assertThat(r.identity().scheme()).isEqualTo("api_key");
    assertThat(r.identity().value()).isEqualTo("agent-7");
    assertThat(r.verificationKey()).hasValue("K");
    ReputationView.Signal own = r.signals().get(0);
    assertThat(own.value().toString()).as("as signed, trailing zero kept").isEqualTo("0.750");
    assertThat(own.sampleSize()).isEqualTo(4);
    assertThat(own.signedBy()).isEqualTo("S");
    assertThat(r.foreignSignals().get(0).source()).isEqualTo("other");
    assertThat(r.combined().get(0).sources()).containsExactly("local", "F");
    assertThat(r.issuer().key()).isEqualTo("S");
    assertThat(r.computedAt()).isEqualTo(Instant.parse("2026-03-26T10:00:00Z"));
    assertThatThrownBy(() ->
            ReputationView.from(
                json(
                    "{'identity':{'scheme':'a','value':'b'},'signals':[{'signal_id':'x'}],"
                        + "'issuer':{},'window':'90d','computed_at':'2026-03-26T10:00:00Z'}")))
        .hasMessageContaining("a signal of a reputation answer needs member 'role'");
  }

  @Test
  void aTranscriptReadsEachRoundAndTheServersOwnRejection() throws IOException {
    NegotiationTranscript t =
        NegotiationTranscript.from(
            json(
                """
                {'agreement_id':'asa-1','state':'REJECTED','rounds':[
                  {'party':'provider','action':'counter','round':1,'rationale_code':'scope',
                   'changes':[{'path':'escrow.payment.amount','before':'10.00','after':'12.00'},
                              {'path':'service.constraints.max_tokens','before':null,'after':3}],
                   'price_note':'','price_flag':{'amount':'12.00','median':'10',
                   'source':'closed_agreements','ratio':'1.2000'},'agreement_hash':'sha256:ab',
                   'at':'2026-03-26T10:00:00Z','event':'negotiated'},
                  {'reason':'negotiation timed out','round':2,'at':'2026-03-26T11:00:00Z',
                   'event':'rejected'}],
                 'negotiation':{'round':2}}\
                """));

    assertThat(t.state()).isEqualTo(State.REJECTED);
    NegotiationTranscript.Round counter = t.rounds().get(0);
    assertThat(counter.party()).hasValue("provider");
    assertThat(counter.action()).hasValue("counter");
    assertThat(counter.priceNote()).as("an empty note says nothing").isEmpty();
    assertThat(counter.priceFlag().orElseThrow().ratio().toPlainString()).isEqualTo("1.2000");
    NegotiationTranscript.Change amount = counter.changes().get(0);
    assertThat(amount.before().orElseThrow().asText()).isEqualTo("10.00");
    assertThat(counter.changes().get(1).before()).as("null: the term was not set").isEmpty();
    NegotiationTranscript.Round timeout = t.rounds().get(1);
    assertThat(timeout.party()).as("the server ended it").isEmpty();
    assertThat(timeout.action()).isEmpty();
    assertThat(timeout.reason()).hasValue("negotiation timed out");
    assertThat(t.json().at("/negotiation/round").asInt()).isEqualTo(2);
    assertThatThrownBy(() ->
            NegotiationTranscript.from(
                json("{'agreement_id':'a','state':'PROPOSED','rounds':[{'round':1}]}")))
        .hasMessageContaining("a round of a negotiation transcript needs member 'at'");
  }

  private static final String EVALUATOR =
      """
      {'key':'K','identity':{'scheme':'api_key','value':'judge-7'},'display_name':'Judge Seven',
       'lineage':'coc:judges','service_types':['research'],'price_usd':0.30,'domains':['medicine'],
       'standing':{'status':'suspended','note':'colluded'},'conflicts_of_interest':['B'],
       'registered_at':'2026-03-26T10:00:00Z','updated_at':'2026-03-26T11:00:00Z',
       'track_record':{'evaluations':12,'canary_tasks':20,'canary_passes':19,
        'canary_pass_rate':0.95,'calibration_deviation':null,'calibration':{},
        'consecutive_by_provider':{'P2':2,'P1':1}},
       'track_record_as_of':null,'qualified':false,'why':['suspended: colluded'],'history':[]}\
      """;

  @Test
  void anEvaluatorReadsItsProfileStandingAndRecord() throws IOException {
    EvaluatorView e = EvaluatorView.from(json(EVALUATOR));

    assertThat(e.identity().lineage()).isEqualTo("coc:judges");
    assertThat(e.priceUsd()).hasValue(new BigDecimal("0.30"));
    assertThat(e.standing().suspended()).isTrue();
    assertThat(e.standing().note()).hasValue("colluded");
    assertThat(e.conflictsOfInterest()).containsExactly("B");
    assertThat(e.trackRecord().canaryPassRate()).hasValue(new BigDecimal("0.95"));
    assertThat(e.trackRecord().calibrationDeviation()).as("null: none yet").isEmpty();
    assertThat(e.trackRecord().consecutiveByProvider().orElseThrow().keySet())
        .as("in the server's order")
        .containsExactly("P2", "P1");
    assertThat(e.trackRecordAsOf()).isEmpty();
    assertThat(e.qualified()).isFalse();
    assertThat(e.why()).containsExactly("suspended: colluded");
    assertThat(e.json().has("history")).isTrue();
  }

  @Test
  void anEvaluatorSeenByAnyoneElseHasNoStreaksRatherThanNone() throws IOException {
    ObjectNode answer = json(EVALUATOR);
    ((ObjectNode) answer.path("track_record"))
        .remove(List.of("calibration", "consecutive_by_provider"));
    answer.remove(List.of("conflicts_of_interest", "updated_at"));

    EvaluatorView e = EvaluatorView.from(answer);

    assertThat(e.trackRecord().consecutiveByProvider()).isEmpty();
    assertThat(e.conflictsOfInterest()).isEmpty();
    assertThat(e.updatedAt()).isEmpty();
    EvaluatorPage page =
        EvaluatorPage.from(
            Json.object()
                .<ObjectNode>set("evaluators", Json.mapper().createArrayNode().add(answer)));
    assertThat(page.evaluators()).containsExactly(e);
    assertThat(page.nextCursor()).isEmpty();
    answer.remove("qualified");
    assertThatThrownBy(() -> EvaluatorView.from(answer))
        .hasMessageContaining("an evaluator needs member 'qualified' as true or false");
  }

  @Test
  void anAccountReadsItsBalancesInTheServersOrderAndItsEntries() throws IOException {
    AccountView a =
        AccountView.from(
            json(
                "{'account':'party:K','balances':{'USD':'-10.00','EUR':'0.00'},'complete':false,"
                    + "'entries':[{'transfer_id':'t1','agreement_id':'asa-1','kind':'hold',"
                    + "'direction':'debit','amount':'10.00','currency':'USD',"
                    + "'at':'2026-03-26T10:00:00Z'}]}"));

    assertThat(a.balances())
        .containsExactly(
            Map.entry("USD", new BigDecimal("-10.00")), Map.entry("EUR", new BigDecimal("0.00")));
    assertThat(a.complete()).isFalse();
    assertThat(a.entries().get(0).direction()).isEqualTo("debit");
    assertThatThrownBy(() -> AccountView.from(json("{'account':'a','balances':{'USD':'ten'}}")))
        .hasMessageContaining("an account answer's balances needs member 'USD' as a number");
  }

  @Test
  void theHealthSummaryReadsEveryStateEvenOneThisSdkDoesNotKnow() throws IOException {
    ServerHealth h =
        ServerHealth.from(
            json(
                """
                {'generated_at':'2026-03-26T10:00:00Z','agreements':{'by_state':{
                  'CLOSED':{'count':3,'amounts':{'USD':'30.00'}},
                  'ARCHIVED_LATER':{'count':0,'amounts':{}}}},
                 'ledger':[{'kind':'hold','currency':'USD','amount':'50.00'}],
                 'verification_jobs':{'queued':1,'running':2,'finished':7,'mean_ms':12.5,
                  'max_ms':null},
                 'outbox':{'pending':4,'attempts':{'delivered':9}},
                 'timers':{'pending':5,'fired':6,'mean_lag_ms':null,'max_lag_ms':null},
                 'requests':{'count':120,'errors_5xx':1}}\
                """));

    assertThat(h.byState().keySet()).containsExactly("CLOSED", "ARCHIVED_LATER");
    assertThat(h.byState().get("CLOSED").amounts()).containsEntry("USD", new BigDecimal("30.00"));
    assertThat(h.ledger())
        .containsExactly(new ServerHealth.LedgerTotal("hold", "USD", new BigDecimal("50.00")));
    assertThat(h.verificationJobs().meanMs()).hasValue(new BigDecimal("12.5"));
    assertThat(h.verificationJobs().maxMs()).isEmpty();
    assertThat(h.outbox().attempts()).containsEntry("delivered", 9L);
    assertThat(h.requests().errors5xx()).isEqualTo(1);
    assertThatThrownBy(() -> ServerHealth.from(json("{'generated_at':'2026-03-26T10:00:00Z'}")))
        .hasMessageContaining("a health summary needs member 'agreements' as an object");
  }

  @Test
  void aCanarySetAndAnArchiveReadWhatTheOperatorIsTold() throws IOException {
    CanarySet set =
        CanarySet.from(
            json(
                "{'canaries':2,'service_types':{'general':1,'research':1},'digest':'sha256:00',"
                    + "'loaded_at':'2026-03-26T10:00:00Z','loaded_by':'operator','version':3}"));
    assertThat(set.serviceTypes()).containsEntry("research", 1L);
    assertThat(set.warnings()).isEmpty();

    String archive =
        "{'name':'a.jsonl','status':'%s','closed_before':'2026-01-01T00:00:00Z',"
            + "'started_at':'2026-03-26T10:00:00Z','completed_at':%s,'agreements':12,"
            + "'bytes':4096,'file_sha256':%s,'file':'/admin/archives/a.jsonl/file'%s}";
    ArchiveView writing =
        ArchiveView.from(json(archive.formatted("writing", "null", "null", ",'error':'stopped'")));
    assertThat(writing.complete()).isFalse();
    assertThat(writing.completedAt()).isEmpty();
    assertThat(writing.fileSha256()).isEmpty();
    assertThat(writing.error()).hasValue("stopped");
    ArchiveView complete =
        ArchiveView.from(
            json(archive.formatted("complete", "'2026-03-26T10:00:05Z'", "'sha256:cd'", "")));
    assertThat(complete.complete()).isTrue();
    assertThat(complete.fileSha256()).hasValue("sha256:cd");
    assertThat(complete.error()).isEmpty();
  }
}
