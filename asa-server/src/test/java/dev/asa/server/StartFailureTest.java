package dev.asa.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.config.Observability;
import dev.asa.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start that fails late, after the HTTP port listens and the due-work poller runs, stops what it
 * had started: no port left listening, no poller thread left behind, and the next start on the same
 * data directory and port succeeds.
 */
class StartFailureTest {
  @TempDir Path dataDir;

  @Test
  void aMetricsPortInUseFailsTheStartAndLeavesNothingRunning() throws IOException {
    long pollersBefore = threadsNamed("asa-due-work");
    int httpPort;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      httpPort = probe.getLocalPort();
    }
    try (ServerSocket metricsTaken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ServerConfig config =
          ServerConfig.defaults()
              .withPort(httpPort)
              .withDataDir(dataDir)
              .withObservability(
                  Observability.DEFAULTS.withMetrics(
                      Observability.MetricsEndpoint.separate(
                          "127.0.0.1", metricsTaken.getLocalPort())));
      assertThatThrownBy(() -> AsaServer.start(config))
          .hasMessageContaining("could not listen for metrics");
    }
    assertThat(threadsNamed("asa-due-work")).isLessThanOrEqualTo(pollersBefore);
    try (ServerSocket again = new ServerSocket(httpPort, 1, InetAddress.getLoopbackAddress())) {
      assertThat(again.getLocalPort()).as("the HTTP port was let go").isEqualTo(httpPort);
    }
    try (AsaServer server =
        AsaServer.start(ServerConfig.defaults().withPort(httpPort).withDataDir(dataDir))) {
      assertThat(server.port()).isEqualTo(httpPort);
    }
  }

  private static long threadsNamed(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals(name))
        .count();
  }
}
