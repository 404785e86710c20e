package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.DeadMansSwitch;
import dev.asa.agreement.GraduatedRelease;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.crypto.Digest;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.scoring.Settlement;
import dev.asa.server.escrow.erc8183.Addresses;
import dev.asa.server.escrow.erc8183.ChainUnavailableException;
import dev.asa.server.escrow.erc8183.Erc8183Chain;
import dev.asa.server.escrow.erc8183.Job;
import dev.asa.server.escrow.erc8183.JobSplit;
import dev.asa.server.escrow.x402.X402;
import dev.asa.server.store.Write;
import dev.asa.server.store.escrow.ChainTransaction;
import dev.asa.server.store.escrow.ChainTransactionStore;
import dev.asa.server.store.escrow.OutboxMessage;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * {@code erc8183}: the escrow is an ERC-8183 job (Agentic Commerce) on a chain, and this server is
 * the job's evaluator, signing with the operator's attestor key ({@link Erc8183Chain}).
 *
 * <p>Who does what, and why:
 *
 * <ul>
 *   <li><b>The client creates and funds the job.</b> The contract takes the job's client from the
 *       caller and pulls the budget from it; this server holds no client key, so it could only
 *       create the job by holding the client's money, a custody role ERC-8183 does not have. The
 *       client's {@code fund} request names the job; the server reads the job and its {@code
 *       JobFunded} event at a block with the configured confirmations, and checks every term: the
 *       agreement's provider, this server as evaluator, the budget, a description naming the
 *       agreement (so one job funds one agreement), and an {@code expiredAt} late enough.
 *   <li><b>{@code expiredAt} covers the whole agreement, not only delivery.</b> After it anyone may
 *       {@code claimRefund} a job that still holds its budget, delivered or not; a job expiring at
 *       the provider's deadline would let the client take back a delivered job's budget during its
 *       evaluation and challenge window. So it must be at least funding + the provider timeout +
 *       the evaluator timeout + the challenge window + a day, as x402's horizon. When the provider
 *       timeout fires, the server refunds by {@code reject} (its right as evaluator), or by {@code
 *       claimRefund} once the chain's time has passed {@code expiredAt}; if this server is gone,
 *       the client claims the refund itself after {@code expiredAt}.
 *   <li><b>The provider submits on chain itself</b> (only the job's provider may call {@code
 *       submit}): a delivery is accepted once the job's {@code JobSubmitted} event, confirmed,
 *       carries the deliverable's SHA-256.
 *   <li><b>A part is released by whole jobs.</b> A job pays all its budget ({@code complete}) or
 *       none ({@code reject}, {@code claimRefund}), and no hook contract splits it; so the budget
 *       is split over several jobs ({@link JobSplit}), fixed by the terms, such that every release
 *       they can produce is a sum of whole jobs: 50, 35 and 15 percent for tiers of 100, 85, 50 and
 *       0; 1, 2, 4, 8, 16, 32 and 37 percent for continuous release (to the whole percent). The
 *       client creates and funds each job, in order; settlement completes the jobs that make the
 *       released share and refunds the rest, and a ruling no sum of jobs makes is refused.
 *   <li>The enforced result goes through the outbox ({@link Erc8183Courier}): each instruction is
 *       one transaction, signed once and stored before it is sent.
 * </ul>
 */
final class Erc8183Binding implements EscrowBinding {
  static final String TYPE = "erc8183";

  private static final Set<String> MEMBERS =
      Set.of(
          "type",
          "contract_address",
          "chain",
          "provider_address",
          "client_address",
          "evaluator_address");

  /** Chain names an agreement may use instead of {@code eip155:<id>}. */
  private static final Map<String, Long> CHAINS =
      Map.of(
          "ethereum", 1L,
          "sepolia", 11_155_111L,
          "base", 8453L,
          "base-sepolia", 84_532L,
          "optimism", 10L,
          "arbitrum", 42_161L,
          "polygon", 137L);

  private static final Pattern EIP155 = Pattern.compile("eip155:([1-9][0-9]{0,17})");
  private static final Pattern JOB_ID = Pattern.compile("[1-9][0-9]{0,76}");

