package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the commands that read the server's registry, reference and admin answers print, byte for
 * byte, from answers shaped as the server writes them (a scripted stand-in serves them, so every
 * branch of a summary is reached with fixed ids, keys and times). {@code --json} prints the answer
 * as received.
 */
class ServerAnswersRenderingTest {

  record Result(int status, String out, String err) {}

  /** A key fixed by its seed, so that it can be written into the expected text. */
  private static final Ed25519PrivateKey JUDGE = Ed25519PrivateKey.fromSeed(seed(7));

  private static final String JUDGE_KEY = JUDGE.publicKey().toBase64Url();
  private static final String SERVER_KEY =
      Ed25519PrivateKey.fromSeed(seed(9)).publicKey().toBase64Url();

  @TempDir Path dir;
  private HttpServer server;
  // Written by the test, read by the stand-in's thread.
  private final Map<String, String> answers = new ConcurrentHashMap<>();
  private final Map<String, List<String>> sequences = new ConcurrentHashMap<>();
  private String keyFile;

  private static byte[] seed(int b) {
    byte[] seed = new byte[32];
    java.util.Arrays.fill(seed, (byte) b);
    return seed;
  }

  @BeforeEach
  void start() throws IOException {
    keyFile = dir.resolve("judge.jwk").toString();
    KeyFile.write(Path.of(keyFile), JUDGE);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  /** Answers {@code METHOD /path?query} with the answer scripted for it, or a 404 problem. */
  private void answer(HttpExchange ex) throws IOException {
    String query = ex.getRequestURI().getRawQuery();
    String route =
        ex.getRequestMethod()
            + " "
            + ex.getRequestURI().getRawPath()
            + (query == null ? "" : "?" + query);
    ex.getRequestBody().readAllBytes();
    String body;
    int status = 200;
    List<String> sequence = sequences.get(route);
    if (sequence != null && !sequence.isEmpty()) {
      body = sequence.size() > 1 ? sequence.remove(0) : sequence.get(0);
    } else if (answers.containsKey(route)) {
      body = answers.get(route);
    } else {
      status = 404;
      body =
          "{\"type\":\"not-found\",\"title\":\"Not found\",\"status\":404,\"detail\":\""
              + route
              + "\"}";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders()
        .add("Content-Type", status == 200 ? "application/json" : "application/problem+json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private void script(String route, String answer) {
    answers.put(route, answer.replace('\'', '"'));
  }

  private void scriptSequence(String route, String... answers) {
    List<String> list = Collections.synchronizedList(new ArrayList<>());
    for (String a : answers) {
      list.add(a.replace('\'', '"'));
    }
    sequences.put(route, list);
  }

  private Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(Map.of("ASA_SERVER", "http://127.0.0.1:" + server.getAddress().getPort()))
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private String asa(String... args) {
    Result r = run(args);
    assertThat(r.status())
        .as("asa %s\nstdout: %s\nstderr: %s", String.join(" ", args), r.out(), r.err())
        .isZero();
    return r.out();
  }

  /** With {@code --json}, the answer exactly as the server gave it. */
  private void printsTheAnswerAsJson(String route, String... args) throws Exception {
    String[] withJson = java.util.Arrays.copyOf(args, args.length + 1);
    withJson[args.length] = "--json";
    JsonNode printed = Json.parse(asa(withJson));
    JsonNode given =
        Json.parse(
            sequences.containsKey(route)
                ? sequences.get(route).get(sequences.get(route).size() - 1)
                : answers.get(route));
    assertThat(printed).as(route).isEqualTo(given);
  }

  // ---- templates ------------------------------------------------------------------------------

  private static final String GENERAL =
      """
      {'type':'general','version':'1.0.0','title':'General task',
       'description':'Any task without a more specific template.',
       'defaults':{'asa_version':'1.0.0',
        'service':{'type':'general','deliverable_format':'markdown'},
        'quality_criteria':{'dimensions':[
          {'name':'accuracy','weight':0.30,'metric':'percentage','slo':{'operator':'gte','value':80},
           'shadow_metric':'hallucination_rate','shadow_slo':{'operator':'lte','value':5}},
          {'name':'relevance','weight':0.45,'metric':'percentage',
           'slo':{'operator':'between','value':[60,95.50]}},
          {'name':'timeliness','weight':0.25,'metric':'boolean','slo':{'operator':'eq','value':true}}],
         'composite_threshold':70.0,'composite_method':'weighted_average',
         'quality_gates':[{'condition':'accuracy_gte_60','type':'threshold'}]},
        'verification':{'strategy':'optimistic','challenge_window_seconds':7200},
        'escrow':{'payment':{'graduated_release':{'enabled':true,'mode':'tiers','tiers':[
          {'composite_score_gte':90,'release_percent':100},
          {'composite_score_gte':60.5,'release_percent':50.0},
          {'composite_score_lt':60.5,'release_percent':0}]}}}}}\
      """;

  private static final String BARE =
      """
      {'type':'bare','version':'1.0.0','title':'Bare','description':'Criteria without dimensions.',
       'defaults':{'quality_criteria':{'composite_threshold':65}}}\
      """;

  @Test
  void templatesListEachDimensionAndOneTemplateInDetail() throws Exception {
    script("GET /templates", "{'templates':[" + GENERAL + "," + BARE + "]}");
    script("GET /templates/general", GENERAL);
    script("GET /templates/bare", BARE);

    String table =
        """
        TYPE     TITLE         DIMENSION   WEIGHT  SLO                   THRESHOLD
        general  General task  accuracy    0.3     >= 80                 70
                               relevance   0.45    between 60 and 95.50
                               timeliness  0.25    = true
        """;
    assertThat(asa("templates"))
        .isEqualTo(table + "bare     Bare                                                    65\n");
    assertThat(asa("templates", "general"))
        .isEqualTo(
            table
                + """

                description    Any task without a more specific template.
                deliverable    markdown
                composite      weighted_average, pass at 70
                gate           accuracy_gte_60 (threshold)
                shadow metric  accuracy: hallucination_rate <= 5
                verification   optimistic, challenge window 7200 s
                release        composite >= 90: 100%
                release        composite >= 60.5: 50%
                release        composite < 60.5: 0%
                """);
    assertThat(asa("templates", "bare"))
        .isEqualTo(
            """
            TYPE  TITLE  DIMENSION  WEIGHT  SLO  THRESHOLD
            bare  Bare                           65

            description  Criteria without dimensions.
            deliverable  -
            composite    weighted_average, pass at 65
            """);
    printsTheAnswerAsJson("GET /templates", "templates");
    printsTheAnswerAsJson("GET /templates/general", "templates", "general");
  }

  // ---- market ---------------------------------------------------------------------------------

  @Test
  void theMarketShowsEachMedianOrWhyThereIsNone() throws Exception {
    script(
        "GET /market/general",
        """
        {'service_type':'general','min_sample':3,'medians':[
          {'median_price':'10','currency':'USD','source':'closed_agreements','sample':4},
          {'median_price':'9.50','currency':'EUR','source':'closed_agreements','sample':3}]}\
        """);
    script(
        "GET /market/rare",
        """
        {'service_type':'rare','min_sample':3,'medians':[],
         'note':'fewer than 3 distinct client-provider pairs have closed agreements of this type'}\
        """);

    assertThat(asa("market", "general"))
        .isEqualTo(
            """
            market for general (a median needs 3 distinct client-provider pairs)
            CURRENCY  MEDIAN  SAMPLE  SOURCE
            USD       10      4       closed_agreements
            EUR       9.50    3       closed_agreements
            """);
    assertThat(asa("market", "rare"))
        .isEqualTo(
            """
            market for rare (a median needs 3 distinct client-provider pairs)
            fewer than 3 distinct client-provider pairs have closed agreements of this type
            """);
    printsTheAnswerAsJson("GET /market/general", "market", "general");
  }

  // ---- reputation -----------------------------------------------------------------------------

  @Test
  void aReputationShowsSignalsForeignSignalsAndCombinedFigures() throws Exception {
    String signal =
        """
        {'signal_type':'arp','signal_id':'%s','source':'asa:server','subject':{'scheme':'api_key',
         'value':'agent-7','key':'%s'},'role':'%s','value':%s,'confidence':%s,'window':'90d',
         'sample_size':%s,'timestamp':'2026-03-26T10:00:00Z',
         'verification':{'method':'ed25519-jcs','proof':'AAAA','key':'%s'}}\
        """;
    script(
        "GET /reputation?scheme=api_key&value=agent-7",
        "{'identity':{'scheme':'api_key','value':'agent-7'},'verification_key':'"
            + JUDGE_KEY
            + "','signals':["
            + signal.formatted(
                "asa:verification_pass_rate", JUDGE_KEY, "provider", "0.75", "0.8", "4", SERVER_KEY)
            + ","
            + signal.formatted(
                "asa:composite_score:mean", JUDGE_KEY, "provider", "81.25", "0.8", "4", SERVER_KEY)
            + "],'foreign_signals':["
            + signal.formatted(
                "asa:verification_pass_rate", JUDGE_KEY, "provider", "1", "0.5", "2", JUDGE_KEY)
            + "],'combined':[{'role':'provider','signal_id':'asa:verification_pass_rate',"
            + "'value':0.8333,'sample_size':6,'sources':['local','"
            + JUDGE_KEY
            + "']}],'issuer':{'source':'asa:server','key':'"
            + SERVER_KEY
            + "','method':'ed25519-jcs'},'window':'90d','computed_at':'2026-03-26T10:00:00Z'}");
    script(
        "GET /reputation?scheme=api_key&value=nobody",
        "{'identity':{'scheme':'api_key','value':'nobody'},'signals':[],'foreign_signals':[],"
            + "'combined':[],'issuer':{'source':'asa:server','key':'"
            + SERVER_KEY
            + "','method':'ed25519-jcs'},'window':'90d','computed_at':'2026-03-26T10:00:00Z'}");

    assertThat(asa("reputation", "api_key:agent-7"))
        .isEqualTo(
            """
            reputation of api_key:agent-7 (key %s), window 90d
            ROLE      SIGNAL                      VALUE  SAMPLE  CONFIDENCE
            provider  asa:verification_pass_rate  0.75   4       0.8
            provider  asa:composite_score:mean    81.25  4       0.8
            1 signal(s) from trusted issuers; combined figures:
            ROLE      SIGNAL                      VALUE   SAMPLE  SOURCES
            provider  asa:verification_pass_rate  0.8333  6       2
            signed by %s
            """
                .formatted(JUDGE_KEY, SERVER_KEY));
    assertThat(asa("reputation", "api_key:nobody"))
        .isEqualTo(
            """
            reputation of api_key:nobody, window 90d
            no history on this server
            signed by %s
            """
                .formatted(SERVER_KEY));
    printsTheAnswerAsJson(
        "GET /reputation?scheme=api_key&value=agent-7", "reputation", "api_key:agent-7");
  }

  // ---- negotiation ----------------------------------------------------------------------------

  @Test
  void aTranscriptShowsEachRoundWithItsChangesFlagsAndReasons() throws Exception {
    String hash = "sha256:" + "ab".repeat(32);
    script(
        "GET /agreements/asa-1/negotiation",
        """
        {'agreement_id':'asa-1','rounds':[
          {'party':'provider','action':'counter','round':1,'negotiation_id':'neg-1',
           'rationale_code':'scope_too_broad','changes':[
             {'path':'escrow.payment.amount','before':'10.00','after':'12.00'},
             {'path':'service.constraints.max_tokens','before':null,'after':30000}],
           'price_note':'12.00 USD is 1.2 times the market median','price_flag':{'amount':'12.00',
           'median':'10','source':'closed_agreements','ratio':'1.2000'},'agreement_hash':'%s',
           'state':'NEGOTIATING','at':'2026-03-26T10:00:00Z','event':'negotiated'},
          {'party':'client','action':'counter','round':2,'negotiation_id':'neg-1',
           'rationale_code':'price_too_high','changes':[],'price_note':'','agreement_hash':'%s',
           'state':'NEGOTIATING','at':'2026-03-26T10:01:00Z','event':'negotiated'},
          {'party':'provider','action':'accept','round':3,'negotiation_id':'neg-1',
           'rationale_code':'acceptable','agreement_hash':'%s','state':'NEGOTIATING',
           'at':'2026-03-26T10:02:00Z','event':'accepted'},
          {'party':'client','action':'reject','round':4,'negotiation_id':'neg-1',
           'rationale_code':'other','reason':'the client rejected the agreement','state':'REJECTED',
           'at':'2026-03-26T10:03:00Z','event':'rejected'},
          {'reason':'negotiation timed out: no message for 3600 s','negotiation_id':'neg-1',
           'round':5,'state':'REJECTED','at':'2026-03-26T11:03:00Z','event':'rejected'}],
         'state':'REJECTED','negotiation':{'negotiation_id':'neg-1','round':5}}\
        """
            .formatted(hash, hash, hash));
    script(
        "GET /agreements/asa-2/negotiation",
        "{'agreement_id':'asa-2','rounds':[],'state':'PROPOSED'}");

    assertThat(asa("agreements", "negotiation", "asa-1"))
        .isEqualTo(
            """
            negotiation of asa-1; state REJECTED

            round 1, 2026-03-26T10:00:00Z: provider proposed 2 change(s) (scope_too_broad)
              TERM                            BEFORE   AFTER
              escrow.payment.amount           "10.00"  "12.00"
              service.constraints.max_tokens  -        30000
              price: 12.00 USD is 1.2 times the market median
              price flag: {"amount":"12.00","median":"10","source":"closed_agreements","ratio":"1.2000"}
              agreement_hash %s

            round 2, 2026-03-26T10:01:00Z: client proposed 0 change(s) (price_too_high)
              agreement_hash %s

            round 3, 2026-03-26T10:02:00Z: provider accepted the terms (acceptable)
              agreement_hash %s

            round 4, 2026-03-26T10:03:00Z: client rejected the agreement (other)
              reason: the client rejected the agreement

            round 5, 2026-03-26T11:03:00Z: the server rejected
              reason: negotiation timed out: no message for 3600 s
            """
                .formatted(hash, hash, hash));
    assertThat(asa("agreements", "negotiation", "asa-2"))
        .isEqualTo(
            """
            negotiation of asa-2; state PROPOSED
            no negotiation yet: the terms are as proposed
            """);
    printsTheAnswerAsJson(
        "GET /agreements/asa-1/negotiation", "agreements", "negotiation", "asa-1");
  }

  // ---- the evaluator registry -----------------------------------------------------------------

  private static String evaluator(String key, String name, String extra, String record) {
    return ("{'key':'%s','identity':{'scheme':'api_key','value':'%s'},'display_name':'%s',"
            + "'service_types':['research','code_generation'],'domains':[]%s,"
            + "'registered_at':'2026-03-26T10:00:00Z','track_record':%s}")
        .formatted(
            key, name.toLowerCase(java.util.Locale.ROOT).replace(' ', '-'), name, extra, record);
  }

  @Test
  void theRegistryListsShowsAndRulesOnEvaluators() throws Exception {
    String other = Ed25519PrivateKey.fromSeed(seed(8)).publicKey().toBase64Url();
    String full =
        evaluator(
            JUDGE_KEY,
            "Judge Seven",
            ",'organization':'Impartial Ltd','model':'judge-large-2','price_usd':0.30,"
                + "'standing':{'status':'active'},'updated_at':'2026-03-26T11:00:00Z',"
                + "'track_record_as_of':'2026-03-26T11:00:00Z','qualified':true,'history':[]",
            "{'evaluations':12,'canary_tasks':20,'canary_passes':19,'canary_pass_rate':0.95,"
                + "'calibration_deviation':4.50,'calibration':{},"
                + "'consecutive_by_provider':{'"
                + other
                + "':2,'bob':1}}");
    String fresh =
        evaluator(
            JUDGE_KEY,
            "Judge Seven",
            ",'standing':{'status':'active'},'track_record_as_of':null,'qualified':false,"
                + "'why':['no canary task passed yet','fewer than 5 evaluations'],'history':[]",
            "{'evaluations':0,'canary_tasks':0,'canary_passes':0,'canary_pass_rate':null,"
                + "'calibration_deviation':null,'calibration':{},'consecutive_by_provider':{}}");
    String suspended =
        evaluator(
            other,
            "Judge Eight",
            ",'standing':{'status':'suspended','note':'colluded'},'track_record_as_of':null,"
                + "'qualified':false,'why':['suspended: colluded']",
            "{'evaluations':3,'canary_tasks':2,'canary_passes':1,'canary_pass_rate':0.5,"
                + "'calibration_deviation':null}");
    script("POST /evaluators", fresh);
    script("GET /evaluators/" + JUDGE_KEY, full);
    script("GET /evaluators/" + other, suspended);
    script("POST /evaluators/" + other + "/suspend", suspended);
    script("POST /evaluators/" + JUDGE_KEY + "/reinstate", full);
    script(
        "GET /evaluators?service_type=research",
        "{'evaluators':[" + full + "," + suspended + "],'next_cursor':'" + "c".repeat(43) + "'}");
    script("GET /evaluators?service_type=translation", "{'evaluators':[]}");

    assertThat(
            asa(
                "evaluators",
                "register",
                "--key",
                keyFile,
                "--identity",
                "judge-seven",
                "--name",
                "Judge Seven",
                "--service-type",
                "research"))
        .isEqualTo(
            """
            key            %s
            identity       api_key:judge-seven
            name           Judge Seven
            service types  research, code_generation
            standing       active
            evaluations    0
            canary tasks   none yet
            deviation      none yet
            streaks        (none)
            qualified      no
              - no canary task passed yet
              - fewer than 5 evaluations
            """
                .formatted(JUDGE_KEY));
    String shownInFull =
        """
        key            %s
        identity       api_key:judge-seven
        name           Judge Seven
        organization   Impartial Ltd
        service types  research, code_generation
        model          judge-large-2
        price          0.3 USD per evaluation
        standing       active
        evaluations    12
        canary tasks   19 of 20 passed (95%%)
        deviation      4.5 points
        streaks        2 in a row for %s, 1 in a row for bob
        qualified      yes
        """
            .formatted(JUDGE_KEY, other);
    String shownToAnyone =
        """
        key            %s
        identity       api_key:judge-eight
        name           Judge Eight
        service types  research, code_generation
        standing       suspended (colluded)
        evaluations    3
        canary tasks   1 of 2 passed (50%%)
        deviation      none yet
        streaks        (they name providers: shown to the evaluator itself and the operator only)
        qualified      no
          - suspended: colluded
        """
            .formatted(other);
    assertThat(asa("evaluators", "show", "--key", keyFile)).isEqualTo(shownInFull);
    assertThat(asa("evaluators", "show", other, "--key", keyFile)).isEqualTo(shownToAnyone);
    assertThat(asa("evaluators", "suspend", other, "--reason", "colluded", "--key", keyFile))
        .isEqualTo(shownToAnyone);
    assertThat(asa("evaluators", "reinstate", JUDGE_KEY, "--key", keyFile)).isEqualTo(shownInFull);
    assertThat(asa("evaluators", "list", "--service-type", "research", "--key", keyFile))
        .isEqualTo(
            """
            KEY                                          NAME         SERVICE TYPES              EVALS  CANARIES               DEVIATION   STANDING   QUALIFIED
            %s  Judge Seven  research, code_generation  12     19 of 20 passed (95%%)  4.5 points  active     yes
            %s  Judge Eight  research, code_generation  3      1 of 2 passed (50%%)    none yet    suspended  no
            more: --cursor %s
            """
                .formatted(JUDGE_KEY, other, "c".repeat(43)));
    assertThat(asa("evaluators", "list", "--service-type", "translation", "--key", keyFile))
        .isEqualTo("no evaluators\n");
    printsTheAnswerAsJson("GET /evaluators/" + JUDGE_KEY, "evaluators", "show", "--key", keyFile);
    printsTheAnswerAsJson(
        "GET /evaluators?service_type=research",
        "evaluators",
        "list",
        "--service-type",
        "research",
        "--key",
        keyFile);
  }

  // ---- accounts -------------------------------------------------------------------------------

  @Test
  void anAccountShowsItsBalancesAndEntries() throws Exception {
    String other = Ed25519PrivateKey.fromSeed(seed(8)).publicKey().toBase64Url();
    script(
        "GET /accounts/" + JUDGE_KEY,
        ("{'account':'party:%s','balances':{'EUR':'0.00','USD':'-10.00'},'complete':false,"
                + "'entries':[{'transfer_id':'t1','agreement_id':'asa-1','kind':'hold',"
                + "'direction':'debit','amount':'10.00','currency':'USD','at':'2026-03-26T10:00:00Z'},"
                + "{'transfer_id':'t2','agreement_id':'asa-2','kind':'refund','direction':'credit',"
                + "'amount':'5.00','currency':'EUR','at':'2026-03-26T10:05:00Z'}]}")
            .formatted(JUDGE_KEY));
    script(
        "GET /accounts/" + other,
        "{'account':'party:%s','balances':{},'complete':true,'entries':[]}".formatted(other));

    assertThat(asa("accounts", "show", "--key", keyFile))
        .isEqualTo(
            """
            account  party:%s
            balance  0.00 EUR, -10.00 USD

            AGREEMENT  KIND    DIRECTION  AMOUNT     AT
            asa-1      hold    debit      10.00 USD  2026-03-26T10:00:00Z
            asa-2      refund  credit     5.00 EUR   2026-03-26T10:05:00Z
            (only the newest 2 entries are listed, and the balance counts these only)
            """
                .formatted(JUDGE_KEY));
    assertThat(asa("accounts", "show", other, "--key", keyFile))
        .isEqualTo(
            """
            account  party:%s
            balance  none

            no entries
            """
                .formatted(other));
    printsTheAnswerAsJson("GET /accounts/" + JUDGE_KEY, "accounts", "show", "--key", keyFile);
  }

  // ---- admin ----------------------------------------------------------------------------------

  @Test
  void theHealthSummaryShowsStatesAndCounters() throws Exception {
    script(
        "GET /admin/health",
        """
        {'generated_at':'2026-03-26T10:00:00Z','agreements':{'by_state':{
          'PROPOSED':{'count':2,'amounts':{'USD':'20.00'}},
          'CLOSED':{'count':3,'amounts':{'EUR':'7.50','USD':'30.00'}},
          'REJECTED':{'count':0,'amounts':{}}}},
         'ledger':[{'kind':'hold','currency':'USD','amount':'50.00'}],
         'verification_jobs':{'queued':1,'running':2,'finished':7,'mean_ms':12.5,'max_ms':40.1},
         'outbox':{'pending':4,'attempts':{'delivered':9,'retry':1}},
         'timers':{'pending':5,'fired':6,'mean_lag_ms':null,'max_lag_ms':null},
         'requests':{'count':120,'errors_5xx':1}}\
        """);

    assertThat(asa("admin", "health", "--key", keyFile))
        .isEqualTo(
            """
            STATE     AGREEMENTS  AMOUNTS
            PROPOSED  2           20.00 USD
            CLOSED    3           7.50 EUR, 30.00 USD
            REJECTED  0
            verification jobs: 1 queued, 2 running, 7 finished
            outbox: 4 pending; timers: 5 pending, 6 fired
            requests: 120, 1 answered 5xx
            """);
    printsTheAnswerAsJson("GET /admin/health", "admin", "health", "--key", keyFile);
  }

  @Test
  void loadingCanariesSaysWhereFrom() throws Exception {
    Path set = Files.writeString(dir.resolve("canaries.json"), "[]");
    script(
        "PUT /admin/canaries",
        """
        {'canaries':2,'service_types':{'general':1,'research':1},'digest':'sha256:00ff',
         'loaded_at':'2026-03-26T10:00:00Z','loaded_by':'operator','version':3,
         'warnings':['too few canaries of research for anyone to qualify by canaries alone']}\
        """);

    assertThat(asa("admin", "canaries", set.toString(), "--key", keyFile))
        .isEqualTo("loaded the canary set from " + set + "\n");
    printsTheAnswerAsJson(
        "PUT /admin/canaries", "admin", "canaries", set.toString(), "--key", keyFile);
  }

  @Test
  void anArchiveShowsItsProgressThenWhatItHolds() throws Exception {
    String name = "asa-archive-20260326T100000Z.jsonl";
    String writing =
        ("{'name':'%s','status':'writing','closed_before':'2026-01-01T00:00:00Z',"
                + "'started_at':'2026-03-26T10:00:00Z','completed_at':null,'agreements':%d,"
                + "'bytes':%d,'file_sha256':null,'file':'/admin/archives/%s/file'}")
            .replace('\'', '"');
    String complete =
        ("{'name':'%s','status':'complete','closed_before':'2026-01-01T00:00:00Z',"
                + "'started_at':'2026-03-26T10:00:00Z','completed_at':'2026-03-26T10:00:05Z',"
                + "'agreements':12,'bytes':4096,'file_sha256':'sha256:"
                + "cd".repeat(32)
                + "','file':'/admin/archives/%s/file'}")
            .replace('\'', '"');
    script("POST /admin/archive", writing.formatted(name, 0, 0, name));
    scriptSequence(
        "GET /admin/archives/" + name,
        writing.formatted(name, 5, 2048, name),
        complete.formatted(name, name));
    // Not an archive: the file's own check is asa-core's; here only what the command prints.
    script("GET /admin/archives/" + name + "/file", "{}");
    script("GET /.well-known/asa/server-key", "{'scheme':'ed25519','value':'" + SERVER_KEY + "'}");
    String out = dir.resolve("archive.jsonl").toString();

    Result archived =
        run("admin", "archive", "--closed-before", "2026-01-01", "--out", out, "--key", keyFile);
    assertThat(archived.status()).isEqualTo(1);
    assertThat(archived.err())
        .isEqualTo(
            "archive %s: 0 agreements moved\narchive %s: 5 agreements moved\n"
                .formatted(name, name));
    assertThat(archived.out())
        .isEqualTo(
            """
            archived 12 agreements into %s (4096 bytes, sha256:%s)
            %s does NOT verify:
              the last line holds no manifest
            """
                .formatted(out, "cd".repeat(32), out));

    String stopped = name.replace("T10", "T11");
    script("POST /admin/archive", writing.formatted(stopped, 0, 0, stopped));
    script(
        "GET /admin/archives/" + stopped,
        writing
            .formatted(stopped, 3, 1024, stopped)
            .replace("}", ",\"error\":\"the node stopped\"}"));
    Result failed =
        run("admin", "archive", "--closed-before", "2026-01-01", "--out", out, "--key", keyFile);
    assertThat(failed.status()).isEqualTo(4);
    assertThat(failed.err())
        .isEqualTo(
            "archive %s: 0 agreements moved\nasa admin archive: archive %s stopped: the node stopped\n"
                .formatted(stopped, stopped));
  }
}
