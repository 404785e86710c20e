package dev.asa.server.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.json.Json;
import dev.asa.server.escrow.erc8183.Erc8183Chain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.core.methods.response.VoidResponse;
import org.web3j.protocol.http.HttpService;
import org.web3j.utils.Numeric;

/**
 * A real local EVM for the erc8183 tests: a {@code hardhat node} from npm with the project's
 * AgenticCommerce contract and a 6-decimal test token deployed ({@code
 * src/test/node/erc8183/chain-server.mjs}). The parties act through the node's own unlocked
 * accounts ({@code eth_sendTransaction}), as a client's and a provider's wallets would; the
 * server's attestor uses its own key, as in production.
 */
final class LocalChain implements AutoCloseable {
  private static final Path DIR = Path.of("src/test/node/erc8183");
  private static final BigInteger GAS = BigInteger.valueOf(1_000_000);

  final String rpc;
  final String token;
  final String contract;
  final String client;
  final String provider;
  final String stranger;
  private final Process process;
  private final HttpService service;
  private final Web3j web3j;

  private LocalChain(Process process, String rpc, String token, String contract)
      throws IOException {
    this.process = process;
    this.rpc = rpc;
    this.token = token;
    this.contract = contract;
    this.service = new HttpService(rpc);
    this.web3j = Web3j.build(service);
    List<String> accounts = web3j.ethAccounts().send().getAccounts();
    this.client = accounts.get(1);
    this.provider = accounts.get(2);
    this.stranger = accounts.get(3);
  }

  static LocalChain start() throws Exception {
    NodeScripts.install(DIR, "hardhat");
    Process p = NodeScripts.start(DIR, "chain-server.mjs");
    String first = new BufferedReader(new InputStreamReader(p.getInputStream(), UTF_8)).readLine();
    assertThat(first).as("chain-server.mjs's first line").isNotNull();
    var info = Json.parse(first);
    return new LocalChain(
        p, info.path("rpc").asText(), info.path("token").asText(), info.path("contract").asText());
  }

  // --- the parties' calls -------------------------------------------------------------------

  void mint(String to, BigInteger amount) throws IOException {
    send(client, token, fn("mint", new Address(to), new Uint256(amount)));
  }

  void approve(String owner, BigInteger amount) throws IOException {
    send(owner, token, fn("approve", new Address(contract), new Uint256(amount)));
  }

  /** createJob by {@code from}, then setBudget and fund by it as well; the job's id. */
  BigInteger createAndFund(
      String from,
      String provider,
      String evaluator,
      Instant expiredAt,
      String description,
      BigInteger budget)
      throws IOException {
    BigInteger id = createJob(from, provider, evaluator, expiredAt, description);
    send(from, contract, fn("setBudget", new Uint256(id), new Uint256(budget)));
    send(from, contract, fn("fund", new Uint256(id), new Uint256(budget)));
    return id;
  }

  BigInteger createJob(
      String from, String provider, String evaluator, Instant expiredAt, String description)
      throws IOException {
    send(
        from,
        contract,
        fn(
            "createJob",
            new Address(provider),
            new Address(evaluator),
            new Uint256(expiredAt.getEpochSecond()),
            new Utf8String(description),
            new Address("0x0000000000000000000000000000000000000000")));
    return uint(contract, "jobCount");
  }

  void submit(BigInteger jobId, byte[] deliverable) throws IOException {
    send(provider, contract, fn("submit", new Uint256(jobId), new Bytes32(deliverable)));
  }

  void claimRefund(String from, BigInteger jobId) throws IOException {
    send(from, contract, fn("claimRefund", new Uint256(jobId)));
  }

  /** The job's status, in the contract's enum order (1 Funded ... 5 Expired). */
  int status(BigInteger jobId) throws IOException {
    Type<?> tuple =
        call(contract, "getJob", new TypeReference<Erc8183Chain.JobTuple>() {}, new Uint256(jobId));
    @SuppressWarnings("unchecked")
    List<Type<?>> job = (List<Type<?>>) tuple.getValue();
    return ((BigInteger) job.get(6).getValue()).intValueExact();
  }

  BigInteger balance(String who) throws IOException {
    return (BigInteger)
        call(token, "balanceOf", new TypeReference<Uint256>() {}, new Address(who)).getValue();
  }

