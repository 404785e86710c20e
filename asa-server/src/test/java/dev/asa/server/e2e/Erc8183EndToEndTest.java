package dev.asa.server.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.client.EvaluatorScores;
import dev.asa.client.EvaluatorTask;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.erc8183.Erc8183Settings;
import dev.asa.server.pool.CanaryFile;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * Issue 20's done-when, through HTTP, with a real local chain ({@link LocalChain}: a hardhat node
 * from npm, the project's ERC-8183 contract and a test token): an agreement goes from creation to
 * CLOSED with the provider paid on chain; a failing result refunds the client on chain; an
 * undelivered job is refunded by {@code claimRefund} after the provider timeout; a server stopped
 * between sending a transaction and seeing its receipt resumes without sending it twice; a reorg
 * that drops the settlement makes the server send the same transaction again. In each case the
 * balances on chain match the agreement's escrow view. The attacks a client or provider could try
 * through the fund and deliver routes are refused, each by name.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the chain's clock only moves forward
class Erc8183EndToEndTest {
  private static final BigInteger BUDGET = BigInteger.valueOf(10_000_000); // 10.00 of 6 decimals
  private static final int CONFIRMATIONS = 2;

  @TempDir static Path dataDir;
  @TempDir static Path keys;
  static final MutableClock clock = new MutableClock(Instant.now());
  static LocalChain chain;
  static AsaServer server;
  static Path keyFile;
  static String attestor;
  static Path canaries;

  @BeforeAll
  static void start() throws Exception {
    chain = LocalChain.start();
    Credentials key = Credentials.create(Keys.createEcKeyPair());
    keyFile = keys.resolve("attestor.key");
    Files.writeString(
        keyFile, Numeric.toHexStringWithPrefixZeroPadded(key.getEcKeyPair().getPrivateKey(), 64));
    attestor = key.getAddress();
    chain.fundWithEther(attestor);
    chain.mint(chain.client, BUDGET.multiply(BigInteger.valueOf(100)));
    chain.approve(chain.client, BUDGET.multiply(BigInteger.valueOf(100)));
    // The example asks for canary tasks, which a server offers with a canary set.
    canaries = keys.resolve("canaries.jsonl");
    Files.writeString(
        canaries,
        "{\"id\": \"canary-1\", \"service_type\": \"research_synthesis\","
            + " \"request\": {\"description\": \"Summarise it\"},"
            + " \"deliverable\": {\"content\": \"# Summary\", \"format\": \"markdown\"},"
            + " \"criteria\": {\"dimensions\": [{\"name\": \"accuracy\", \"weight\": 1,"
            + " \"metric\": \"score\", \"slo\": {\"operator\": \"gte\", \"value\": 70}}],"
            + " \"composite_threshold\": 70}, \"known_scores\": {\"accuracy\": 20},"
            + " \"tolerance\": 10}\n");
    server = startServer();
  }

  private static AsaServer startServer() {
    return AsaServer.start(
        ServerConfig.defaults()
            .withPort(0)
            .withDataDir(dataDir)
            .withClock(clock)
            .withOutboxPolling(false) // the test counts what each delivery sends
            .withTimerPolling(false)
            .withOperatorKey(Fixtures.key("operator").publicKey())
            .withRateLimit(10_000, 10_000)
            .withCanaries(readCanaries())
            .withEscrow(
                EscrowConfig.DEFAULTS.withErc8183(
                    Erc8183Settings.of(URI.create(chain.rpc), keyFile)
                        .withConfirmations(CONFIRMATIONS)
                        .withContracts(Set.of(chain.contract)))));
  }

  private static CanaryFile readCanaries() {
    return CanaryFile.read(canaries);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (chain != null) {
      chain.close();
    }
  }

  // --- the done-when, case by case -------------------------------------------------------------

  @Test
  @Order(4)
  void aPassingResultPaysTheProviderOnChainAndTheAgreementCloses() throws Exception {
    Verified v = verifiedAgreement("# Findings\n", 95);
    Parties p = v.parties();
    String id = v.id();
    BigInteger job = v.job();
    BigInteger provider = chain.balance(chain.provider);
    closeAfterChallengeWindow(id, p);

    JsonNode tx = settleOnChain(p, id);
    assertThat(tx.path("call").asText()).isEqualTo("complete");
    assertThat(chain.status(job)).as("Completed").isEqualTo(3);
    assertThat(chain.balance(chain.provider).subtract(provider)).isEqualTo(BUDGET);
    assertMatchesChain(p, id, BUDGET, BigInteger.ZERO);
  }

  @Test
  @Order(5)
  void aFailingResultRefundsTheClientOnChainByReject() throws Exception {
    Verified v = verifiedAgreement("# Too thin\n", 10);
    Parties p = v.parties();
    String id = v.id();
    BigInteger job = v.job();
    BigInteger client = chain.balance(chain.client);
    closeAfterChallengeWindow(id, p);

    JsonNode tx = settleOnChain(p, id);
    assertThat(tx.path("call").asText()).isEqualTo("reject");
    assertThat(chain.status(job)).as("Rejected").isEqualTo(4);
    assertThat(chain.balance(chain.client).subtract(client)).isEqualTo(BUDGET);
    assertMatchesChain(p, id, BigInteger.ZERO, BUDGET);
  }

