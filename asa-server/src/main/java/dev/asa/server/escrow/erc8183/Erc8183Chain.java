package dev.asa.server.escrow.erc8183;

import java.io.IOException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.web3j.abi.EventEncoder;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicStruct;
import org.web3j.abi.datatypes.Event;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionDecoder;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.EthCall;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.http.HttpService;
import org.web3j.utils.Numeric;

/**
 * An ERC-8183 job contract's chain, reached over JSON-RPC with web3j (ABI, secp256k1 signing,
 * transport: none of it written here), and the attestor key this server signs with.
 *
 * <p>What the server decides on (a job's funding, a provider's submission) is read at the {@link
 * #confirmedBlock confirmed block}, {@code confirmations - 1} below the head: a reorg shallower
 * than that cannot change it. A failure to get an answer is a {@link ChainUnavailableException}.
 */
public final class Erc8183Chain implements AutoCloseable {

  private static final Event JOB_FUNDED =
      new Event(
          "JobFunded",
          List.of(new TypeReference<Uint256>(true) {}, new TypeReference<Uint256>() {}));
  private static final Event JOB_SUBMITTED =
      new Event(
          "JobSubmitted",
          List.of(new TypeReference<Uint256>(true) {}, new TypeReference<Bytes32>() {}));

  private final Web3j web3j;
  private final Credentials attestor;
  private final Erc8183Settings settings;
  private volatile Long chainId;

  private Erc8183Chain(Web3j web3j, Credentials attestor, Erc8183Settings settings) {
    this.web3j = web3j;
    this.attestor = attestor;
    this.settings = settings;
  }

  /** Reads the attestor key (a bad file fails here, at start-up); connects lazily. */
  public static Erc8183Chain connect(Erc8183Settings settings) {
    return new Erc8183Chain(
        Web3j.build(new HttpService(settings.rpc().toString())), settings.credentials(), settings);
  }

  /** The server's attestor address: every job it serves names it as evaluator. */
  public String attestor() {
    return attestor.getAddress();
  }

  public String rpc() {
    return settings.rpc().toString();
  }

  public int confirmations() {
    return settings.confirmations();
  }

  /** The operator's settings (which contracts it attests jobs on, among them). */
  public Erc8183Settings settings() {
    return settings;
  }

  /** The chain id the node serves ({@code eth_chainId}), asked once. */
  public long chainId() {
    Long id = chainId;
    if (id == null) {
      id = answer("eth_chainId", web3j.ethChainId()).getChainId().longValueExact();
      chainId = id;
    }
    return id;
  }

  public long head() {
    return answer("eth_blockNumber", web3j.ethBlockNumber()).getBlockNumber().longValueExact();
  }

  /** The newest block with the required confirmations (the head counts as one). */
  public long confirmedBlock() {
    return Math.max(0, head() - settings.confirmations() + 1);
  }