  /** How many transactions {@code who} has had mined. */
  long transactionCount(String who) throws IOException {
    return web3j
        .ethGetTransactionCount(who, DefaultBlockParameterName.LATEST)
        .send()
        .getTransactionCount()
        .longValueExact();
  }

  Instant time() throws IOException {
    return Instant.ofEpochSecond(
        web3j
            .ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false)
            .send()
            .getBlock()
            .getTimestamp()
            .longValueExact());
  }

  /** Transactions waiting in the node's pool. */
  int pending() throws IOException {
    return web3j
        .ethGetBlockByNumber(DefaultBlockParameterName.PENDING, false)
        .send()
        .getBlock()
        .getTransactions()
        .size();
  }

  // --- the node's test controls ------------------------------------------------------------------

  void mine(int blocks) throws IOException {
    for (int i = 0; i < blocks; i++) {
      node("evm_mine");
    }
  }

  void travel(long seconds) throws IOException {
    node("evm_increaseTime", seconds);
    mine(1);
  }

  void automine(boolean on) throws IOException {
    node("evm_setAutomine", on);
  }

  /** A snapshot to return to with {@link #revert}: what the blocks after it held is undone. */
  String snapshot() throws IOException {
    return new Request<>("evm_snapshot", List.of(), service, SnapshotResponse.class)
        .send()
        .getResult();
  }

  void revert(String snapshot) throws IOException {
    node("evm_revert", snapshot);
  }

  /** Whether the transaction is in a block. */
  boolean mined(String txHash) throws IOException {
    return web3j.ethGetTransactionReceipt(txHash).send().getTransactionReceipt().isPresent();
  }

  /** The node's suggested gas price. */
  BigInteger gasPrice() throws IOException {
    return web3j.ethGasPrice().send().getGasPrice();
  }

  /** The base fee of the next block (later blocks move from it as EIP-1559 says). */
  void nextBaseFee(BigInteger wei) throws IOException {
    node("hardhat_setNextBlockBaseFeePerGas", Numeric.toHexStringWithPrefix(wei));
  }

  /** Takes a transaction out of the node's pool, as a node that never received it. */
  void drop(String txHash) throws IOException {
    node("hardhat_dropTransaction", txHash);
  }

  void fundWithEther(String who) throws IOException {
    node("hardhat_setBalance", who, "0x56BC75E2D63100000"); // 100 ether
  }

  private void node(String method, Object... params) throws IOException {
    VoidResponse r = new Request<>(method, List.of(params), service, VoidResponse.class).send();
    assertThat(r.hasError())
        .as("%s: %s", method, r.getError() == null ? "" : r.getError().getMessage())
        .isFalse();
  }

  /** The answer to evm_snapshot: the snapshot's id. */
  public static final class SnapshotResponse extends org.web3j.protocol.core.Response<String> {}

  private static String fn(String name, Type<?>... args) {
    return FunctionEncoder.encode(new Function(name, List.of(args), List.of()));
  }

  private BigInteger uint(String to, String name) throws IOException {
    return (BigInteger) call(to, name, new TypeReference<Uint256>() {}).getValue();
  }

  /** The one value a view function answers, read at the latest block. */
  private Type<?> call(String to, String name, TypeReference<?> answer, Type<?>... args)
      throws IOException {
    Function f = new Function(name, List.of(args), List.of(answer));
    String out =
        web3j
            .ethCall(
                Transaction.createEthCallTransaction(client, to, FunctionEncoder.encode(f)),
                DefaultBlockParameterName.LATEST)
            .send()
            .getValue();
    return FunctionReturnDecoder.decode(out, f.getOutputParameters()).get(0);
  }

  /** Sends from an unlocked account; with automine it is mined at once, and must succeed. */
  private void send(String from, String to, String data) throws IOException {
    var sent =
        web3j
            .ethSendTransaction(
                Transaction.createFunctionCallTransaction(from, null, null, GAS, to, data))
            .send();
    assertThat(sent.hasError())
        .as(
            "sending %s: %s",
            data.substring(0, 10), sent.getError() == null ? "" : sent.getError().getMessage())
        .isFalse();
    TransactionReceipt receipt =
        web3j
            .ethGetTransactionReceipt(sent.getTransactionHash())
            .send()
            .getTransactionReceipt()
            .orElseThrow();
    assertThat(receipt.isStatusOK()).as("transaction %s succeeded", data.substring(0, 10)).isTrue();
  }

  @Override
  public void close() {
    web3j.shutdown();
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
  }
}