  @Test
  @Order(9)
  void anUndeliveredJobIsRefundedByClaimRefundAfterTheProviderTimeout() throws Exception {
    Parties p = parties();
    String id = active(p, document());
    BigInteger job = fundedJob(p, id);
    BigInteger client = chain.balance(chain.client);
    // The provider never delivers, and the server is away until the job has expired on chain.
    chain.travel(Duration.ofDays(4).toSeconds());
    clock.advance(Duration.ofSeconds(3601));
    server.fireDueTimers();
    assertThat(p.client.status(id).path("state").asText()).isEqualTo("EXPIRED");

    JsonNode tx = settleOnChain(p, id);
    assertThat(tx.path("call").asText()).isEqualTo("claimRefund");
    assertThat(chain.status(job)).as("Expired").isEqualTo(5);
    assertThat(chain.balance(chain.client).subtract(client)).isEqualTo(BUDGET);
    assertMatchesChain(p, id, BigInteger.ZERO, BUDGET);
  }

  @Test
  @Order(6)
  void aServerStoppedBetweenSendingAndTheReceiptResumesWithoutSendingTwice() throws Exception {
    Verified v = verifiedAgreement("# Findings, again\n", 95);
    Parties p = v.parties();
    String id = v.id();
    BigInteger provider = chain.balance(chain.provider);
    long sentBefore = chain.transactionCount(attestor);
    chain.automine(false);
    try {
      closeAfterChallengeWindow(id, p);
      server.deliverDueMessages(); // signs, stores and sends; the node holds it, unmined
      JsonNode sent = transaction(p, id);
      assertThat(sent.path("status").asText()).isEqualTo("sent");
      assertThat(chain.pending()).isEqualTo(1);

      server.close(); // stopped before it could see a receipt
      clock.advance(Duration.ofMinutes(2)); // any claim on the message has lapsed
      server = startServer();
      server.deliverDueMessages(); // sends the same bytes again: the node already has them
      assertThat(chain.pending()).isEqualTo(1);

      // Stopped again, and this time the node lost the transaction too: as if the server had died
      // after storing it and before sending it. It sends the stored bytes, not a new transaction.
      server.close();
      chain.drop(sent.path("tx_hash").asText());
      assertThat(chain.pending()).isZero();
      clock.advance(Duration.ofMinutes(20));
      server = startServer();
      server.deliverDueMessages();
      assertThat(chain.pending()).isEqualTo(1);
      chain.mine(1);
    } finally {
      chain.automine(true);
    }
    p = parties(); // the restarted server listens on another port
    JsonNode tx = settleOnChain(p, id);
    assertThat(chain.transactionCount(attestor) - sentBefore)
        .as("transactions the attestor had mined")
        .isEqualTo(1);
    assertThat(chain.balance(chain.provider).subtract(provider)).isEqualTo(BUDGET);
    assertThat(tx.path("call").asText()).isEqualTo("complete");
    assertMatchesChain(p, id, BUDGET, BigInteger.ZERO);
  }

  @Test
  @Order(7)
  void aReorgThatDropsTheSettlementSendsTheSameTransactionAgain() throws Exception {
    Verified v = verifiedAgreement("# Findings, reorged\n", 95);
    Parties p = v.parties();
    String id = v.id();
    BigInteger job = v.job();
    BigInteger provider = chain.balance(chain.provider);
    closeAfterChallengeWindow(id, p);
    String beforeMining = chain.snapshot();
    server.deliverDueMessages(); // sent and mined at once: one confirmation of two
    clock.advance(Duration.ofMinutes(20));
    server.deliverDueMessages();
    JsonNode mined = transaction(p, id);
    assertThat(mined.path("status").asText()).isEqualTo("mined");

    chain.revert(beforeMining); // the block holding it is gone
    assertThat(chain.status(job)).as("Submitted again").isEqualTo(2);
    JsonNode tx = settleOnChain(p, id);
    assertThat(tx.path("tx_hash").asText()).isEqualTo(mined.path("tx_hash").asText());
    assertThat(chain.balance(chain.provider).subtract(provider)).isEqualTo(BUDGET);
    assertMatchesChain(p, id, BUDGET, BigInteger.ZERO);
  }

  @Test
  @Order(8)
  void aTransactionStuckForItsFeeIsReplacedWithTheSameNonceAndMinedOnce() throws Exception {
    Verified v = verifiedAgreement("# Findings, stuck for a while\n", 95);
    Parties p = v.parties();
    String id = v.id();
    BigInteger provider = chain.balance(chain.provider);
    long sentBefore = chain.transactionCount(attestor);
    chain.automine(false);
    try {
      closeAfterChallengeWindow(id, p);
      server.deliverDueMessages(); // signed and sent at twice the node's gas price
      JsonNode sent = transaction(p, id);
      // The base fee jumps far past what it offers: blocks leave it out.
      chain.nextBaseFee(chain.gasPrice().multiply(BigInteger.valueOf(100)));
      chain.mine(1);
      assertThat(chain.mined(sent.path("tx_hash").asText())).as("left out").isFalse();
      clock.advance(Duration.ofMinutes(1));
      server.deliverDueMessages(); // not yet stuck: the same transaction is waited for
      assertThat(transaction(p, id).path("tx_hash").asText())
          .isEqualTo(sent.path("tx_hash").asText());

      clock.advance(Duration.ofMinutes(5));
      server.deliverDueMessages(); // replaced: the same nonce and call, a higher fee
      JsonNode replaced = transaction(p, id);
      assertThat(replaced.path("tx_hash").asText()).isNotEqualTo(sent.path("tx_hash").asText());
      assertThat(replaced.path("nonce").asLong()).isEqualTo(sent.path("nonce").asLong());
      assertThat(replaced.path("replaced_hashes").get(0).asText())
          .isEqualTo(sent.path("tx_hash").asText());
      assertThat(chain.pending()).as("the replacement, minable at its fee").isEqualTo(1);
      chain.mine(1);
      assertThat(chain.mined(replaced.path("tx_hash").asText())).isTrue();
      assertThat(chain.mined(sent.path("tx_hash").asText())).isFalse();
    } finally {
      chain.automine(true);
    }
    JsonNode tx = settleOnChain(p, id);
    assertThat(tx.path("replaced_hashes")).hasSize(1);
    assertThat(chain.transactionCount(attestor) - sentBefore)
        .as("transactions the attestor had mined")
        .isEqualTo(1);
    assertThat(chain.balance(chain.provider).subtract(provider)).isEqualTo(BUDGET);
    assertMatchesChain(p, id, BUDGET, BigInteger.ZERO);
  }

