package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.config.Observability;
import dev.asa.server.config.Observability.LogFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code asa serve --log-format --log-level --metrics-port --metrics-bind}, and their ASA_ vars.
 */
class ServeObservabilityOptionsTest {

  /** The options as picocli fills them in, the environment as {@code asa} gives it. */
  private static Observability parse(Map<String, String> env, String... tokens)
      throws UsageException {
    ServeCommand serve = new ServeCommand();
    Io io = new Io(System.in, System.out, System.err, env);
    new CommandLine(serve).setDefaultValueProvider(new EnvDefaults(io)).parseArgs(tokens);
    return serve.observability();
  }

  @Test
  void byDefaultTextAtInfoAndMetricsOnTheMainPortForTheOperator() throws Exception {
    Observability o = parse(Map.of());
    assertThat(o.logging()).isEqualTo(new Observability.Logging(LogFormat.TEXT, "info"));
    assertThat(o.metrics()).isEqualTo(Observability.MetricsEndpoint.OPERATOR_SIGNED);
  }

  @Test
  void flagsChooseAndEnvironmentVariablesAreTheDefaults() throws Exception {
    Observability o =
        parse(Map.of(), "--log-format", "json", "--log-level", "DEBUG", "--metrics-port", "9464");
    assertThat(o.logging()).isEqualTo(new Observability.Logging(LogFormat.JSON, "debug"));
    assertThat(o.metrics()).isEqualTo(Observability.MetricsEndpoint.separate("127.0.0.1", 9464));

    Map<String, String> env =
        Map.of(
            "ASA_LOG_FORMAT", "json",
            "ASA_LOG_LEVEL", "warn",
            "ASA_METRICS_PORT", "9464",
            "ASA_METRICS_BIND", "0.0.0.0");
    Observability fromEnv = parse(env);
    assertThat(fromEnv.logging()).isEqualTo(new Observability.Logging(LogFormat.JSON, "warn"));
    assertThat(fromEnv.metrics())
        .isEqualTo(Observability.MetricsEndpoint.separate("0.0.0.0", 9464));
    assertThat(parse(env, "--log-format", "text").logging().format()).isEqualTo(LogFormat.TEXT);
  }

  @Test
  void badValuesAreRefusedNamingWhatIsAllowed() {
    // A value is refused as picocli converts it; asa prints it as "--log-format must be ...".
    assertThatThrownBy(() -> parse(Map.of(), "--log-format", "xml"))
        .isInstanceOf(ParameterException.class)
        .hasMessageContaining("--log-format")
        .hasMessageContaining("text or json");
    assertThatThrownBy(() -> parse(Map.of(), "--log-level", "loud"))
        .isInstanceOf(ParameterException.class)
        .hasMessageContaining("error, warn, info, debug, trace");
    assertThatThrownBy(() -> parse(Map.of(), "--metrics-port", "70000"))
        .isInstanceOf(ParameterException.class)
        .hasMessageContaining("--metrics-port");
    // What takes two options is refused when the configuration is made from them.
    assertThatThrownBy(() -> parse(Map.of(), "--metrics-bind", "0.0.0.0"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--metrics-bind needs --metrics-port");
  }
}
