package dev.asa.server.escrow.erc8183;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.web3j.crypto.Credentials;

/**
 * The operator's ERC-8183 settings ({@code asa serve --erc8183-rpc URL --erc8183-key FILE}).
 *
 * @param rpc the chain's JSON-RPC endpoint; named by the operator, so it is trusted like the
 *     database URL (a client's binding never names where the server connects)
 * @param keyFile the attestor's private key, {@code 0x} and 64 hex digits: the server is the
 *     evaluator of every job it attests, and signs complete, reject and claimRefund with it
 * @param confirmations how deep a block must be before the server trusts what it shows (funding, a
 *     submission, its own transactions); a reorg shallower than this changes nothing it decided
 * @param gasLimit the gas limit of each transaction it sends (unused gas is not charged)
 * @param contracts the job contracts this server attests jobs on, lower-case; empty for any. A job
 *     contract is code the escrow's money depends on (one that lies in {@code getJob} holds
 *     nothing), and the server spends gas on every contract it attests: an operator names the ones
 *     it has reviewed
 */
public record Erc8183Settings(
    URI rpc, Path keyFile, int confirmations, long gasLimit, Set<String> contracts) {
  public static final int DEFAULT_CONFIRMATIONS = 3;
  public static final long DEFAULT_GAS_LIMIT = 300_000;
  private static final Pattern PRIVATE_KEY = Pattern.compile("(0x)?[0-9a-fA-F]{64}");

  public Erc8183Settings {
    Objects.requireNonNull(rpc, "rpc");
    Objects.requireNonNull(keyFile, "keyFile");
    if (!("http".equals(rpc.getScheme()) || "https".equals(rpc.getScheme()))
        || rpc.getHost() == null) {
      throw new IllegalArgumentException(
          "the ERC-8183 RPC is an http(s) URL with a host, not '" + rpc + "'");
    }
    if (confirmations < 1) {
      throw new IllegalArgumentException("confirmations must be at least 1, not " + confirmations);
    }
    if (gasLimit < 21_000) {
      throw new IllegalArgumentException("a gas limit under 21000 cannot pay for any call");
    }
    Set<String> lower = new TreeSet<>();
    for (String c : contracts) {
      if (!Addresses.isAddress(c)) {
        throw new IllegalArgumentException(
            "a job contract is an EVM address, 0x and 40 hex digits, not '" + c + "'");
      }
      lower.add(c.toLowerCase(Locale.ROOT));
    }
    contracts = Collections.unmodifiableSet(lower);
  }

  public static Erc8183Settings of(URI rpc, Path keyFile) {
    return new Erc8183Settings(rpc, keyFile, DEFAULT_CONFIRMATIONS, DEFAULT_GAS_LIMIT, Set.of());
  }

  public Erc8183Settings withConfirmations(int n) {
    return new Erc8183Settings(rpc, keyFile, n, gasLimit, contracts);
  }

  /** Only jobs on these contracts are attested (none given: any contract). */
  public Erc8183Settings withContracts(Set<String> addresses) {
    return new Erc8183Settings(rpc, keyFile, confirmations, gasLimit, addresses);
  }

  /** Whether this server attests jobs on the contract at {@code address}. */
  public boolean attests(String address) {
    return contracts.isEmpty() || contracts.contains(address.toLowerCase(Locale.ROOT));
  }

  /**
   * The attestor's address (the evaluator every job must name), read from the key file.
   *
   * @throws IllegalArgumentException naming the file when it cannot be read or holds no key
   */
  /**
   * Whether this build carries the chain client (web3j); the lean distribution leaves it out, and
   * the binding with it. Asks without loading it.
   */
  public static boolean inThisBuild() {
    return Erc8183Settings.class.getClassLoader().getResource("org/web3j/crypto/Credentials.class")
        != null;
  }

  public String attestorAddress() {
    return credentials().getAddress();
  }

  /** The attestor key read from its file; the error names the file, never its content. */
  Credentials credentials() {
    String text;
    try {
      text = Files.readString(keyFile, StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the ERC-8183 key file " + keyFile + ": " + e);
    }
    if (!PRIVATE_KEY.matcher(text).matches()) {
      throw new IllegalArgumentException(
          "the ERC-8183 key file "
              + keyFile
              + " must hold one secp256k1 private key: 0x and 64 hex digits");
    }
    return Credentials.create(text);
  }
}