  // --- attacks through HTTP --------------------------------------------------------------------

  @Test
  @Order(0)
  void theWhitepaperExampleAsPrintedReleases85PercentOverThreeJobs() throws Exception {
    Parties p = parties();
    // As printed: tiers of 100, 85, 50 and 0 percent, so the budget is split over jobs of 50, 35
    // and 15 percent, each created and funded by the client.
    String id = active(p, whitepaperExample());
    JsonNode toCreate = p.client.escrow(id).at("/erc8183/jobs_to_create");
    assertThat(toCreate).hasSize(3);
    assertThat(toCreate.get(0).path("budget_atomic").asText()).isEqualTo("2500000");
    assertThat(toCreate.get(1).path("budget_atomic").asText()).isEqualTo("1750000");
    assertThat(toCreate.get(2).path("budget_atomic").asText()).isEqualTo("750000");
    assertThat(toCreate.get(1).path("description").asText())
        .isEqualTo("ASA agreement " + id + " job 2 of 3");
    List<BigInteger> jobs = fundedJobs(p, id);
    deliverOnChainAndToServer(p, id, jobs, "# Federated learning privacy guarantees\n");
    // With canary tasks on, the evaluator answers through its work queue, where a canary may
    // wait beside the real task (the evaluator cannot tell them apart; it scores each honestly).
    // 80 on every judged dimension and an on-time delivery make a composite of 82: the 85% tier.
    var queue = p.evaluator.evaluatorQueue();
    for (EvaluatorTask task : queue.tasks()) {
      boolean canary = task.description().equals("Summarise it");
      EvaluatorScores.Builder scores = EvaluatorScores.builder();
      for (String dimension : task.dimensions()) {
        double score = dimension.equals("timeliness") ? 100 : canary ? 20 : 80; // boolean: 100
        scores.score(dimension, score, canary ? "a one-line summary" : "checked");
      }
      queue.answer(task.taskId(), scores.build());
    }
    assertThat(p.client.verification(id).at("/composite/score").decimalValue())
        .isEqualByComparingTo("82");
    BigInteger provider = chain.balance(chain.provider);
    BigInteger client = chain.balance(chain.client);
    closeAfterChallengeWindow(id, p);

    JsonNode view = settleAllOnChain(p, id, 3);
    assertThat(calls(view)).containsExactly("complete", "complete", "reject");
    assertThat(statuses(jobs)).containsExactly(3, 3, 4);
    BigInteger paid = BigInteger.valueOf(4_250_000); // 85% of 5.00 USDC
    assertThat(chain.balance(chain.provider).subtract(provider)).isEqualTo(paid);
    assertThat(chain.balance(chain.client).subtract(client)).isEqualTo(BigInteger.valueOf(750_000));
    assertMatchesChain(p, id, paid, BigInteger.valueOf(750_000));
  }