  private final Erc8183Chain chain;
  private final ChainTransactionStore transactions;

  Erc8183Binding(Erc8183Chain chain, ChainTransactionStore transactions) {
    this.chain = chain;
    this.transactions = transactions;
  }

  @Override
  public String type() {
    return TYPE;
  }

  /** The binding's members, checked. */
  record Terms(String contract, long chainId, String provider, String client) {

    static Terms of(JsonNode binding) {
      for (var it = binding.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!MEMBERS.contains(name)) {
          throw new InvalidDocumentException(
              "/escrow/binding/" + name,
              "is not a member of an erc8183 binding; it has " + new TreeSet<>(MEMBERS));
        }
      }
      String contract = address(binding, "contract_address", true);
      String provider = address(binding, "provider_address", true);
      if (Addresses.isZero(provider)) {
        throw new InvalidDocumentException(
            "/escrow/binding/provider_address",
            "is the zero address; name the provider's own address, which submit is called from"
                + " and complete pays");
      }
      return new Terms(
          contract,
          chainId(binding.get("chain")),
          provider,
          address(binding, "client_address", false));
    }

    private static String address(JsonNode binding, String field, boolean required) {
      JsonNode v = binding.get(field);
      if (v == null && !required) {
        return null;
      }
      if (v == null || !v.isTextual() || !Addresses.isAddress(v.textValue())) {
        throw new InvalidDocumentException(
            "/escrow/binding/" + field,
            (v == null ? "is required: " : "must be ") + "an EVM address, 0x and 40 hex digits");
      }
      return v.textValue();
    }

