package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.client.EscrowView;
import dev.asa.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The escrow commands (fund, escrow, ruling, accounts show) and the escrow options of serve,
 * without a server: what each refuses, naming the argument at fault, and how the answers read.
 */
class EscrowCommandsTest {

  record Result(int status, String out, String err) {}

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(Map.of())
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aReleasePercentIsANumberFrom0To100WithAtMostTwoDecimals() throws Exception {
    assertThat(RulingCommand.releasePercent("0")).isEqualByComparingTo("0");
    assertThat(RulingCommand.releasePercent("100")).isEqualByComparingTo("100");
    assertThat(RulingCommand.releasePercent("33.33").toPlainString()).isEqualTo("33.33");
    for (String bad :
        new String[] {"100.01", "101", "-5", "33.333", "1e2", "half", "", ".5", "50."}) {
      assertThatThrownBy(() -> RulingCommand.releasePercent(bad))
          .as(bad)
          .isInstanceOf(UsageException.class)
          .hasMessage(
              "--release-percent must be a number from 0 to 100 with at most 2 decimals, such as 60 or 33.33, not '"
                  + bad
                  + "'");
    }
  }

  @Test
  void aBadRulingExitsTwoNamingTheOption() {
    Result percent =
        run("agreements", "ruling", "asa-1", "--release-percent", "150", "--reason", "partly done");
    assertThat(percent.status()).isEqualTo(2);
    assertThat(percent.err())
        .startsWith(
            "asa agreements ruling: --release-percent must be a number from 0 to 100 with at most 2 decimals"
                + ", such as 60 or 33.33, not '150'\nusage: asa agreements ruling ID --release-percent N --reason TEXT\n");

    Result missing = run("agreements", "ruling", "asa-1", "--release-percent", "50");
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err()).startsWith("asa agreements ruling: missing --reason TEXT\n");

    Result blank =
        run("agreements", "ruling", "asa-1", "--release-percent", "50", "--reason", "  ");
    assertThat(blank.status()).isEqualTo(2);
    assertThat(blank.err()).startsWith("asa agreements ruling: --reason must not be blank");