  @Test
  @Order(2)
  void fundingIsReadFromTheChainAndAJobThatDoesNotMatchTheAgreementIsRefused() throws Exception {
    Parties p = parties();
    String id = active(p, document());
    String description = "ASA agreement " + id;
    Instant expires = now().plus(Duration.ofDays(3));

    BigInteger otherEvaluator =
        chain.createAndFund(
            chain.client, chain.provider, chain.stranger, expires, description, BUDGET);
    BigInteger smallBudget =
        chain.createAndFund(
            chain.client, chain.provider, attestor, expires, description, BigInteger.valueOf(1));
    BigInteger otherAgreement =
        chain.createAndFund(
            chain.client, chain.provider, attestor, expires, "ASA agreement another", BUDGET);
    BigInteger expiresTooSoon =
        chain.createAndFund(
            chain.client,
            chain.provider,
            attestor,
            now().plus(Duration.ofHours(2)),
            description,
            BUDGET);
    BigInteger otherProvider =
        chain.createAndFund(chain.client, chain.stranger, attestor, expires, description, BUDGET);
    BigInteger unfunded =
        chain.createJob(chain.client, chain.provider, attestor, expires, description);
    chain.mine(CONFIRMATIONS);

    assertRefused(p, id, otherEvaluator, 422, "evaluator is");
    assertRefused(p, id, smallBudget, 422, "holds 1 atomic units");
    assertRefused(p, id, otherAgreement, 422, "description must be");
    assertRefused(p, id, expiresTooSoon, 422, "before this agreement may have to settle");
    assertRefused(p, id, otherProvider, 422, "provider is");
    assertRefused(p, id, unfunded, 422, "is Open, not Funded");
    assertRefused(p, id, BigInteger.valueOf(999_999), 422, "has no job 999999");
    // A body that names no job, or claims funding without one, is refused by field.
    assertThatThrownBy(() -> p.client.fund(id, Json.object().put("amount", "10.00")))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining("/erc8183/job_id");
    assertThat(p.client.escrow(id).path("status").asText()).isEqualTo("unfunded");
    // The provider cannot fund on the client's behalf either.
    BigInteger good =
        chain.createAndFund(chain.client, chain.provider, attestor, expires, description, BUDGET);
    chain.mine(CONFIRMATIONS);
    assertThatThrownBy(() -> p.provider.fund(id, fundBody(good)))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(403));
    assertThat(p.client.fund(id, fundBody(good)).path("state").asText()).isEqualTo("ACTIVE");
  }

  @Test
  @Order(3)
  void aDeliveryWhoseContentIsNotTheOneSubmittedOnChainIsRefused() throws Exception {
    Parties p = parties();
    String id = active(p, document());
    BigInteger job = fundedJob(p, id);
    assertThatThrownBy(() -> p.provider.deliver(id, "# Findings\n", "markdown"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(409))
        .hasMessageContaining("no submission on chain");
    chain.submit(job, Digest.sha256("# The submitted one\n".getBytes(UTF_8)).bytes());
    chain.mine(CONFIRMATIONS);
    assertThatThrownBy(() -> p.provider.deliver(id, "# Another one\n", "markdown"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining("/content_hash");
    assertThat(p.provider.deliver(id, "# The submitted one\n", "markdown").path("state").asText())
        .isEqualTo("DELIVERED");
  }

  @Test
  @Order(1)
  void termsNoSplitOfJobsCanPayAndBindingsTheServerCannotHonourAreRefusedAtCreation() {
    Parties p = parties();
    ObjectNode wrongChain = document();
    ((ObjectNode) wrongChain.at("/escrow/binding")).put("chain", "base");
    ObjectNode notTheServer = document();
    ((ObjectNode) notTheServer.at("/escrow/binding")).put("evaluator_address", chain.stranger);
    ObjectNode noContract = document();
    ((ObjectNode) noContract.at("/escrow/binding")).put("contract_address", chain.stranger);
    ObjectNode notAttested = document(); // a contract, but not one the operator listed
    ((ObjectNode) notAttested.at("/escrow/binding")).put("contract_address", chain.token);
    ObjectNode unknownMember = document();
    ((ObjectNode) unknownMember.at("/escrow/binding")).put("hook", chain.stranger);

    // Tiers are paid by whole jobs, one per distinct percentage: more than 12 are refused, and
    // an amount too small to give every job an atomic unit.
    ObjectNode manyTiers = withTemplateTiers(document());
    ArrayNode list = manyTiers.withArray("/escrow/payment/graduated_release/tiers");
    for (int i = 1; i <= 12; i++) {
      list.addObject().put("composite_score_gte", 60 + i).put("release_percent", 50 + i);
    }
    ObjectNode tooSmall = withTemplateTiers(document());
    tooSmall.withObject("/escrow/payment").put("amount", "0.000002");

    assertCreationRefused(p, manyTiers, "/escrow/payment/graduated_release/tiers");
    assertCreationRefused(p, tooSmall, "/escrow/payment/amount");
    assertCreationRefused(p, wrongChain, "/escrow/binding/chain");
    assertCreationRefused(p, notTheServer, "/escrow/binding/evaluator_address");
    assertCreationRefused(p, noContract, "/escrow/binding/contract_address");
    assertCreationRefused(p, unknownMember, "/escrow/binding/hook");
    assertCreationRefused(p, notAttested, "not a job contract this server attests");
  }

  @Test
  @Order(10)
  void anUnreachableChainIsA503AndNothingIsRecorded(@TempDir Path otherData) throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    AsaServer down =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(otherData)
                .withClock(clock)
                .withOutboxPolling(false) // the test counts what each delivery sends
                .withTimerPolling(false)
                .withEscrow(
                    EscrowConfig.DEFAULTS.withErc8183(
                        Erc8183Settings.of(URI.create("http://127.0.0.1:" + closed), keyFile))));
    try {
      AsaClient client =
          AsaClient.connect(URI.create(down.url("127.0.0.1")))
              .withKey(Fixtures.key("alice"), clock);
      assertThatThrownBy(() -> client.createAgreement(document()))
          .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(503))
          .hasMessageContaining("nothing was recorded");
    } finally {
      down.close();
    }
  }

  // --- partial release over several jobs (issue 58) ----------------------------------------------

  @Test
  @Order(11)
  void aFailingResultRefundsEveryJob() throws Exception {
    Parties p = parties();
    String id = active(p, withTemplateTiers(document()));
    List<BigInteger> jobs = fundedJobs(p, id);
    deliverOnChainAndToServer(p, id, jobs, "# Too thin, in three parts\n");
    p.evaluator.verify(id, LifecycleEndToEndTest.judgedScores(10, 10, 10));
    BigInteger client = chain.balance(chain.client);
    closeAfterChallengeWindow(id, p);

    JsonNode view = settleAllOnChain(p, id, 3);
    assertThat(calls(view)).containsExactly("reject", "reject", "reject");
    assertThat(statuses(jobs)).containsExactly(4, 4, 4);
    assertThat(chain.balance(chain.client).subtract(client)).isEqualTo(BUDGET);
    assertMatchesChain(p, id, BigInteger.ZERO, BUDGET);
  }

  @Test
  @Order(12)
  void aRulingReleasesWhatWholeJobsMakeAndIsRefusedWithTheNearestOtherwise() throws Exception {
    Parties p = parties();
    String id = active(p, withTemplateTiers(document()));
    List<BigInteger> jobs = fundedJobs(p, id);
    deliverOnChainAndToServer(p, id, jobs, "# Findings, disputed\n");
    p.evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    p.provider.challenge(id, Role.PROVIDER, "quality_below_agreed_slo");
    AsaClient operator = operator();
    // Jobs of 50, 35 and 15 percent: 60 is no sum of them; 50 and 65 are.
    assertThatThrownBy(() -> operator.rule(id, new BigDecimal("60"), "most of it"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining("/release_percent")
        .hasMessageContaining("nearest it can release are 50 and 65 percent");
    BigInteger provider = chain.balance(chain.provider);
    BigInteger client = chain.balance(chain.client);
    operator.rule(id, new BigDecimal("50"), "half of the request");

    JsonNode view = settleAllOnChain(p, id, 3);
    assertThat(calls(view)).containsExactly("complete", "reject", "reject");
    assertThat(statuses(jobs)).containsExactly(3, 4, 4);
    BigInteger half = BUDGET.shiftRight(1);
    assertThat(chain.balance(chain.provider).subtract(provider)).isEqualTo(half);
    assertThat(chain.balance(chain.client).subtract(client)).isEqualTo(half);
    assertMatchesChain(p, id, half, half);
  }

  @Test
  @Order(13)
  void aProviderTimeoutRefundsEveryJob() throws Exception {
    Parties p = parties();
    String id = active(p, withTemplateTiers(document()));
    List<BigInteger> jobs = fundedJobs(p, id);
    // The provider submits one job of three, and never delivers.
    chain.submit(jobs.get(0), Digest.sha256("# Partly\n".getBytes(UTF_8)).bytes());
    chain.mine(CONFIRMATIONS);
    assertThatThrownBy(() -> p.provider.deliver(id, "# Partly\n", "markdown"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(409))
        .hasMessageContaining("jobs [" + jobs.get(1) + ", " + jobs.get(2) + "] have no submission");
    BigInteger client = chain.balance(chain.client);
    clock.advance(Duration.ofSeconds(3601));
    server.fireDueTimers();
    assertThat(p.client.status(id).path("state").asText()).isEqualTo("EXPIRED");

    JsonNode view = settleAllOnChain(p, id, 3);
    assertThat(calls(view)).containsExactly("reject", "reject", "reject");
    assertThat(statuses(jobs)).containsExactly(4, 4, 4);
    assertThat(chain.balance(chain.client).subtract(client)).isEqualTo(BUDGET);
    assertMatchesChain(p, id, BigInteger.ZERO, BUDGET);
  }

  @Test
  @Order(14)
  void aServerStoppedBetweenInstructionsPaysEachJobOnce() throws Exception {
    Parties p = parties();
    String id = active(p, withTemplateTiers(document()));
    List<BigInteger> jobs = fundedJobs(p, id);
    deliverOnChainAndToServer(p, id, jobs, "# Findings, interrupted\n");
    p.evaluator.verify(id, LifecycleEndToEndTest.judgedScores(80, 80, 80)); // composite 83: 85%
    BigInteger provider = chain.balance(chain.provider);
    long sentBefore = chain.transactionCount(attestor);
    chain.automine(false);
    try {
      closeAfterChallengeWindow(id, p);
      server.deliverDueMessages(); // signs, stores and sends all three; the node holds them
      JsonNode sent = p.client.escrow(id).at("/erc8183/transactions");
      assertThat(sent).hasSize(3);
      assertThat(chain.pending()).isEqualTo(3);
      server.close();
      // The server died after sending the first instruction and before sending the others: the
      // node never got them. The first is mined.
      chain.drop(sent.get(1).path("tx_hash").asText());
      chain.drop(sent.get(2).path("tx_hash").asText());
      chain.mine(1);
      assertThat(chain.mined(sent.get(0).path("tx_hash").asText())).isTrue();
      clock.advance(Duration.ofMinutes(2)); // any claim on the messages has lapsed
      server = startServer();
      server.deliverDueMessages(); // the stored bytes of the other two, not new transactions
      assertThat(chain.pending()).isEqualTo(2);
      chain.mine(1);
    } finally {
      chain.automine(true);
    }
    p = parties(); // the restarted server listens on another port
    JsonNode view = settleAllOnChain(p, id, 3);
    assertThat(chain.transactionCount(attestor) - sentBefore)
        .as("transactions the attestor had mined: one per job")
        .isEqualTo(3);
    assertThat(calls(view)).containsExactly("complete", "complete", "reject");
    assertThat(statuses(jobs)).containsExactly(3, 3, 4);
    BigInteger paid = BigInteger.valueOf(8_500_000);
    assertThat(chain.balance(chain.provider).subtract(provider)).isEqualTo(paid);
    assertMatchesChain(p, id, paid, BUDGET.subtract(paid));
  }

  @Test
  @Order(15)
  void continuousReleasePaysTheCompositeToWithinOneStep() throws Exception {
    Parties p = parties();
    ObjectNode doc = document();
    doc.withObject("/escrow/payment")
        .putObject("graduated_release")
        .put("enabled", true)
        .put("mode", "continuous")
        .putArray("tiers"); // empty, or the template's own tiers would fill it in
    String id = active(p, doc);
    JsonNode toCreate = p.client.escrow(id).at("/erc8183/jobs_to_create");
    List<String> shares = new ArrayList<>();
    toCreate.forEach(j -> shares.add(j.path("release_percent").asText()));
    assertThat(shares).containsExactly("1", "2", "4", "8", "16", "32", "37");
    List<BigInteger> jobs = fundedJobs(p, id);
    deliverOnChainAndToServer(p, id, jobs, "# Findings, continuous\n");
    p.evaluator.verify(id, LifecycleEndToEndTest.judgedScores(71, 70, 69));
    BigDecimal composite = p.client.verification(id).at("/composite/score").decimalValue();
    BigInteger provider = chain.balance(chain.provider);
    closeAfterChallengeWindow(id, p);

    settleAllOnChain(p, id, 7);
    BigInteger paid = chain.balance(chain.provider).subtract(provider);
    BigInteger exact = new BigDecimal(BUDGET).multiply(composite).movePointLeft(2).toBigInteger();
    BigInteger step = BUDGET.divide(BigInteger.valueOf(100));
    System.out.println(
        "continuous release: composite " + composite + ", paid " + paid + " of " + BUDGET);
    assertThat(paid).isLessThanOrEqualTo(exact).isGreaterThanOrEqualTo(exact.subtract(step));
    assertMatchesChain(p, id, paid, BUDGET.subtract(paid));
  }

  @Test
  @Order(16)
  void aFundingThatListsAJobTwiceOrAnotherAgreementsJobIsRefused() throws Exception {
    Parties p = parties();
    String id = active(p, withTemplateTiers(document()));
    String other = active(p, withTemplateTiers(document()));
    List<BigInteger> mine = createAndFundJobs(p, id);
    List<BigInteger> theirs = createAndFundJobs(p, other);
    chain.mine(CONFIRMATIONS);
    assertFundRefused(p, id, List.of(mine.get(0), mine.get(1), mine.get(1)), "/erc8183/job_ids/2");
    assertFundRefused(
        p, id, List.of(mine.get(0), theirs.get(1), mine.get(2)), "/erc8183/job_ids/1");
    assertFundRefused(p, id, List.of(mine.get(1), mine.get(0), mine.get(2)), "/erc8183/job_ids/0");
    assertFundRefused(p, id, mine.subList(0, 2), "/erc8183/job_ids");
    assertThatThrownBy(() -> p.client.fund(id, fundBody(mine.get(0))))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining("/erc8183/job_ids")
        .hasMessageContaining("split over 3 jobs");
    assertThat(p.client.fund(id, fundBody(mine)).path("state").asText()).isEqualTo("ACTIVE");
    assertThatThrownBy(() -> p.client.fund(other, fundBody(mine)))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining("/erc8183/job_ids/0")
        .hasMessageContaining("description must be");
  }

  // --- helpers ---------------------------------------------------------------------------------

  record Parties(AsaClient client, AsaClient provider, AsaClient evaluator) {}

  private static AsaClient operator() {
    return AsaClient.connect(URI.create(server.url("127.0.0.1")))
        .withKey(Fixtures.key("operator"), clock);
  }

  /** The client creates and funds every job of {@code jobs_to_create}, in order, on chain. */
  private static List<BigInteger> createAndFundJobs(Parties p, String id) throws Exception {
    JsonNode terms = p.client.escrow(id).path("erc8183");
    List<BigInteger> jobs = new ArrayList<>();
    for (JsonNode job : terms.path("jobs_to_create")) {
      jobs.add(
          chain.createAndFund(
              chain.client,
              job.path("provider_address").asText(),
              job.path("evaluator_address").asText(),
              now()
                  .plusSeconds(terms.path("expired_at_min_seconds_after_funding").asLong())
                  .plus(Duration.ofHours(1)),
              job.path("description").asText(),
              new BigInteger(job.path("budget_atomic").asText())));
    }
    return jobs;
  }

  /**
   * The jobs created, funded and named to the server, which refuses them until every funding is
   * {@value #CONFIRMATIONS} blocks deep.
   */
  private static List<BigInteger> fundedJobs(Parties p, String id) throws Exception {
    List<BigInteger> jobs = createAndFundJobs(p, id);
    assertThatThrownBy(() -> p.client.fund(id, fundBody(jobs)))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> assertThat(e.problem().path("type").asText()).contains("chain-not-ready"));
    chain.mine(CONFIRMATIONS - 1);
    p.client.fund(id, fundBody(jobs));
    JsonNode escrow = p.client.escrow(id);
    assertThat(escrow.path("status").asText()).isEqualTo("held");
    List<BigInteger> ids = new ArrayList<>();
    escrow.at("/erc8183/job_ids").forEach(j -> ids.add(new BigInteger(j.asText())));
    assertThat(ids).isEqualTo(jobs);
    escrow
        .at("/erc8183/jobs")
        .forEach(j -> assertThat(j.path("status").asText()).isEqualTo("Funded"));
    return jobs;
  }

  private static ObjectNode fundBody(List<BigInteger> jobs) {
    ObjectNode body = Json.object();
    ArrayNode ids = body.putObject("erc8183").putArray("job_ids");
    jobs.forEach(j -> ids.add(j.toString()));
    return body;
  }

  private static void assertFundRefused(
      Parties p, String id, List<BigInteger> jobs, String pointer) {
    assertThatThrownBy(() -> p.client.fund(id, fundBody(jobs)))
        .as("%s", jobs)
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining(pointer);
  }

  /** The provider submits the deliverable's hash on every job, then delivers it. */
  private static void deliverOnChainAndToServer(
      Parties p, String id, List<BigInteger> jobs, String content) throws Exception {
    for (BigInteger job : jobs) {
      chain.submit(job, Digest.sha256(content.getBytes(UTF_8)).bytes());
    }
    chain.mine(CONFIRMATIONS - 1);
    assertThat(p.provider.deliver(id, content, "markdown").path("state").asText())
        .isEqualTo("DELIVERED");
  }

  /**
   * Lets the outbox carry the settlement's {@code count} instructions (mining a block between
   * attempts) until all are delivered; the escrow view then, its gas printed.
   */
  private static JsonNode settleAllOnChain(Parties p, String id, int count) throws Exception {
    for (int round = 0; round < 30; round++) {
      server.deliverDueMessages();
      JsonNode view = p.client.escrow(id);
      List<JsonNode> messages = new ArrayList<>();
      view.path("messages")
          .forEach(m -> {
            if (m.path("kind").asText().startsWith("erc8183.")) {
              messages.add(m);
            }
          });
      if (messages.size() == count
          && messages.stream().noneMatch(m -> m.path("status").asText().equals("pending"))) {
        messages.forEach(
            m -> assertThat(m.path("status").asText()).as(m.toString()).isEqualTo("delivered"));
        JsonNode txs = view.at("/erc8183/transactions");
        assertThat(txs).as("one transaction per instruction").hasSize(count);
        txs.forEach(tx -> assertThat(tx.path("status").asText()).isEqualTo("confirmed"));
        JsonNode jobs = view.at("/erc8183/jobs");
        StringBuilder gas = new StringBuilder();
        jobs.forEach(j ->
            gas.append(" job ")
                .append(j.path("job_id").asText())
                .append(" (")
                .append(j.path("release_percent").asText())
                .append("%) ")
                .append(j.path("call").asText())
                .append(" ")
                .append(j.path("gas_used").asLong())
                .append(";"));
        System.out.println(
            "settled "
                + count
                + " jobs on chain:"
                + gas
                + " total gas "
                + view.at("/erc8183/gas_used_total").asLong());
        assertThat(view.at("/erc8183/gas_used_total").asLong()).isPositive();
        return view;
      }
      chain.mine(1);
      clock.advance(Duration.ofMinutes(20));
    }
    throw new AssertionError("not settled: " + p.client.escrow(id).toPrettyString());
  }

  /** The server's call on each job, in the jobs' order. */
  private static List<String> calls(JsonNode view) {
    List<String> calls = new ArrayList<>();
    view.at("/erc8183/jobs").forEach(j -> calls.add(j.path("call").asText()));
    return calls;
  }

  private static List<Integer> statuses(List<BigInteger> jobs) throws Exception {
    List<Integer> statuses = new ArrayList<>();
    for (BigInteger job : jobs) {
      statuses.add(chain.status(job));
    }
    return statuses;
  }

  private static Parties parties() {
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    return new Parties(
        anonymous.withKey(Fixtures.key("alice"), clock),
        anonymous.withKey(Fixtures.key("bob"), clock),
        anonymous.withKey(Fixtures.key("eval-1"), clock));
  }

  /**
   * The general template, 10.00 USDC held by the test contract's job, released all or nothing, the
   * provider given an hour.
   */
  private static ObjectNode document() {
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/payment").put("amount", "10.00").put("currency", "USDC");
    doc.withObject("/escrow/payment").putObject("graduated_release").put("enabled", false);
    doc.withObject("/escrow/dead_mans_switch").put("provider_timeout_seconds", 3600);
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "erc8183")
        .put("contract_address", chain.contract)
        .put("chain", "eip155:31337")
        .put("provider_address", chain.provider)
        .put("client_address", chain.client);
    return doc;
  }

  /**
   * Section 4.1's example as printed, with what cannot be taken literally replaced: its placeholder
   * identities and keys (alice, bob and eval-1 of the test fixtures), its dates and signatures (the
   * server sets and collects them), and its binding pointed at the test contract (with the
   * provider's address, which the placeholder "0xdef456..." binding could not name).
   */
  private static ObjectNode whitepaperExample() throws Exception {
    ObjectNode doc;
    try (var in =
        Erc8183EndToEndTest.class.getResourceAsStream("/dev/asa/examples/whitepaper-4.1.json")) {
      doc = (ObjectNode) Json.parse(in.readAllBytes());
    }
    for (String server :
        new String[] {"agreement_id", "created_at", "expires_at", "status", "signatures"}) {
      doc.remove(server);
    }
    doc.set("parties", Fixtures.general().get("parties"));
    doc.set("escrow", doc.get("escrow").deepCopy());
    ((ObjectNode) doc.at("/escrow/binding"))
        .put("contract_address", chain.contract)
        .put("chain", "eip155:31337")
        .put("provider_address", chain.provider);
    return doc;
  }

  /** Section 4.1's tiers, as the general template prints them: 100, 85, 50 and 0 percent. */
  private static ObjectNode withTemplateTiers(ObjectNode doc) {
    ObjectNode release = doc.withObject("/escrow/payment").putObject("graduated_release");
    release.put("enabled", true).put("mode", "tiers");
    ArrayNode tiers = release.putArray("tiers");
    tiers.addObject().put("composite_score_gte", 90).put("release_percent", 100);
    tiers.addObject().put("composite_score_gte", 75).put("release_percent", 85);
    tiers.addObject().put("composite_score_gte", 60).put("release_percent", 50);
    tiers.addObject().put("composite_score_lt", 60).put("release_percent", 0);
    return doc;
  }

  private static String active(Parties p, ObjectNode doc) {
    String id = p.client.createAgreement(doc).path("agreement_id").asText();
    p.client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    p.provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    return id;
  }

  /**
   * The client creates and funds the job on chain and names it to the server, which refuses it
   * until the funding is {@value #CONFIRMATIONS} blocks deep.
   */
  private static BigInteger fundedJob(Parties p, String id) throws Exception {
    JsonNode terms = p.client.escrow(id).path("erc8183");
    assertThat(terms.path("evaluator_address").asText()).isEqualToIgnoringCase(attestor);
    BigInteger job =
        chain.createAndFund(
            chain.client,
            terms.path("provider_address").asText(),
            terms.path("evaluator_address").asText(),
            now()
                .plusSeconds(terms.path("expired_at_min_seconds_after_funding").asLong())
                .plus(Duration.ofHours(1)),
            terms.path("description").asText(),
            new BigInteger(terms.path("budget_atomic").asText()));
    assertThatThrownBy(() -> p.client.fund(id, fundBody(job)))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.problem().path("type").asText()).contains("chain-not-ready");
            });
    chain.mine(CONFIRMATIONS - 1);
    p.client.fund(id, fundBody(job));
    JsonNode escrow = p.client.escrow(id);
    assertThat(escrow.path("status").asText()).isEqualTo("held");
    assertThat(escrow.at("/erc8183/job_id").asText()).isEqualTo(job.toString());
    return job;
  }

  /**
   * Now for a party: the later of the server's clock (which the tests move) and the chain's (which
   * createJob checks expiredAt against).
   */
  private static Instant now() throws Exception {
    Instant chainTime = chain.time();
    return chainTime.isAfter(clock.instant()) ? chainTime : clock.instant();
  }

  private static ObjectNode fundBody(BigInteger job) {
    ObjectNode body = Json.object();
    body.putObject("erc8183").put("job_id", job.toString());
    return body;
  }

  /** An agreement funded, delivered and verified with the same score on every dimension. */
  record Verified(Parties parties, String id, BigInteger job) {}

  private static Verified verifiedAgreement(String content, int score) throws Exception {
    Parties p = parties();
    String id = active(p, document());
    BigInteger job = fundedJob(p, id);
    deliverOnChainAndToServer(p, id, job, content);
    p.evaluator.verify(id, LifecycleEndToEndTest.judgedScores(score, score, score));
    return new Verified(p, id, job);
  }

  private static void deliverOnChainAndToServer(
      Parties p, String id, BigInteger job, String content) throws Exception {
    chain.submit(job, Digest.sha256(content.getBytes(UTF_8)).bytes());
    chain.mine(CONFIRMATIONS - 1);
    assertThat(p.provider.deliver(id, content, "markdown").path("state").asText())
        .isEqualTo("DELIVERED");
  }

  private static void closeAfterChallengeWindow(String id, Parties p) {
    clock.advance(Duration.ofSeconds(7201));
    server.fireDueTimers();
    assertThat(p.client.status(id).path("state").asText()).isEqualTo("CLOSED");
  }

  /**
   * Lets the outbox carry the settlement (mining a block between attempts) until it is delivered;
   * its transaction as the escrow view shows it.
   */
  private static JsonNode settleOnChain(Parties p, String id) throws Exception {
    for (int round = 0; round < 30; round++) {
      server.deliverDueMessages();
      JsonNode message = p.client.escrow(id).path("messages").get(0);
      if (message != null && !message.path("status").asText().equals("pending")) {
        assertThat(message.path("status").asText()).as(message.toString()).isEqualTo("delivered");
        JsonNode tx = transaction(p, id);
        assertThat(tx.path("status").asText()).isEqualTo("confirmed");
        assertThat(tx.path("confirmations").asInt()).isGreaterThanOrEqualTo(CONFIRMATIONS);
        assertThat(message.path("response").asText()).contains(tx.path("tx_hash").asText());
        System.out.println("settled on chain: " + message.path("response").asText());
        return tx;
      }
      chain.mine(1);
      clock.advance(Duration.ofMinutes(20));
    }
    throw new AssertionError("not settled: " + p.client.escrow(id).toPrettyString());
  }

  private static JsonNode transaction(Parties p, String id) {
    JsonNode list = p.client.escrow(id).at("/erc8183/transactions");
    assertThat(list.size()).as("one transaction for one instruction: %s", list).isEqualTo(1);
    return list.get(0);
  }

  /** The escrow view's released and refunded amounts are what the chain moved. */
  private static void assertMatchesChain(
      Parties p, String id, BigInteger released, BigInteger refunded) {
    JsonNode view = p.client.escrow(id);
    BigInteger viewReleased = BigInteger.ZERO;
    BigInteger viewRefunded = BigInteger.ZERO;
    for (JsonNode t : view.path("transfers")) {
      BigInteger atomic =
          new BigDecimal(t.path("amount").asText()).movePointRight(6).toBigIntegerExact();
      switch (t.path("kind").asText()) {
        case "release" -> viewReleased = viewReleased.add(atomic);
        case "refund" -> viewRefunded = viewRefunded.add(atomic);
        default -> {}
      }
    }
    assertThat(viewReleased).as("released in the view: %s", view).isEqualTo(released);
    assertThat(viewRefunded).as("refunded in the view: %s", view).isEqualTo(refunded);
    assertThat(view.path("status").asText()).isEqualTo("settled");
  }

  private static void assertRefused(
      Parties p, String id, BigInteger job, int status, String because) {
    assertThatThrownBy(() -> p.client.fund(id, fundBody(job)))
        .as("job %s", job)
        .isInstanceOfSatisfying(
            AsaApiException.class, e -> assertThat(e.status()).isEqualTo(status))
        .hasMessageContaining(because);
  }

  private static void assertCreationRefused(Parties p, ObjectNode doc, String pointer) {
    assertThatThrownBy(() -> p.client.createAgreement(doc))
        .as(pointer)
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining(pointer);
  }
}
