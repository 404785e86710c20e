package dev.asa.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import dev.asa.server.config.Observability;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The two formats {@code asa serve --log-format} offers, as a reader of the lines sees them. */
class LogSetupTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final Logger events = LoggerFactory.getLogger("dev.asa.server.events.state");

  @AfterEach
  void restoreTheTestConfiguration() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ContextInitializer(context).autoConfig();
    MDC.clear();
  }

  private void logOneStateChange() {
    MDC.put("request_id", "req-1");
    events
        .atInfo()
        .setMessage("agreement {} {} -> {}")
        .addArgument("asa-1")
        .addArgument("ACTIVE")
        .addArgument("DELIVERED")
        .addKeyValue("agreement_id", "asa-1")
        .addKeyValue("to", "DELIVERED")
        .log();
    MDC.remove("request_id");
  }

  @Test
  void jsonIsOneFlatObjectPerLine() throws Exception {
    LogSetup.apply(new Observability.Logging(Observability.LogFormat.JSON, "info"), out);
    logOneStateChange();
    String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\n");
    assertThat(lines).hasSize(1);
    JsonNode line = Json.parse(lines[0]);
    assertThat(line.path("message").asText()).isEqualTo("agreement asa-1 ACTIVE -> DELIVERED");
    assertThat(line.path("level").asText()).isEqualTo("INFO");
    assertThat(line.path("logger_name").asText()).isEqualTo("dev.asa.server.events.state");
    assertThat(line.path("request_id").asText()).isEqualTo("req-1");
    assertThat(line.path("agreement_id").asText()).isEqualTo("asa-1");
    assertThat(line.path("to").asText()).isEqualTo("DELIVERED");
    assertThat(line.has("@timestamp")).isTrue();
    assertThat(line.has("@version")).isFalse();
  }

  @Test
  void textIsOneReadableLineWithTheRequestId() {
    LogSetup.apply(new Observability.Logging(Observability.LogFormat.TEXT, "info"), out);
    logOneStateChange();
    LoggerFactory.getLogger("dev.asa.server.events.timer").info("no request here");
    String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0])
        .matches(
            "\\d{4}-\\d\\d-\\d\\dT\\S+ INFO  state agreement asa-1 ACTIVE -> DELIVERED"
                + " request_id=req-1");
    assertThat(lines[1]).endsWith("INFO  timer no request here");
  }

  @Test
  void theLevelIsTheServersAndLibrariesStayAtWarn() {
    LogSetup.apply(new Observability.Logging(Observability.LogFormat.TEXT, "debug"), out);
    LoggerFactory.getLogger("dev.asa.server.store.Store").debug("server debug");
    LoggerFactory.getLogger("org.eclipse.jetty.server.Server").info("library info");
    LoggerFactory.getLogger("org.eclipse.jetty.server.Server").warn("library warning");
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("server debug", "library warning").doesNotContain("library info");
  }
}