    assertThat(run("agreements", "ruling", "--release-percent", "50", "--reason", "x").err())
        .startsWith("asa agreements ruling: missing ID\n");
    assertThat(run("agreements", "ruling", "asa-1", "--reason", "x").err())
        .startsWith("asa agreements ruling: missing --release-percent N\n");
  }

  @Test
  void badServeEscrowOptionsExitTwoNamingTheOption(@TempDir Path dir) throws Exception {
    Result noEquals =
        run("serve", "--port", "0", "--data-dir", dir.toString(), "--dispute-endpoint", "ajp");
    assertThat(noEquals.status()).isEqualTo(2);
    assertThat(noEquals.err())
        .startsWith(
            "asa serve: --dispute-endpoint takes PROTOCOL=URL such as ajp=https://disputes.example/ajp, not 'ajp'\n");

    assertThat(run("serve", "--dispute-endpoint", "=https://disputes.example/").err())
        .startsWith("asa serve: --dispute-endpoint takes PROTOCOL=URL");
    assertThat(run("serve", "--dispute-endpoint", "ajp=disputes.example/ajp").err())
        .startsWith(
            "asa serve: --dispute-endpoint ajp must be an http(s) URL with a host, such as https://payments.example/, not 'disputes.example/ajp'");
    assertThat(
            run(
                    "serve",
                    "--dispute-endpoint",
                    "ajp=https://a.example/",
                    "--dispute-endpoint",
                    "ajp=https://b.example/")
                .err())
        .startsWith("asa serve: --dispute-endpoint names the protocol 'ajp' more than once");
    assertThat(
            run(
                    "serve",
                    "--callback-url-prefix",
                    "https://pay.example/",
                    "--callback-url-prefix",
                    "ftp://pay.example/")
                .err())
        .startsWith(
            "asa serve: --callback-url-prefix must be an http(s) URL with a host, such as https://payments.example/, not 'ftp://pay.example/'");
    assertThat(run("serve", "--callback-url-prefix", "https://pay.example").err())
        .startsWith(
            "asa serve: --callback-url-prefix must end the host with a path, such as https://pay.example/, not 'https://pay.example'");
    assertThat(run("serve", "--x402-facilitator", "http://").err())
        .startsWith("asa serve: --x402-facilitator must be an http(s) URL with a host");
    assertThat(run("serve", "--delivery-timeout", "0").err())
        .startsWith("asa serve: --delivery-timeout must be a whole number from 1 to 3600, not '0'");
    assertThat(
            run(
                    "serve",
                    "--x402-facilitator",
                    "https://a.example/",
                    "--x402-facilitator",
                    "https://b.example/")
                .err())
        .startsWith("asa serve: --x402-facilitator is given more than once");

    assertThat(run("serve", "--erc8183-rpc", "https://rpc.example/").err())
        .startsWith("asa serve: --erc8183-rpc and --erc8183-key go together");
    Path notAKey = Files.writeString(dir.resolve("attestor.key"), "not a key\n");
    assertThat(run("serve", "--erc8183-rpc", "http://", "--erc8183-key", notAKey.toString()).err())
        .startsWith("asa serve: --erc8183-rpc must be an http(s) URL with a host");
    // Each with a reachable-looking RPC and the key file above, and one more flag.
    String[] erc8183 = {
      "serve", "--erc8183-rpc", "https://rpc.example/", "--erc8183-key", notAKey.toString()
    };
    assertThat(run(erc8183).err())
        .startsWith("asa serve: --erc8183-key: the ERC-8183 key file " + notAKey)
        .contains("0x and 64 hex digits")
        .doesNotContain("not a key");
    assertThat(run(with(erc8183, "--erc8183-confirmations", "0")).err())
        .startsWith(
            "asa serve: --erc8183-confirmations must be a whole number, 1 or more, not '0'");
    assertThat(run(with(erc8183, "--erc8183-contract", "0xdef456")).err())
        .startsWith(
            "asa serve: --erc8183-contract: a job contract is an EVM address, 0x and 40 hex digits,"
                + " not '0xdef456'");

    Result noKey = run("serve", "--arbiter-key", dir.resolve("arbiter.pub").toString());
    assertThat(noKey.status()).isEqualTo(5);
    assertThat(noKey.err())
        .isEqualTo("asa serve: no such file: " + dir.resolve("arbiter.pub") + "\n");
  }

  @Test
  void fundRefusesAPayloadFileThatIsNotAJsonObject(@TempDir Path dir) throws Exception {
    Path array = Files.writeString(dir.resolve("payload.json"), "[1, 2]");
    Result r = run("agreements", "fund", "asa-1", "--x402-payload", array.toString());
    assertThat(r.status()).isEqualTo(5);
    assertThat(r.err())
        .isEqualTo(
            "asa agreements fund: --x402-payload "
                + array
                + " must hold a JSON object: the x402 PaymentPayload\n");

    Path payload =
        Files.writeString(dir.resolve("ok.json"), "{\"x402Version\": 1, \"payload\": {}}");
    assertThat(Json.write(FundCommand.body(payload.toString())))
        .isEqualTo("{\"x402\":{\"x402Version\":1,\"payload\":{}}}");

    assertThat(Json.write(FundCommand.jobBody("7"))).isEqualTo("{\"erc8183\":{\"job_id\":\"7\"}}");
    assertThat(Json.write(FundCommand.jobBody("7,8,9")))
        .isEqualTo("{\"erc8183\":{\"job_ids\":[\"7\",\"8\",\"9\"]}}");
    assertThat(run("agreements", "fund", "asa-1", "--erc8183-job", "7,,9").err())
        .contains("not ''");
    Result notAJob = run("agreements", "fund", "asa-1", "--erc8183-job", "0x07");
    assertThat(notAJob.status()).isEqualTo(2);
    assertThat(notAJob.err())
        .startsWith("asa agreements fund: --erc8183-job is the job's id, a whole number from 1");
    Result both =
        run(
            "agreements",
            "fund",
            "asa-1",
            "--erc8183-job",
            "7",
            "--x402-payload",
            payload.toString());
    assertThat(both.status()).isEqualTo(2);
    assertThat(both.err()).contains("fund different escrows");
  }

  @Test
  void accountsShowNeedsAKeyOrASigningKey() {
    Result none = run("accounts", "show");
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.err())
        .startsWith(
            "asa accounts show: missing KEY: give a public key, or --key FILE to show your own account\n");

    Result bad = run("accounts", "show", "not-a-key!");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err())
        .startsWith("asa accounts show: KEY must be a public key in base64url or a did:key");
  }

  @Test
  void theNewCommandsAreListedWithTheirHelp() {
    assertThat(run("agreements", "--help").out())
        .contains("agreements fund")
        .contains("agreements escrow")
        .contains("agreements ruling");
    assertThat(run("agreements", "--help").out()).contains("agreements stake");
    assertThat(run("agreements", "stake", "--help").out())
        .startsWith("usage: asa agreements stake ID\n");
    assertThat(run("accounts", "--help").out()).contains("accounts show");
    assertThat(run("agreements", "fund", "--help").out())
        .startsWith(
            "usage: asa agreements fund ID [--x402-payload FILE | --erc8183-job"
                + " JOB_ID[,JOB_ID...]]\n");
    assertThat(run("serve", "--help").out())
        .contains("--dispute-endpoint PROTOCOL=URL")
        .contains("--arbiter-key FILE")
        .contains("--callback-url-prefix URL")
        .contains("--x402-facilitator URL")
        .contains("--erc8183-rpc URL")
        .contains("--erc8183-key FILE")
        .contains("--erc8183-contract ADDRESS")
        .contains("--delivery-timeout SECONDS");
  }

  @Test
  void theEscrowSummaryListsTransfersAndMessages() throws Exception {
    String summary =
        EscrowCommand.summary(
            escrow(
                """
                {"agreement_id":"asa-1","state":"DELIVERED","binding":"http_callback","enabled":true,"amount":"10.00","currency":"USD",
                 "status":"held","balances":{"USD":"10.00"},
                 "transfers":[
                  {"transfer_id":"t1","kind":"fund","from":"external:http_callback","to":"party:C","amount":"10.00","currency":"USD","at":"2026-03-26T10:00:00Z"},
                  {"transfer_id":"t2","kind":"hold","from":"party:C","to":"escrow:asa-1","amount":"10.00","currency":"USD","at":"2026-03-26T10:00:00Z"}],
                 "messages":[
                  {"webhook_id":"msg_1","kind":"escrow.hold","destination":"https://pay.example/hook","status":"delivered","attempts":1,
                   "delivered_at":"2026-03-26T10:00:01Z","response":"ok"},
                  {"webhook_id":"msg_2","kind":"escrow.release","destination":"https://pay.example/hook","status":"pending","attempts":2,
                   "next_attempt_at":"2026-03-26T10:05:00Z","last_error":"HTTP 503"}]}\
                """));

    assertThat(summary)
        .startsWith(
            """
            agreement  asa-1
            state      DELIVERED
            escrow     http_callback, 10.00 USD
            status     held
            balance    10.00 USD
            """);
    assertThat(summary)
        .contains(
            """
            KIND  AMOUNT     FROM                    TO            AT
            fund  10.00 USD  external:http_callback  party:C       2026-03-26T10:00:00Z
            hold  10.00 USD  party:C                 escrow:asa-1  2026-03-26T10:00:00Z
            """);
    assertThat(summary)
        .contains(
            """
            MESSAGE  KIND            STATUS     ATTEMPTS  DESTINATION               DETAIL
            msg_1    escrow.hold     delivered  1         https://pay.example/hook  delivered at 2026-03-26T10:00:01Z
            msg_2    escrow.release  pending    2         https://pay.example/hook  next attempt at 2026-03-26T10:05:00Z; last error: HTTP 503
            """);
  }

  @Test
  void anX402EscrowSaysItsPaymentRequirementsAreGiven() throws Exception {
    String summary =
        EscrowCommand.summary(
            escrow(
                """
                {"agreement_id":"asa-1","state":"ACTIVE","binding":"x402","enabled":true,"amount":"10.00",
                 "currency":"USDC","status":"unfunded","balances":{},"transfers":[],"messages":[],
                 "x402_requirements":{"scheme":"upto","network":"eip155:84532","amount":"10000000",
                  "asset":"0x036CbD53842c5426634e7929541eC2318f3dCF7e",
                  "payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","maxTimeoutSeconds":259500}}\
                """));

    assertThat(summary)
        .startsWith(
            """
            agreement  asa-1
            state      ACTIVE
            escrow     x402, 10.00 USDC
            status     unfunded
            balance    none
            payment    x402 payment requirements given (--json shows them)

            no transfers
            """);
  }

  @Test
  void aStakeAndTheCollateralOfAnEscrowReadAsSentences() throws Exception {
    assertThat(
            StakeCommand.summary(
                Json.parse(
                    """
                    {"state":"ACTIVE","agreement":{"metadata":{"collateral":{"status":"held","amount":"3.00",
                     "currency":"USD","collateral_account":"collateral:asa-1","staked_at":"2026-03-26T10:00:00Z"}}}}\
                    """)))
        .isEqualTo("staked 3.00 USD into collateral:asa-1; state ACTIVE\n");
    String slashed =
        EscrowCommand.summary(
            escrow(
                """
                {"agreement_id":"asa-1","state":"CLOSED","binding":"ledger","enabled":true,"amount":"10.00",
                 "currency":"USD","status":"settled","balances":{"USD":"0.00"},"transfers":[],"messages":[],
                 "collateral":{"amount":"3.00","currency":"USD","slash_on":["verification_failure"],
                  "slash_percent":40,"status":"slashed","slashed":"1.20","returned":"1.80",
                  "trigger":"verification_failure","collateral_account":"collateral:asa-1","balances":{}}}\
                """));
    assertThat(slashed)
        .contains(
            "collateral  3.00 USD slashed (verification_failure): 1.20 USD to the client, 1.80 USD"
                + " back\n");
    assertThat(
            EscrowCommand.collateral(
                new EscrowView.Collateral(
                    new BigDecimal("3.00"),
                    "USD",
                    "awaiting",
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty())))
        .isEqualTo("3.00 USD awaiting the provider's stake");
  }

  @Test
  void summariesOfAnEmptyEscrowAndARulingWithoutMoney() throws Exception {
    assertThat(
            EscrowCommand.summary(
                escrow(
                    """
                    {"agreement_id":"a","state":"ACTIVE","binding":"ledger","enabled":false,"status":"not_required",
                     "balances":{},"transfers":[],"messages":[]}\
                    """)))
        .contains(
            "escrow     ledger (disabled), no amount\nstatus     not required\nbalance    none\n")
        .contains("no transfers\n")
        .endsWith("no payment messages\n");

    assertThat(
            RulingCommand.summary(
                "a",
                Json.parse(
                    """
                    {"state":"CLOSED","agreement":{"metadata":{"settlement":{"amount":"10.00","currency":"USD","released_to_provider":"2.50",
                     "refunded_to_client":"7.50","money_moved":false,"note":"the escrow was never funded: nothing was held, nothing moved",
                     "ruling":{"release_percent":25.0}}}}}\
                    """)))
        .isEqualTo(
            "ruled on a; state CLOSED\nreleased 2.50 USD to the provider (25%), 7.50 USD back to the client\n"
                + "the escrow was never funded: nothing was held, nothing moved\n");
  }

  private static EscrowView escrow(String answer) throws Exception {
    return EscrowView.from(Json.parse(answer));
  }

  private static String[] with(String[] args, String... more) {
    String[] all = Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }
}
