package dev.asa.server.agreements;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.Caller;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.SignatureRefusedException;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.json.Json;
import dev.asa.lifecycle.Event;
import dev.asa.lifecycle.EventChain;
import dev.asa.lifecycle.State;
import dev.asa.lifecycle.TransitionRefusedException;
import dev.asa.server.http.CommandBodies;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.verification.DeliverableFetcher;
import dev.asa.server.verification.VerificationRunner;
import dev.asa.server.work.ConflictException;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fires random action sequences (valid and invalid, with random time jumps) at agreements through
 * the application service and checks the invariants after every step: a final state never changes,
 * a refused action changes nothing, and the event chain always verifies.
 */
class RandomLifecycleTest {
  private static final Caller ALICE = Fixtures.caller("alice");
  private static final Caller BOB = Fixtures.caller("bob");
  private static final Caller JUDGE = Fixtures.caller("eval-1");
  private static final Caller MALLORY = Fixtures.caller("mallory");
  @TempDir Path dir;
  private Store store;
  private AgreementService service;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));

  @BeforeEach
  void open() {
    store = Stores.open(null, dir);
    Ed25519PrivateKey serverKey = Fixtures.key("server");
    service =
        new AgreementService(
            store,
            clock,
            new VerificationRunner(
                store, new StructuralEvaluator(), new DeliverableFetcher(1 << 20), serverKey),
            serverKey.publicKey().toBase64Url());
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void randomActionSequencesKeepTheInvariants() {
    long seed = Long.getLong("asa.seed", System.nanoTime());
    System.out.println(
        "RandomLifecycleTest seed = " + seed + " (rerun with -Dasa.seed=" + seed + ")");
    Random random = new Random(seed);
    int steps = 0;
    int refused = 0;
    for (int n = 0; n < 40; n++) {
      ObjectNode doc = Fixtures.general();
      if (random.nextBoolean()) {
        doc.putObject("verification")
            .put("strategy", random.nextBoolean() ? "optimistic" : "pessimistic")
            .put("challenge_window_seconds", 60);
      }
      String id = service.commands().create(doc, ALICE, null).body().path("agreement_id").asText();
      for (int i = 0; i < 25; i++) {
        State before = state(id);
        long versionBefore = service.queries().version(id, ALICE);
        int eventsBefore = events(id).size();
        boolean applied = true;
        try {
          randomAction(random, id);
        } catch (TransitionRefusedException
            | InvalidDocumentException
            | SignatureRefusedException
            | ConflictException
            | AccessDeniedException
            | dev.asa.negotiation.NegotiationRefusedException e) {
          applied = false;
        }
        steps++;
        List<Event> events = events(id);
        assertThat(EventChain.firstBreak(events))
            .as("chain of %s after step %d (seed %d)", id, i, seed)
            .isEmpty();
        if (before.isFinal()) {
          assertThat(state(id)).as("final state changed (seed %d)", seed).isEqualTo(before);
          assertThat(applied)
              .as("an action applied to a final agreement (seed %d)", seed)
              .isFalse();
        }
        if (!applied) {
          refused++;
          assertThat(service.queries().version(id, ALICE)).isEqualTo(versionBefore);
          assertThat(events).hasSize(eventsBefore);
        } else {
          assertThat(service.queries().version(id, ALICE)).isEqualTo(versionBefore + 1);
          assertThat(events.size()).isGreaterThan(eventsBefore);
        }
        if (random.nextInt(4) == 0) {
          clock.advance(Duration.ofSeconds(random.nextInt(120)));
        }
      }
    }
    System.out.println("RandomLifecycleTest: " + steps + " steps, " + refused + " refused");
    assertThat(refused).isPositive().isLessThan(steps);
  }

  private void randomAction(Random random, String id) {
    Ed25519PrivateKey alice = Fixtures.key("alice");
    Ed25519PrivateKey bob = Fixtures.key("bob");
    String hash = service.queries().get(id, ALICE).path("agreement_hash").asText();
    byte[] input = hash.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    // Mostly the right caller, sometimes a wrong one (a stranger, or a party out of its role).
    Caller someone = List.of(ALICE, BOB, JUDGE, MALLORY).get(random.nextInt(4));
    boolean right = random.nextInt(5) > 0;
    switch (random.nextInt(10)) {
      case 0 ->
          service
              .commands()
              .sign(
                  id,
                  CommandBodies.sign(signBody("client", alice.sign(input).toBase64Url())),
                  right ? ALICE : someone,
                  null);
      case 1 ->
          service
              .commands()
              .sign(
                  id,
                  CommandBodies.sign(signBody("provider", bob.sign(input).toBase64Url())),
                  right ? BOB : someone,
                  null);
      case 2 ->
          service
              .commands()
              .sign(
                  id,
                  CommandBodies.sign(signBody("provider", alice.sign(input).toBase64Url())),
                  BOB,
                  null); // wrong key
      case 3 ->
          service
              .commands()
              .deliver(
                  id,
                  CommandBodies.deliver(
                      Json.object()
                          .put("content", "# Findings\n\nFederated learning keeps data local.")
                          .put("format", "markdown")),
                  right ? BOB : someone,
                  null);
      case 4 ->
          service
              .verifications()
              .verify(
                  id, CommandBodies.verify(evaluatorScores(random)), right ? JUDGE : someone, null);
      case 5 ->
          service
              .disputes()
              .challenge(
                  id,
                  CommandBodies.challenge(
                      Json.object().put("reason_code", "quality_below_agreed_slo")),
                  right ? (random.nextBoolean() ? ALICE : BOB) : someone,
                  null);
      case 6 -> service.commands().close(id, right ? ALICE : someone, null);
      case 8 ->
          service.commands().fund(id, CommandBodies.fund(null), right ? ALICE : someone, null);
      case 7 ->
          service
              .commands()
              .negotiate(
                  id,
                  CommandBodies.negotiate(
                      message(id, "counter", random)
                          .set(
                              "proposed_changes",
                              Json.object()
                                  .put(
                                      "quality_criteria.composite_threshold",
                                      60 + random.nextInt(20)))),
                  right ? (random.nextBoolean() ? BOB : ALICE) : someone,
                  null);
      default ->
          service
              .commands()
              .negotiate(
                  id,
                  CommandBodies.negotiate(
                      message(id, random.nextInt(5) == 0 ? "reject" : "accept", random)),
                  right ? (random.nextBoolean() ? ALICE : BOB) : someone,
                  null);
    }
  }

  /** A negotiation message for the next round (sometimes a wrong round, to exercise the rules). */
  private ObjectNode message(String id, String action, Random random) {
    JsonNode n =
        service.queries().get(id, ALICE).path("agreement").path("metadata").path("negotiation");
    int round = n.path("round").asInt(0) + (random.nextInt(6) == 0 ? 2 : 1);
    ObjectNode m =
        Json.object()
            .put("round", round)
            .put("action", action)
            .put("rationale_code", "quality_requirement_change");
    if (n.has("negotiation_id")) {
      m.put("negotiation_id", n.path("negotiation_id").asText());
    }
    return m;
  }

  private static ObjectNode signBody(String party, String sig) {
    ObjectNode b = Json.object().put("party", party);
    b.putObject("signature").put("scheme", "ed25519").put("value", sig);
    return b;
  }

  /** Scores for the general template's judged dimensions (everything but the structural ones). */
  private JsonNode evaluatorScores(Random random) {
    ObjectNode body = Json.object();
    ObjectNode result = body.putObject("evaluator_result");
    result.put("confidence", 0.8);
    var dims = result.putArray("dimensions");
    for (JsonNode d :
        dev.asa.template.Templates.get("general")
            .orElseThrow()
            .defaults()
            .path("quality_criteria")
            .path("dimensions")) {
      String name = d.path("name").asText();
      if (name.equals("timeliness") || name.equals("format_compliance")) {
        continue;
      }
      dims.addObject()
          .put("name", name)
          .put("score", 40 + random.nextInt(61))
          .put("evidence", "random test score");
    }
    return body;
  }

  private State state(String id) {
    return State.valueOf(service.queries().get(id, ALICE).path("state").asText());
  }

  private List<Event> events(String id) {
    List<Event> list = new ArrayList<>();
    service
        .queries()
        .events(id, ALICE)
        .path("events")
        .forEach(e -> list.add(Event.fromJson(id, e)));
    return list;
  }
}
