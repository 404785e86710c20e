package dev.asa.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Caller;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.json.Json;
import dev.asa.server.agreements.AgreementService;
import dev.asa.server.http.CommandBodies;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.verification.DeliverableFetcher;
import dev.asa.server.verification.VerificationRunner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lifecycles per second through the application service alone (no HTTP), single-threaded, with the
 * time per step: shows what the core and the store cost, apart from the web layer.
 */
public final class ServiceProbe {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    Store store =
        Stores.open(args.length > 1 ? args[1] : null, Files.createTempDirectory("asa-probe"));
    Ed25519PrivateKey serverKey = Ed25519PrivateKey.generate(new SecureRandom());
    AgreementService service =
        new AgreementService(
            store,
            Clock.systemUTC(),
            new VerificationRunner(
                store, new StructuralEvaluator(), new DeliverableFetcher(1 << 20), serverKey),
            serverKey.publicKey().toBase64Url());
    Ed25519PrivateKey c = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519PrivateKey p = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519PrivateKey e = Ed25519PrivateKey.generate(new SecureRandom());
    Caller client = new Caller.Key(c.publicKey(), false);
    Caller provider = new Caller.Key(p.publicKey(), false);
    Caller evaluator = new Caller.Key(e.publicKey(), false);
    Map<String, Long> nanos = new LinkedHashMap<>();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    long warmEnd = System.nanoTime() + seconds * 500_000_000L;
    int n = 0;
    long measuredStart = 0;
    long cpuStart = 0;
    long allocatedStart = 0;
    while (System.nanoTime() < end) {
      boolean measure = System.nanoTime() > warmEnd;
      if (measure && measuredStart == 0) {
        measuredStart = System.nanoTime();
        cpuStart = THREADS.getCurrentThreadCpuTime();
        allocatedStart = THREADS.getCurrentThreadAllocatedBytes();
        nanos.clear();
        n = 0;
      }
      ObjectNode doc =
          (ObjectNode) Json.parse(Json.write(LifecycleBenchmarkDocs.document(c, p, e)));
      long t = System.nanoTime();
      String id = service.commands().create(doc, client, null).body().path("agreement_id").asText();
      t = lap(nanos, "create", t);
      String hash = service.queries().get(id, client).path("agreement_hash").asText();
      t = lap(nanos, "get", t);
      service.commands().sign(id, CommandBodies.sign(sign("client", c, hash)), client, null);
      t = lap(nanos, "sign", t);
      service.commands().sign(id, CommandBodies.sign(sign("provider", p, hash)), provider, null);
      t = lap(nanos, "sign", t);
      service.commands().fund(id, CommandBodies.fund(null), client, null);
      t = lap(nanos, "fund", t);
      service
          .commands()
          .deliver(
              id,
              CommandBodies.deliver(
                  Json.object().put("content", "# Summary\n\nText.\n").put("format", "markdown")),
              provider,
              null);
      t = lap(nanos, "deliver", t);
      // Pessimistic terms: the verification closes the agreement and moves the money at once.
      service
          .verifications()
          .verify(
              id,
              CommandBodies.verify(
                  Json.object().set("evaluator_result", LifecycleBenchmarkDocs.scores())),
              evaluator,
              null);
      lap(nanos, "verify", t);
      n++;
    }
    double s = (System.nanoTime() - measuredStart) / 1e9;
    long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
    long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedStart;
    System.out.printf("service only, 1 thread, %s: %.0f lifecycles/s%n", store.describe(), n / s);
    // This thread's own CPU and allocation: the JIT and the collector are left out, so these move
    // only with the work a lifecycle does (allocation nearly not at all from run to run).
    System.out.printf(
        "  this thread: %.3f ms CPU and %.0f KB allocated per lifecycle%n",
        cpu / 1e6 / n, allocated / 1024.0 / n);
    int lifecycles = n;
    nanos.forEach(
        (k, v) -> System.out.printf("  %-8s %.3f ms per lifecycle%n", k, v / 1e6 / lifecycles));
    store.close();
  }

  private static long lap(Map<String, Long> nanos, String name, long since) {
    long now = System.nanoTime();
    nanos.merge(name, now - since, Long::sum);
    return now;
  }

  private static ObjectNode sign(String party, Ed25519PrivateKey key, String hash) {
    ObjectNode b = Json.object().put("party", party);
    b.putObject("signature")
        .put("scheme", "ed25519")
        .put("value", key.sign(hash.getBytes(StandardCharsets.UTF_8)).toBase64Url());
    return b;
  }
}
