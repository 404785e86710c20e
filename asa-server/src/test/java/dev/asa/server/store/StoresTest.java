package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.store.db.StoreUnavailableException;
import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Opening stores that cannot work: the messages must say what to fix. */
class StoresTest {

  @Test
  void anUnreachablePostgresNamesHostAndPortAndWhatToCheck() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort(); // free now, and nothing listens there once closed
    }
    int closedPort = port;
    assertThatThrownBy(
            () -> Stores.open("postgresql://asa:secret@127.0.0.1:" + closedPort + "/asa", null))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("127.0.0.1:" + closedPort)
        .hasMessageContaining("Check that the server is running")
        .hasMessageNotContaining("secret");
  }

  @Test
  void anUnsupportedUrlIsAnIllegalArgument() {
    assertThatThrownBy(() -> Stores.open("redis://localhost", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("accepted forms");
  }
}