    private static long chainId(JsonNode chain) {
      if (chain != null && chain.isTextual()) {
        String name = chain.textValue().toLowerCase(Locale.ROOT);
        if (CHAINS.containsKey(name)) {
          return CHAINS.get(name);
        }
        var m = EIP155.matcher(chain.textValue());
        if (m.matches()) {
          return Long.parseLong(m.group(1));
        }
      }
      throw new InvalidDocumentException(
          "/escrow/binding/chain",
          "is required: the chain the contract is on, \"eip155:<chain id>\" (e.g. \"eip155:8453\")"
              + " or one of "
              + new TreeSet<>(CHAINS.keySet()));
    }
  }

  @Override
  public void check(JsonNode binding, Money amount) {
    Terms terms = Terms.of(binding);
    JsonNode evaluator = binding.get("evaluator_address");
    if (evaluator != null
        && !(evaluator.isTextual() && Addresses.same(evaluator.textValue(), chain.attestor()))) {
      throw new InvalidDocumentException(
          "/escrow/binding/evaluator_address",
          "must be this server's attestor address "
              + chain.attestor()
              + " (the job's evaluator), or left out");
    }
    if (!chain.settings().attests(terms.contract())) {
      throw new InvalidDocumentException(
          "/escrow/binding/contract_address",
          "is not a job contract this server attests jobs on (the operator lists "
              + chain.settings().contracts()
              + "); name one of them");
    }
    if (terms.chainId() != chain.chainId()) {
      throw new InvalidDocumentException(
          "/escrow/binding/chain",
          "names chain "
              + terms.chainId()
              + ", but this server attests ERC-8183 jobs on chain "
              + chain.chainId()
              + " only");
    }
    if (!chain.hasCode(terms.contract())) {
      throw new InvalidDocumentException(
          "/escrow/binding/contract_address",
          "holds no contract on chain " + chain.chainId() + ": name the ERC-8183 job contract");
    }
    String token =
        chain
            .token(terms.contract())
            .orElseThrow(() ->
                new InvalidDocumentException(
                    "/escrow/binding/contract_address",
                    "answers no token(): it is not an ERC-8183 job contract this server can"
                        + " check"));
    int decimals =
        chain
            .decimals(token)
            .orElseThrow(() ->
                new InvalidDocumentException(
                    "/escrow/binding/contract_address",
                    "pays in " + token + ", which answers no decimals(): not an ERC-20"));
    if (decimals != amount.currency().decimals()) {
      throw new InvalidDocumentException(
          "/escrow/payment/currency",
          amount.currency().code()
              + " has "
              + amount.currency().decimals()
              + " decimals, but the contract's token "
              + token
              + " has "
              + decimals
              + ": the budget could not be stated exactly");
    }
  }

  /**
   * The jobs the terms split the budget over ({@link JobSplit}): one job for all-or-nothing terms,
   * prefix jobs for tiers (and {@code split_50_50}'s half), binary jobs for continuous release. It
   * is fixed by the signed terms, so the escrow view, funding and settlement all see the same.
   *
   * @throws IllegalArgumentException when the terms need more than {@link JobSplit#MAX_JOBS} jobs
   */
  static JobSplit jobSplit(Agreement a) {
    GraduatedRelease release = a.terms().escrow().paymentTerms().orElseThrow().release();
    if (release.enabled() && release.mode() == GraduatedRelease.Mode.CONTINUOUS) {
      return JobSplit.binary();
    }
    List<BigDecimal> releases = new ArrayList<>();
    if (release.enabled()) {
      release.tiers().forEach(t -> releases.add(t.releasePercent()));
    }
    if (a.terms().escrow().deadMansSwitch().timeoutAction()
        == DeadMansSwitch.TimeoutAction.SPLIT_50_50) {
      releases.add(BigDecimal.valueOf(50));
    }
    return JobSplit.covering(releases);
  }

  /**
   * Every release the terms can produce must be a sum of whole jobs, each holding at least one
   * atomic unit (a job of no budget could not be funded, and would pay nothing).
   */
  @Override
  public void checkReleases(Agreement a) {
    JobSplit split;
    try {
      split = jobSplit(a);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(
          "/escrow/payment/graduated_release/tiers",
          "needs its budget split over more than "
              + JobSplit.MAX_JOBS
              + " ERC-8183 jobs (one per distinct release percentage): "
              + e.getMessage()
              + "; use fewer distinct release percentages");
    }
    List<BigInteger> budgets = split.budgets(atomic(a));
    for (int i = 0; i < budgets.size(); i++) {
      if (budgets.get(i).signum() == 0) {
        throw new InvalidDocumentException(
            "/escrow/payment/amount",
            "is too small to split over "
                + split.size()
                + " ERC-8183 jobs of "
                + split.percents()
                + " percent: job "
                + (i + 1)
                + " would hold no atomic unit of the token");
      }
    }
  }

  /** A ruling releases a sum of whole jobs, or is refused with the nearest sums. */
  @Override
  public void checkRuling(Agreement a, BigDecimal percent) {
    JobSplit split = Enforcement.isFunded(a) ? fundedSplit(a) : jobSplit(a);
    if (split.jobsReleasing(percent).isEmpty()) {
      throw new InvalidDocumentException(
          "/release_percent",
          "this agreement's escrow is "
              + split.size()
              + " ERC-8183 jobs of "
              + split.percents()
              + " percent, each paid whole: "
              + percent.toPlainString()
              + " percent is no sum of them; the nearest it can release are "
              + String.join(
                  " and ", split.nearest(percent).stream().map(BigDecimal::toPlainString).toList())
              + " percent");
    }
  }

  /**
   * The share the jobs really pay: the percentage itself when whole jobs make it (every tier, a
   * ruling checked by {@link #checkRuling}), else the largest sum of jobs below it (a continuous
   * release, to the whole percent below); the amount released is the sum of those jobs' budgets.
   */
  @Override
  public Settlement split(Agreement a, Money amount, BigDecimal percent) {
    JobSplit split = fundedSplit(a);
    List<Integer> paying =
        split
            .jobsReleasing(percent)
            .or(() -> split.jobsReleasing(split.floor(percent)))
            .orElseThrow();
    List<FundedJob> jobs = fundedJobs(a);
    BigInteger released = BigInteger.ZERO;
    for (int i : paying) {
      released = released.add(jobs.get(i).budget());
    }
    Money paid =
        new Money(new BigDecimal(released, amount.currency().decimals()), amount.currency());
    return new Settlement(paid, amount.minus(paid));
  }

  /** A job that funds this agreement, as recorded at funding. */
  record FundedJob(BigInteger id, BigInteger budget, BigDecimal percent, long fundedBlock) {}

  /**
   * The agreement's jobs in order, from its escrow facts: {@code jobs} since budgets are split, or
   * the one {@code job_id} an agreement funded before that records.
   */
  static List<FundedJob> fundedJobs(Agreement a) {
    JsonNode d =
        a.facts()
            .escrow()
            .map(e -> e.bindingDetails())
            .orElseThrow(() ->
                new IllegalStateException(
                    "agreement " + a.id() + " is funded by erc8183 but records no job"));
    List<FundedJob> jobs = new ArrayList<>();
    if (d.path("jobs").isArray()) {
      for (JsonNode j : d.get("jobs")) {
        jobs.add(
            new FundedJob(
                new BigInteger(j.get("job_id").textValue()),
                new BigInteger(j.get("budget_atomic").textValue()),
                new BigDecimal(j.get("release_percent").asText()),
                j.path("funded_block").asLong()));
      }
    } else if (d.path("job_id").isTextual()) {
      jobs.add(
          new FundedJob(
              new BigInteger(d.get("job_id").textValue()),
              new BigInteger(d.get("budget_atomic").textValue()),
              BigDecimal.valueOf(100),
              d.path("funded_block").asLong()));
    }
    if (jobs.isEmpty()) {
      throw new IllegalStateException(
          "agreement " + a.id() + " is funded by erc8183 but records no job");
    }
    return jobs;
  }

  /** The split recorded at funding (the jobs' shares), which settlement pays by. */
  private static JobSplit fundedSplit(Agreement a) {
    return new JobSplit(fundedJobs(a).stream().map(FundedJob::percent).toList());
  }

  @Override
  public Funded fund(Agreement a, ObjectNode body, Instant now) {
    JobSplit split;
    try {
      split = jobSplit(a);
    } catch (IllegalArgumentException e) { // refused at creation; a server changed since
      throw new InvalidDocumentException("/erc8183", "this agreement cannot be funded: " + e);
    }
    List<BigInteger> ids = jobIds(a, body, split.size());
    boolean single = body.path("erc8183").has("job_id");
    Terms terms = Terms.of(binding(a));
    if (!chain.settings().attests(terms.contract())) {
      throw new InvalidDocumentException(
          single ? "/erc8183/job_id" : "/erc8183/job_ids",
          "this server no longer attests jobs on contract "
              + terms.contract()
              + " (the operator lists "
              + chain.settings().contracts()
              + "): it cannot fund this agreement");
    }
    List<BigInteger> budgets = split.budgets(atomic(a));
    long confirmed = chain.confirmedBlock();
    ArrayNode jobs = Json.mapper().createArrayNode();
    String client = terms.client();
    for (int i = 0; i < ids.size(); i++) {
      String pointer = single ? "/erc8183/job_id" : "/erc8183/job_ids/" + i;
      Job job = checkJob(a, terms, ids.get(i), i, ids.size(), budgets.get(i), pointer, confirmed);
      if (client != null && !Addresses.same(job.client(), client)) {
        throw new InvalidDocumentException(
            pointer,
            "job "
                + job.id()
                + " was created by "
                + job.client()
                + ", not "
                + client
                + (terms.client() != null
                    ? " (the agreement's client_address)"
                    : " (who created the first job): one client funds every job"));
      }
      client = job.client();
      Instant mustLast =
          Instant.ofEpochSecond(now.getEpochSecond()).plus(Enforcement.settlementHorizon(a));
      if (job.expiredAt().isBefore(mustLast)) {
        throw new InvalidDocumentException(
            pointer,
            "job "
                + job.id()
                + " expires at "
                + job.expiredAt()
                + ", before this agreement may have to settle (as late as "
                + mustLast
                + "); after expiredAt the client could take back a delivered job's budget");
      }
      List<Erc8183Chain.JobEvent> funded =
          chain.fundedEvents(terms.contract(), job.id(), confirmed);
      if (funded.isEmpty()) {
        throw notYetConfirmed("job " + job.id() + "'s JobFunded event");
      }
      jobs.addObject()
          .put("job_id", job.id().toString())
          .put("budget_atomic", job.budget().toString())
          .put("release_percent", split.percents().get(i))
          .put("expired_at", job.expiredAt().toString())
          .put("funded_block", funded.get(0).block())
          .put("funded_tx", funded.get(0).txHash());
    }
    ObjectNode facts = Json.object();
    facts.put("chain_id", chain.chainId());
    facts.put("contract_address", terms.contract());
    if (ids.size() == 1) {
      facts.put("job_id", ids.get(0).toString()); // as an agreement of a single job always did
    }
    ArrayNode idList = facts.putArray("job_ids");
    ids.forEach(id -> idList.add(id.toString()));
    facts.put("client_address", client);
    facts.put("provider_address", terms.provider());
    facts.put("evaluator_address", chain.attestor());
    facts.put("budget_atomic", atomic(a).toString());
    facts.put("expired_at", jobs.get(0).get("expired_at").textValue());
    facts.put("funded_block", jobs.get(0).get("funded_block").asLong());
    facts.put("funded_tx", jobs.get(0).get("funded_tx").textValue());
    facts.set("jobs", jobs);
    return new Funded(List.of(), facts);
  }

  /**
   * The job ids a fund request names: {@code job_ids}, one per job in the split's order, or a
   * single {@code job_id} for an escrow of one job. None may be listed twice; a job of another
   * agreement is refused by its description, which names the agreement.
   */
  private static List<BigInteger> jobIds(Agreement a, ObjectNode body, int count) {
    JsonNode request = body.get("erc8183");
    String shape =
        count == 1
            ? "{\"erc8183\": {\"job_id\": \"<the job's id, a decimal string>\"}}"
            : "{\"erc8183\": {\"job_ids\": [<"
                + count
                + " job ids, decimal strings, in the order of jobs_to_create>]}}";
    String help =
        ": the ERC-8183 job"
            + (count == 1 ? "" : "s")
            + " you created and funded for this agreement (GET /agreements/"
            + a.id()
            + "/escrow lists "
            + (count == 1 ? "its terms" : "them under erc8183.jobs_to_create")
            + ")";
    if (request == null || body.size() != 1 || !request.isObject() || request.size() != 1) {
      throw new InvalidDocumentException(
          count == 1 ? "/erc8183/job_id" : "/erc8183/job_ids",
          "required, and alone: " + shape + help);
    }
    JsonNode one = request.get("job_id");
    if (one != null) {
      if (count != 1) {
        throw new InvalidDocumentException(
            "/erc8183/job_ids",
            "this agreement's escrow is split over "
                + count
                + " jobs: name them all, "
                + shape
                + help);
      }
      if (!one.isTextual() || !JOB_ID.matcher(one.textValue()).matches()) {
        throw new InvalidDocumentException("/erc8183/job_id", "must be " + shape + help);
      }
      return List.of(new BigInteger(one.textValue()));
    }
    JsonNode list = request.get("job_ids");
    if (list == null || !list.isArray() || list.size() != count) {
      throw new InvalidDocumentException(
          "/erc8183/job_ids",
          (list != null && list.isArray() ? "lists " + list.size() + " jobs, but " : "")
              + "this agreement's escrow is split over "
              + count
              + " job"
              + (count == 1 ? "" : "s")
              + ": "
              + shape
              + help);
    }
    List<BigInteger> ids = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode v = list.get(i);
      if (!v.isTextual() || !JOB_ID.matcher(v.textValue()).matches()) {
        throw new InvalidDocumentException(
            "/erc8183/job_ids/" + i, "must be a job id, a decimal string such as \"7\"");
      }
      BigInteger id = new BigInteger(v.textValue());
      int earlier = ids.indexOf(id);
      if (earlier >= 0) {
        throw new InvalidDocumentException(
            "/erc8183/job_ids/" + i,
            "lists job "
                + id
                + " again (it is at /erc8183/job_ids/"
                + earlier
                + "): each job holds its own part of the budget");
      }
      ids.add(id);
    }
    return ids;
  }

  /**
   * Job {@code index} of {@code count}, read at the confirmed block: funded, with this server as
   * evaluator, the agreement's provider (and client, when named), {@code budget}, and the
   * description naming the agreement and the job's place.
   */
  private Job checkJob(
      Agreement a,
      Terms terms,
      BigInteger jobId,
      int index,
      int count,
      BigInteger budget,
      String pointer,
      long confirmed) {
    Job job = chain.job(terms.contract(), jobId, confirmed);
    if (!job.exists() || !job.status().holdsBudget()) {
      Job latest = chain.job(terms.contract(), jobId, chain.head());
      if (latest.exists() && latest.status().holdsBudget()) {
        throw notYetConfirmed("job " + jobId + " is funded");
      }
      throw new InvalidDocumentException(
          pointer,
          latest.exists()
              ? "job "
                  + jobId
                  + " is "
                  + latest.status().displayName()
                  + ", not Funded: call setBudget and fund(jobId, "
                  + budget
                  + ") first"
              : "contract " + terms.contract() + " has no job " + jobId);
    }
    if (!Addresses.same(job.evaluator(), chain.attestor())) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + "'s evaluator is "
              + job.evaluator()
              + ", not this server's attestor "
              + chain.attestor());
    }
    if (!Addresses.same(job.provider(), terms.provider())) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + "'s provider is "
              + job.provider()
              + ", not the agreement's provider_address "
              + terms.provider());
    }
    if (!job.budget().equals(budget)) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + " holds "
              + job.budget()
              + " atomic units, not the "
              + budget
              + (count == 1
                  ? " of the escrow ("
                      + amount(a).toWire()
                      + " "
                      + amount(a).currency().code()
                      + ")"
                  : " of job " + (index + 1) + " of " + count + " in jobs_to_create"));
    }
    String description = description(a, index, count);
    if (!description.equals(job.description())) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + "'s description must be \""
              + description
              + "\", so that it funds this agreement, in this place, and no other");
    }
    return job;
  }

  /**
   * A first delivery is accepted once the provider's {@code submit} of every job is confirmed on
   * chain and carries the deliverable's SHA-256 (a re-delivery is checked by the server alone: the
   * jobs are already Submitted).
   */
  @Override
  public void checkDelivery(Agreement a, Digest contentHash) {
    Terms terms = Terms.of(binding(a));
    List<FundedJob> jobs = fundedJobs(a);
    List<BigInteger> missing = new ArrayList<>();
    boolean shallow = false;
    long confirmed = chain.confirmedBlock();
    for (FundedJob job : jobs) {
      List<Erc8183Chain.JobEvent> submitted =
          chain.submittedEvents(terms.contract(), job.id(), job.fundedBlock(), confirmed);
      if (submitted.isEmpty()) {
        missing.add(job.id());
        shallow |=
            !chain
                .submittedEvents(terms.contract(), job.id(), job.fundedBlock(), chain.head())
                .isEmpty();
        continue;
      }
      byte[] onChain = submitted.get(0).value();
      if (!Arrays.equals(onChain, contentHash.bytes())) {
        throw new InvalidDocumentException(
            "/content_hash",
            "job "
                + job.id()
                + " was submitted on chain with deliverable 0x"
                + HexFormat.of().formatHex(onChain)
                + ", but this deliverable's SHA-256 is 0x"
                + contentHash.hex()
                + ": deliver the content that was submitted");
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    String list = missing.size() == 1 ? "job " + missing.get(0) : "jobs " + missing;
    if (shallow) {
      throw notYetConfirmed(list + "'s JobSubmitted event");
    }
    throw new ChainNotReadyException(
        list
            + (missing.size() == 1 ? " has" : " have")
            + " no submission on chain: the provider calls submit(jobId, 0x"
            + contentHash.hex()
            + ") on "
            + terms.contract()
            + " from "
            + terms.provider()
            + " for "
            + (jobs.size() == 1 ? "it" : "each of the agreement's " + jobs.size() + " jobs")
            + ", then delivers once "
            + (missing.size() == 1 ? "it has " : "they have ")
            + chain.confirmations()
            + " confirmation(s)",
        retryAfter());
  }

  /**
   * One outbox instruction per job: {@code complete} for the jobs whose budgets make the released
   * share, a refund for the rest. Each is its own transaction, with the single job's guarantees.
   */
  @Override
  public List<Write> settle(Agreement a, Settlement split, String reason, Instant now) {
    List<FundedJob> jobs = fundedJobs(a);
    List<BigInteger> budgets = jobs.stream().map(FundedJob::budget).toList();
    BigInteger released = new BigInteger(X402.atomicAmount(split.released()));
    // Enforcement.settle divides by split(), and checkRuling refuses other rulings.
    List<Integer> paying =
        JobSplit.jobsPaying(budgets, released)
            .orElseThrow(() ->
                new IllegalStateException(
                    "agreement "
                        + a.id()
                        + " would release "
                        + released
                        + " atomic units, which no set of its ERC-8183 jobs "
                        + budgets
                        + " holds"));
    Terms terms = Terms.of(binding(a));
    byte[] digest = reasonDigest(a, reason);
    List<Write> writes = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      // The binding's chain (checked at creation to be the node's): closing never waits on the
      // node.
      Erc8183Courier.Instruction instruction =
          new Erc8183Courier.Instruction(
              terms.chainId(),
              terms.contract(),
              jobs.get(i).id(),
              paying.contains(i) ? Erc8183Courier.Call.COMPLETE : Erc8183Courier.Call.REFUND,
              digest);
      writes.add(
          new Write.Enqueue(
              new OutboxMessage(
                  messageId(a, i, jobs.size(), instruction.call()),
                  a.id(),
                  Erc8183Courier.KIND_PREFIX + instruction.call().wireName(),
                  "eip155:" + instruction.chainId() + ":" + terms.contract(),
                  Json.write(instruction.toJson()),
                  now,
                  0)));
    }
    return writes;
  }

  /**
   * The outbox message of job {@code index}'s instruction; an escrow of one job keeps the id it
   * always had.
   */
  private static String messageId(Agreement a, int index, int count, Erc8183Courier.Call call) {
    return messagePrefix(a, index, count) + call.wireName();
  }

  /**
   * The {@code reason} the contract records: the verification result's seal when the result
   * decided, else the SHA-256 of the agreement id and what ended it (a timeout, a ruling).
   */
  private static byte[] reasonDigest(Agreement a, String reason) {
    if ("verification_result".equals(reason)) {
      Optional<String> seal = a.facts().verification().map(v -> v.evaluationHash());
      if (seal.isPresent()) {
        try {
          return Digest.parse(seal.get()).bytes();
        } catch (RuntimeException e) {
          // an older result without a well-formed seal: fall through to the named reason
        }
      }
    }
    return Digest.sha256((a.id() + ":" + reason).getBytes(StandardCharsets.UTF_8)).bytes();
  }

  /**
   * What a client needs to create and fund the jobs ({@code jobs_to_create}, in order), then the
   * jobs as funded with their state on chain, and the server's transactions with the gas each used.
   */
  @Override
  public ObjectNode describe(Agreement a) {
    ObjectNode o = Json.object();
    ObjectNode view = o.putObject("erc8183");
    Terms terms;
    JobSplit split;
    try {
      terms = Terms.of(binding(a));
      split = Enforcement.isFunded(a) ? fundedSplit(a) : jobSplit(a);
    } catch (InvalidDocumentException | IllegalArgumentException e) {
      o.put("erc8183_unavailable", e.getMessage());
      return o;
    }
    view.put("contract_address", terms.contract());
    view.put("chain_id", terms.chainId());
    view.put("evaluator_address", chain.attestor());
    view.put("provider_address", terms.provider());
    if (terms.client() != null) {
      view.put("client_address", terms.client());
    }
    view.put("budget_atomic", atomic(a).toString());
    if (split.size() == 1) {
      view.put("description", description(a, 0, 1));
    }
    view.put("expired_at_min_seconds_after_funding", Enforcement.settlementHorizon(a).toSeconds());
    view.put("confirmations", chain.confirmations());
    ArrayNode create = view.putArray("jobs_to_create");
    List<BigInteger> budgets = split.budgets(atomic(a));
    for (int i = 0; i < split.size(); i++) {
      create
          .addObject()
          .put("budget_atomic", budgets.get(i).toString())
          .put("release_percent", split.percents().get(i))
          .put("provider_address", terms.provider())
          .put("evaluator_address", chain.attestor())
          .put("description", description(a, i, split.size()));
    }
    List<ChainTransaction> sent = transactions.ofAgreement(a.id());
    if (Enforcement.isFunded(a)) {
      List<FundedJob> jobs = fundedJobs(a);
      if (jobs.size() == 1) {
        view.put("job_id", jobs.get(0).id().toString());
      }
      ArrayNode ids = view.putArray("job_ids");
      ArrayNode list = view.putArray("jobs");
      long total = 0;
      boolean anyGas = false;
      for (int i = 0; i < jobs.size(); i++) {
        FundedJob job = jobs.get(i);
        ids.add(job.id().toString());
        ObjectNode j = list.addObject();
        j.put("job_id", job.id().toString());
        j.put("budget_atomic", job.budget().toString());
        j.put("release_percent", job.percent());
        try {
          j.put(
              "status", chain.job(terms.contract(), job.id(), chain.head()).status().displayName());
        } catch (ChainUnavailableException e) {
          j.put("status_unavailable", e.getMessage()); // the view answers without the chain
        }
        for (ChainTransaction tx : sent) {
          if (tx.messageId().startsWith(messagePrefix(a, i, jobs.size()))) {
            j.put("call", tx.call());
            j.put("tx_hash", tx.txHash());
            if (tx.gasUsed() != null) {
              j.put("gas_used", tx.gasUsed());
              total += tx.gasUsed();
              anyGas = true;
            }
          }
        }
      }
      if (anyGas) {
        view.put("gas_used_total", total);
      }
    }
    ArrayNode list = view.putArray("transactions");
    for (ChainTransaction tx : sent) {
      ObjectNode t = list.addObject();
      t.put("message_id", tx.messageId());
      t.put("call", tx.call());
      t.put("tx_hash", tx.txHash());
      t.put("nonce", tx.nonce());
      t.put("status", tx.status().name().toLowerCase(Locale.ROOT));
      if (tx.blockNumber() != null) {
        t.put("block_number", tx.blockNumber());
      }
      t.put("confirmations", tx.confirmations());
      if (tx.gasUsed() != null) {
        t.put("gas_used", tx.gasUsed());
      }
      if (!tx.replacedHashes().isEmpty()) {
        ArrayNode replaced = t.putArray("replaced_hashes"); // same nonce, a lower fee: never mined
        tx.replacedHashes().forEach(replaced::add);
      }
      t.put("signed_at", tx.signedAt().toString());
      t.put("observed_at", tx.observedAt().toString());
    }
    return o;
  }

  /** What job {@code index}'s outbox message ids begin with (then the call). */
  private static String messagePrefix(Agreement a, int index, int count) {
    return "msg_" + a.id() + "_erc8183_" + (count == 1 ? "" : "job" + (index + 1) + "_");
  }

  /**
   * The description job {@code index} of {@code count} must carry to fund this agreement, in that
   * place, and no other; a single job's names the agreement alone, as it always did.
   */
  static String description(Agreement a, int index, int count) {
    return "ASA agreement " + a.id() + (count == 1 ? "" : " job " + (index + 1) + " of " + count);
  }

  private static JsonNode binding(Agreement a) {
    return a.member("escrow").path("binding");
  }

  private static Money amount(Agreement a) {
    return a.terms().escrow().paymentTerms().orElseThrow().amount();
  }

  private static BigInteger atomic(Agreement a) {
    return new BigInteger(X402.atomicAmount(amount(a)));
  }

  private ChainNotReadyException notYetConfirmed(String what) {
    return new ChainNotReadyException(
        what
            + " in a block with fewer than "
            + chain.confirmations()
            + " confirmation(s) (this server trusts nothing shallower, a reorg could undo it):"
            + " retry shortly",
        retryAfter());
  }

  private static Duration retryAfter() {
    return Duration.ofSeconds(12);
  }
}