  /** The latest block's timestamp: the chain's own "now", which {@code expiredAt} is checked by. */
  public Instant latestTime() {
    return Instant.ofEpochSecond(
        answer(
                "eth_getBlockByNumber",
                web3j.ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false))
            .getBlock()
            .getTimestamp()
            .longValueExact());
  }

  /** Whether {@code address} holds code (a contract) at the latest block. */
  public boolean hasCode(String address) {
    String code =
        answer("eth_getCode", web3j.ethGetCode(address, DefaultBlockParameterName.LATEST))
            .getCode();
    return code != null && code.length() > 2;
  }

  /** The job contract's token ({@code token()}), or empty when it has no such function. */
  public Optional<String> token(String contract) {
    Function f = new Function("token", List.of(), List.of(new TypeReference<Address>() {}));
    return call(contract, f, DefaultBlockParameterName.LATEST)
        .map(values -> values.get(0).getValue().toString());
  }

  /** The ERC-20's {@code decimals()}, or empty when it has none. */
  public Optional<Integer> decimals(String token) {
    Function f = new Function("decimals", List.of(), List.of(new TypeReference<Uint8>() {}));
    return call(token, f, DefaultBlockParameterName.LATEST)
        .map(values -> ((BigInteger) values.get(0).getValue()).intValueExact());
  }

  /** The job at {@code block}: {@link Job#exists()} is false for an id never created. */
  public Job job(String contract, BigInteger jobId, long block) {
    Function f =
        new Function(
            "getJob", List.of(new Uint256(jobId)), List.of(new TypeReference<JobTuple>() {}));
    List<Type> values =
        call(contract, f, DefaultBlockParameter.valueOf(BigInteger.valueOf(block)))
            .orElseThrow(() ->
                new ChainUnavailableException(
                    "the contract at "
                        + contract
                        + " has no ERC-8183 getJob(uint256) (block "
                        + block
                        + ")"));
    List<Type> job = ((JobTuple) values.get(0)).getValue();
    return new Job(
        jobId,
        job.get(0).getValue().toString(),
        job.get(1).getValue().toString(),
        job.get(2).getValue().toString(),
        (String) job.get(3).getValue(),
        (BigInteger) job.get(4).getValue(),
        Instant.ofEpochSecond(((BigInteger) job.get(5).getValue()).longValueExact()),
        JobStatus.of(((BigInteger) job.get(6).getValue()).intValueExact()));
  }

  /** A contract event for one job, as found in a block. */
  public record JobEvent(long block, String txHash, byte[] value) {
    public JobEvent {
      value = value.clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }
  }

  /**
   * The job's {@code JobFunded} events up to {@code toBlock}, searched from the chain's first block
   * (the server does not know when the client funded); the value is the amount.
   */
  public List<JobEvent> fundedEvents(String contract, BigInteger jobId, long toBlock) {
    return events(contract, JOB_FUNDED, jobId, DefaultBlockParameterName.EARLIEST, toBlock);
  }

  /**
   * The job's {@code JobSubmitted} events from {@code fromBlock} (its funding's: a job is submitted
   * after it is funded) up to {@code toBlock}; the value is the deliverable.
   */
  public List<JobEvent> submittedEvents(
      String contract, BigInteger jobId, long fromBlock, long toBlock) {
    return events(
        contract,
        JOB_SUBMITTED,
        jobId,
        DefaultBlockParameter.valueOf(BigInteger.valueOf(fromBlock)),
        toBlock);
  }

  private List<JobEvent> events(
      String contract, Event event, BigInteger jobId, DefaultBlockParameter from, long toBlock) {
    EthFilter filter =
        new EthFilter(from, DefaultBlockParameter.valueOf(BigInteger.valueOf(toBlock)), contract);
    filter.addSingleTopic(EventEncoder.encode(event));
    filter.addSingleTopic(Numeric.toHexStringWithPrefixZeroPadded(jobId, 64));
    List<JobEvent> found = new ArrayList<>();
    for (EthLog.LogResult<?> result : answer("eth_getLogs", web3j.ethGetLogs(filter)).getLogs()) {
      if (result instanceof EthLog.LogObject log && !log.isRemoved()) {
        byte[] data = Numeric.hexStringToByteArray(log.getData());
        found.add(
            new JobEvent(
                log.getBlockNumber().longValueExact(),
                log.getTransactionHash(),
                Arrays.copyOf(data, Math.min(32, data.length))));
      }
    }
    return found;
  }

  /** The attestor's next nonce as the node sees it, pending transactions included. */
  public long pendingNonce() {
    return answer(
            "eth_getTransactionCount",
            web3j.ethGetTransactionCount(attestor(), DefaultBlockParameterName.PENDING))
        .getTransactionCount()
        .longValueExact();
  }

  /** The attestor's next nonce counting mined transactions only. */
  public long minedNonce() {
    return answer(
            "eth_getTransactionCount",
            web3j.ethGetTransactionCount(attestor(), DefaultBlockParameterName.LATEST))
        .getTransactionCount()
        .longValueExact();
  }

  /** A transaction signed by the attestor, not sent. */
  public record Signed(long nonce, String rawTx, String txHash) {}

  /** {@code complete(jobId, reason)}, paying the provider. */
  public static String completeCall(BigInteger jobId, byte[] reason) {
    return FunctionEncoder.encode(
        new Function("complete", List.of(new Uint256(jobId), new Bytes32(reason)), List.of()));
  }

  /** {@code reject(jobId, reason)}, refunding the client. */
  public static String rejectCall(BigInteger jobId, byte[] reason) {
    return FunctionEncoder.encode(
        new Function("reject", List.of(new Uint256(jobId), new Bytes32(reason)), List.of()));
  }

  /** {@code claimRefund(jobId)}, refunding the client of an expired job. */
  public static String claimRefundCall(BigInteger jobId) {
    return FunctionEncoder.encode(
        new Function("claimRefund", List.of(new Uint256(jobId)), List.of()));
  }

  /**
   * Signs {@code data} to {@code contract} with this nonce, at twice the node's gas price (room for
   * the base fee to rise before it is mined), an EIP-155 legacy transaction.
   */
  public Signed sign(long nonce, String contract, String data) {
    BigInteger gasPrice =
        answer("eth_gasPrice", web3j.ethGasPrice()).getGasPrice().shiftLeft(1).max(BigInteger.ONE);
    RawTransaction tx =
        RawTransaction.createTransaction(
            BigInteger.valueOf(nonce),
            gasPrice,
            BigInteger.valueOf(settings.gasLimit()),
            contract,
            BigInteger.ZERO,
            data);
    String raw = Numeric.toHexString(TransactionEncoder.signMessage(tx, chainId(), attestor));
    return new Signed(nonce, raw, Hash.sha3(raw));
  }

  /**
   * A transaction to take the place of {@code rawTx} (one this attestor signed): the same nonce,
   * recipient and call, at a quarter more than its gas price, or twice the node's if that is more.
   * Only one of the two can ever be mined, since they share the nonce.
   */
  public Signed replacement(String rawTx) {
    RawTransaction old = TransactionDecoder.decode(rawTx);
    BigInteger bumped =
        old.getGasPrice().multiply(BigInteger.valueOf(5)).shiftRight(2).add(BigInteger.ONE);
    BigInteger gasPrice =
        bumped.max(answer("eth_gasPrice", web3j.ethGasPrice()).getGasPrice().shiftLeft(1));
    RawTransaction tx =
        RawTransaction.createTransaction(
            old.getNonce(),
            gasPrice,
            old.getGasLimit(),
            old.getTo(),
            BigInteger.ZERO,
            old.getData());
    String raw = Numeric.toHexString(TransactionEncoder.signMessage(tx, chainId(), attestor));
    return new Signed(old.getNonce().longValueExact(), raw, Hash.sha3(raw));
  }

  /** The gas price a signed transaction offers. */
  public static BigInteger gasPriceOf(String rawTx) {
    return TransactionDecoder.decode(rawTx).getGasPrice();
  }

  /**
   * Sends a signed transaction; empty when the node took it or already knows it, else the node's
   * reason for refusing it (a nonce already used, say).
   */
  public Optional<String> broadcast(String rawTx) {
    Response<?> r;
    try {
      r = web3j.ethSendRawTransaction(rawTx).send();
    } catch (IOException | RuntimeException e) {
      throw new ChainUnavailableException(
          "eth_sendRawTransaction at " + rpc() + " failed: " + e, e);
    }
    if (!r.hasError()) {
      return Optional.empty();
    }
    String message = String.valueOf(r.getError().getMessage());
    // The same bytes sent again: the node has them, in its pool or a block.
    return message.toLowerCase(Locale.ROOT).contains("already known")
            || message.toLowerCase(Locale.ROOT).contains("known transaction")
        ? Optional.empty()
        : Optional.of(message);
  }

  /** A transaction's receipt, as the node shows it now. */
  public record Receipt(long block, boolean succeeded, long gasUsed) {}

  /** The receipt, or empty while the transaction is not in a block (or was dropped by a reorg). */
  public Optional<Receipt> receipt(String txHash) {
    Optional<TransactionReceipt> r =
        answer("eth_getTransactionReceipt", web3j.ethGetTransactionReceipt(txHash))
            .getTransactionReceipt();
    return r.map(t ->
        new Receipt(
            t.getBlockNumber().longValueExact(), t.isStatusOK(), t.getGasUsed().longValueExact()));
  }

  /** The answer to an eth_call, or empty when the call reverted (no such function, say). */
  private Optional<List<Type>> call(String contract, Function f, DefaultBlockParameter block) {
    EthCall r;
    try {
      r =
          web3j
              .ethCall(
                  Transaction.createEthCallTransaction(
                      attestor(), contract, FunctionEncoder.encode(f)),
                  block)
              .send();
    } catch (IOException | RuntimeException e) {
      throw new ChainUnavailableException("eth_call at " + rpc() + " failed: " + e, e);
    }
    if (r.hasError()) {
      String message = String.valueOf(r.getError().getMessage());
      if (r.isReverted() || message.toLowerCase(Locale.ROOT).contains("revert")) {
        return Optional.empty();
      }
      throw new ChainUnavailableException("eth_call at " + rpc() + " failed: " + message);
    }
    if (r.isReverted() || r.getValue() == null || r.getValue().length() <= 2) {
      return Optional.empty();
    }
    try {
      List<Type> values = FunctionReturnDecoder.decode(r.getValue(), f.getOutputParameters());
      return values.isEmpty() ? Optional.empty() : Optional.of(values);
    } catch (RuntimeException e) {
      return Optional.empty(); // an answer that is not this function's: not the contract we need
    }
  }

  private <T extends Response<?>> T answer(String method, Request<?, T> request) {
    T r;
    try {
      r = request.send();
    } catch (IOException | RuntimeException e) {
      throw new ChainUnavailableException(method + " at " + rpc() + " failed: " + e, e);
    }
    if (r.hasError()) {
      throw new ChainUnavailableException(
          method + " at " + rpc() + " failed: " + r.getError().getMessage());
    }
    return r;
  }

  @Override
  public void close() {
    web3j.shutdown();
  }

  /** The {@code Job} struct {@code getJob} returns, for web3j's decoder. */
  public static final class JobTuple extends DynamicStruct {
    public JobTuple(
        Address client,
        Address provider,
        Address evaluator,
        Utf8String description,
        Uint256 budget,
        Uint256 expiredAt,
        Uint8 status) {
      super(client, provider, evaluator, description, budget, expiredAt, status);
    }
  }
}
