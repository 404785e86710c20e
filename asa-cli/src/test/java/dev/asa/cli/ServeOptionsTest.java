package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.integrity.QualificationPolicy;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.config.Observability;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.reputation.ReputationConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code asa serve}'s options, typed by picocli, as the {@link ServerConfig} the server starts
 * with; and a bad value, from the command line or the environment, as the message asa prints.
 */
class ServeOptionsTest {

  /** The configuration the options make, the environment as {@code asa} gives it. */
  private static ServerConfig config(Map<String, String> env, String... tokens) throws Exception {
    ServeCommand serve = new ServeCommand();
    Io io = new Io(System.in, System.out, System.err, env);
    new CommandLine(serve).setDefaultValueProvider(new EnvDefaults(io)).parseArgs(tokens);
    return serve.config(new Session(io, null, null, false));
  }

  record Result(int status, String err) {}

  private static Result run(Map<String, String> env, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(env)
            .run(
                args,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(status, err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void withNoOptionsTheServersDefaultsApply() throws Exception {
    ServerConfig c = config(Map.of());
    ServerConfig d = ServerConfig.defaults();
    assertThat(c.host()).isEqualTo(d.host());
    assertThat(c.port()).isEqualTo(ServerConfig.DEFAULT_PORT);
    assertThat(c.dataDir()).isEqualTo(d.dataDir());
    assertThat(c.dbUrl()).isNull();
    assertThat(c.operatorKey()).isNull();
    assertThat(c.requestsPerSecondPerKey()).isEqualTo(d.requestsPerSecondPerKey());
    assertThat(c.burstPerKey()).isEqualTo(d.burstPerKey());
    assertThat(c.negotiationPolicy()).isEqualTo(NegotiationPolicy.DEFAULTS);
    assertThat(c.escrow()).isEqualTo(EscrowConfig.DEFAULTS);
    assertThat(c.reputation()).isEqualTo(ReputationConfig.DEFAULTS);
    assertThat(c.retention()).isNull();
    assertThat(c.fetchPolicy().allowedPrefixes()).isEmpty();
    assertThat(c.publicUrls().urls()).isEmpty();
    assertThat(c.verification().workers()).isEqualTo(2);
    assertThat(c.verification().runsCode()).isFalse();
    assertThat(c.assignment()).isEqualTo(d.assignment());
    assertThat(c.qualification()).isEqualTo(QualificationPolicy.DEFAULTS);
    assertThat(c.canaries()).isNull();
    assertThat(c.observability().logging()).isEqualTo(Observability.Logging.DEFAULTS);
  }

  @Test
  void eachOptionSetsItsSetting() throws Exception {
    ServerConfig c =
        config(
            Map.of(),
            "--host=0.0.0.0",
            "--port=9090",
            "--public-url=https://asa.example.com",
            "--data-dir=/srv/asa",
            "--db=postgresql://asa@127.0.0.1:5432/asa",
            "--rate-limit=7",
            "--market-source=arp_market_data",
            "--negotiation-max-rounds=9",
            "--negotiation-max-shift=0.5",
            "--price-band=0.25, 4",
            "--negotiation-timeout=60",
            "--callback-url-prefix=https://pay.example/hooks/",
            "--x402-facilitator=https://x402.example/",
            "--dispute-endpoint=ajp=https://disputes.example/ajp",
            "--delivery-timeout=30",
            "--arp-endpoint=https://arp.example/signals",
            "--arp-window-days=90",
            "--retention-days=30",
            "--allow-fetch=http://127.0.0.1:9000/",
            "--verification-workers=4",
            "--rotation-max-consecutive=5",
            "--qualify-min-evaluations=10",
            "--qualify-canary-pass-rate=0.75",
            "--qualify-max-deviation=12.5",
            "--qualify-min-consensus=0",
            "--log-format=JSON",
            "--log-level=Debug",
            "--metrics-port=9464");
    assertThat(c.host()).isEqualTo("0.0.0.0");
    assertThat(c.port()).isEqualTo(9090);
    assertThat(c.publicUrls().urls()).containsExactly(URI.create("https://asa.example.com"));
    assertThat(c.dataDir()).isEqualTo(Path.of("/srv/asa"));
    assertThat(c.dbUrl()).isEqualTo("postgresql://asa@127.0.0.1:5432/asa");
    assertThat(c.requestsPerSecondPerKey()).isEqualTo(7);
    assertThat(c.burstPerKey()).isEqualTo(14);
    assertThat(c.trustedMarketSources()).containsExactly("arp_market_data");
    assertThat(c.negotiationPolicy())
        .isEqualTo(
            new NegotiationPolicy(
                9,
                new BigDecimal("0.5"),
                new BigDecimal("0.25"),
                new BigDecimal("4"),
                60,
                NegotiationPolicy.DEFAULTS.minClosedForMedian()));
    assertThat(c.escrow().callbackUrlPrefixes()).containsExactly("https://pay.example/hooks/");
    assertThat(c.escrow().x402Facilitator()).isEqualTo(URI.create("https://x402.example/"));
    assertThat(c.escrow().disputeEndpoints())
        .isEqualTo(Map.of("ajp", URI.create("https://disputes.example/ajp")));
    assertThat(c.escrow().deliveryTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.escrow().erc8183()).isNull();
    assertThat(c.reputation().arpEndpoint()).isEqualTo(URI.create("https://arp.example/signals"));
    assertThat(c.reputation().windowDays()).isEqualTo(90);
    assertThat(c.retention()).isEqualTo(Duration.ofDays(30));
    assertThat(c.fetchPolicy().allowedPrefixes()).containsExactly("http://127.0.0.1:9000/");
    assertThat(c.verification().workers()).isEqualTo(4);
    assertThat(c.assignment().defaultRotation().maxConsecutive()).isEqualTo(5);
    assertThat(c.qualification())
        .isEqualTo(new QualificationPolicy(10, new BigDecimal("0.75"), new BigDecimal("12.5"), 0));
    assertThat(c.observability().logging())
        .isEqualTo(new Observability.Logging(Observability.LogFormat.JSON, "debug"));
    assertThat(c.observability().metrics())
        .isEqualTo(Observability.MetricsEndpoint.separate("127.0.0.1", 9464));
  }

  @Test
  void theEnvironmentGivesWhatTheCommandLineDoesNot() throws Exception {
    Map<String, String> env =
        Map.of(
            "ASA_PORT", "9091",
            "ASA_DB_URL", "postgresql://old@127.0.0.1/asa",
            "ASA_RETENTION_DAYS", "7",
            "ASA_ARP_TRUST", "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK");
    ServerConfig c = config(env, "--port", "9092");
    assertThat(c.port()).isEqualTo(9092);
    assertThat(c.dbUrl()).isEqualTo("postgresql://old@127.0.0.1/asa");
    assertThat(c.retention()).isEqualTo(Duration.ofDays(7));
    assertThat(c.reputation().trusted()).hasSize(1);
    assertThat(config(Map.of("ASA_DB", "postgresql://new/asa", "ASA_DB_URL", "x")).dbUrl())
        .isEqualTo("postgresql://new/asa");
  }

  @Test
  void aBadValueFromTheEnvironmentNamesTheFlagAndTheVariable() {
    Result port = run(Map.of("ASA_PORT", "99999"), "serve");
    assertThat(port.status()).isEqualTo(2);
    assertThat(port.err())
        .startsWith(
            "asa serve: --port must be a whole number from 0 to 65535, not '99999' (from"
                + " ASA_PORT)\n");

    Result format = run(Map.of("ASA_LOG_FORMAT", "xml"), "serve");
    assertThat(format.status()).isEqualTo(2);
    assertThat(format.err())
        .startsWith(
            "asa serve: --log-format must be text or json, not 'xml' (from ASA_LOG_FORMAT)");

    Result endpoint = run(Map.of("ASA_DISPUTE_ENDPOINT", "ajp=nowhere"), "serve");
    assertThat(endpoint.err())
        .startsWith(
            "asa serve: --dispute-endpoint ajp must be an http(s) URL with a host, such as"
                + " https://payments.example/, not 'nowhere' (from ASA_DISPUTE_ENDPOINT)");
  }

  @Test
  void theCommandLineWinsOverABadEnvironmentValue() {
    // --port on the command line: ASA_PORT is not read, and the error is the other flag's.
    Result r = run(Map.of("ASA_PORT", "99999"), "serve", "--port", "0", "--rate-limit", "0");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("asa serve: --rate-limit must be a whole number from 1 to 1000000, not '0'\n");

    Result given = run(Map.of("ASA_PORT", "99999"), "serve", "--port=70000");
    assertThat(given.err())
        .startsWith("asa serve: --port must be a whole number from 0 to 65535, not '70000'\n");
  }

  @Test
  void eachKindOfValueIsRefusedNamingTheFlagAndWhatItTakes() {
    assertThat(run(Map.of(), "serve", "--price-band", "3,1").err())
        .startsWith(
            "asa serve: --price-band takes LOW,HIGH, two decimals with 0 <= LOW <= HIGH such as"
                + " 0.5,3.0, not '3,1'");
    assertThat(run(Map.of(), "serve", "--negotiation-max-shift", "a lot").err())
        .startsWith("asa serve: --negotiation-max-shift must be a decimal number, 0 or more");
    assertThat(run(Map.of(), "serve", "--negotiation-timeout", "0").err())
        .startsWith("asa serve: --negotiation-timeout must be a whole number, 1 or more, not '0'");
    assertThat(run(Map.of(), "serve", "--retention-days", "0").err())
        .startsWith("asa serve: --retention-days must be a whole number from 1 to 36500, not '0'");
    assertThat(run(Map.of(), "serve", "--code-sandbox", "yes").err())
        .startsWith("asa serve: --code-sandbox must be on or off, not 'yes'");
    assertThat(run(Map.of(), "serve", "--public-url", "https://asa.example.com/api").err())
        .startsWith("asa serve: --public-url is a scheme and authority");
    assertThat(run(Map.of(), "serve", "--arp-trust", "not-a-key").err())
        .startsWith("asa serve: --arp-trust must be a public key in base64url or a did:key");
    Result r = run(Map.of(), "serve", "--erc8183-confirmations", "many");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "asa serve: --erc8183-confirmations must be a whole number, 1 or more, not 'many'")
        .doesNotContain("Exception");
  }
}
