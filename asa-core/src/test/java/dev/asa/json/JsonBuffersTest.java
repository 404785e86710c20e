package dev.asa.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Jackson's buffers are shared between threads: each request runs on a new virtual thread. */
class JsonBuffersTest {

  @Test
  void aHundredRequestsOneAfterAnotherOnNewVirtualThreadsShareOneSetOfBuffers() throws Exception {
    RecyclerPool<BufferRecycler> pool = Json.mapper().getFactory()._getRecyclerPool();
    assertThat(pool).isInstanceOf(RecyclerPool.BoundedPoolBase.class);
    JsonNode answer = Json.parse("{\"state\":\"closed\",\"version\":6}");
    int pooledBefore = pool.pooledCount();

    for (int i = 0; i < 100; i++) {
      Thread.ofVirtual().start(() -> Json.writeBytes(answer)).join();
    }

    // One thread at a time: each takes the set the one before gave back (one per thread would have
    // left each set to its thread and allocated a hundred).
    assertThat(pool.pooledCount()).isBetween(1, pooledBefore + 1);
  }

  @Test
  void textsWrittenAndReadOnManyVirtualThreadsAtOnceStayTheirOwn() throws Exception {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 32; t++) {
      int n = t;
      threads.add(
          Thread.ofVirtual()
              .start(() -> {
                try {
                  for (int i = 0; i < 200; i++) {
                    String text =
                        "{\"thread\":"
                            + n
                            + ",\"i\":"
                            + i
                            + ",\"s\":\""
                            + "x".repeat(n * 50)
                            + "\"}";
                    JsonNode node = Json.parse(text);
                    assertThat(
                            new String(
                                Json.writeBytes(node), java.nio.charset.StandardCharsets.UTF_8))
                        .isEqualTo(text);
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(failures).isEmpty();
  }
}
