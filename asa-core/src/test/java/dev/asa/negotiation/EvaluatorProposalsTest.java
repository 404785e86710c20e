package dev.asa.negotiation;

import static dev.asa.negotiation.NegotiatorTest.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.agreement.Violation;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDrafts;
import dev.asa.facts.EvaluatorProposalsFact;
import dev.asa.facts.ServerFacts;
import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Mutual evaluator selection's proposals: their form, who may make them, when, and their union. */
class EvaluatorProposalsTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  static String key(String name) {
    return Fixtures.key(name).publicKey().toBase64Url();
  }

  static ObjectNode proposing(String action, int round, String... keys) {
    ObjectNode b =
        round == 1
            ? body(null, 1, action, "accept_as_proposed")
            : body("neg-1", round, action, "accept_as_proposed");
    ArrayNode list = b.putArray("proposed_evaluators");
    for (String k : keys) {
      list.add(k);
    }
    return b;
  }

  static AgreementTerms terms(Consumer<ObjectNode> edit) {
    ObjectNode doc = Fixtures.general();
    edit.accept(doc);
    Agreement a = AgreementDrafts.propose(doc, NOW, () -> "asa-test");
    return a.terms();
  }

  static ObjectNode verification(ObjectNode doc) {
    return doc.has("verification")
        ? (ObjectNode) doc.get("verification")
        : doc.putObject("verification");
  }

  static AgreementTerms mutual(int maxRounds) {
    return terms(d -> {
      ((ObjectNode) d.get("parties")).remove("evaluator");
      verification(d)
          .putObject("evaluator_selection")
          .put("mode", "mutual")
          .put("max_rounds", maxRounds);
    });
  }

  static List<Violation> violations(Runnable r) {
    try {
      r.run();
    } catch (InvalidDocumentException e) {
      return e.violations();
    }
    throw new AssertionError("accepted");
  }

  @Test
  void aMessageMayCarryAShortListOfDistinctKeysAndAbsentIsNotEmpty() {
    NegotiationMessage m =
        NegotiationMessage.parse(proposing("accept", 1, key("judge-1"), key("judge-2")));
    assertThat(m.proposedEvaluators())
        .contains(
            List.of(Fixtures.key("judge-1").publicKey(), Fixtures.key("judge-2").publicKey()));
    assertThat(NegotiationMessage.parse(proposing("accept", 1)).proposedEvaluators())
        .as("[] withdraws a proposal")
        .contains(List.of());
    assertThat(
            NegotiationMessage.parse(body(null, 1, "accept", "accept_as_proposed"))
                .proposedEvaluators())
        .as("absent keeps the earlier list")
        .isEmpty();
    NegotiationMessage counter =
        NegotiationMessage.parse(
            proposing("counter", 2, key("judge-1"))
                .set(
                    "proposed_changes",
                    Json.parseTrusted("{\"escrow.payment.amount\": \"11.00\"}")));
    assertThat(counter.proposedEvaluators()).contains(List.of(Fixtures.key("judge-1").publicKey()));
  }

  @Test
  void badListsAreRefusedNamingTheEntry() {
    assertThat(
            violations(() ->
                NegotiationMessage.parse(
                    proposing("accept", 1, key("judge-1"), "not a key", key("judge-1")))))
        .extracting(Violation::pointer)
        .containsExactly("/proposed_evaluators/1", "/proposed_evaluators/2");
    assertThat(violations(() -> NegotiationMessage.parse(proposing("accept", 1, "AAAA"))))
        .singleElement()
        .satisfies(v -> {
          assertThat(v.pointer()).isEqualTo("/proposed_evaluators/0");
          assertThat(v.message()).contains("32-byte Ed25519 public key");
        });
    // Padding, a key of the wrong length, a number.
    ObjectNode odd = proposing("accept", 1, key("judge-1") + "=", key("judge-1") + "AA");
    ((ArrayNode) odd.get("proposed_evaluators")).add(42);
    assertThat(violations(() -> NegotiationMessage.parse(odd)))
        .extracting(Violation::pointer)
        .containsExactly(
            "/proposed_evaluators/0", "/proposed_evaluators/1", "/proposed_evaluators/2");
    List<String> six = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      six.add(key("judge-" + i));
    }
    assertThat(
            violations(
                () -> NegotiationMessage.parse(proposing("accept", 1, six.toArray(String[]::new)))))
        .singleElement()
        .satisfies(v -> {
          assertThat(v.pointer()).isEqualTo("/proposed_evaluators");
          assertThat(v.message()).contains("at most 5");
        });
    ObjectNode notAList = body(null, 1, "accept", "accept_as_proposed");
    notAList.put("proposed_evaluators", key("judge-1"));
    assertThat(violations(() -> NegotiationMessage.parse(notAList)))
        .extracting(Violation::pointer)
        .containsExactly("/proposed_evaluators");
    assertThat(
            violations(() ->
                NegotiationMessage.parse(
                    proposing("reject", 1, key("judge-1")).put("rationale_code", "budget_limit"))))
        .singleElement()
        .satisfies(v -> {
          assertThat(v.pointer()).isEqualTo("/proposed_evaluators");
          assertThat(v.message()).contains("reject takes no proposed_evaluators");
        });
  }

  @Test
  void onlyAMutualAgreementTakesProposalsAndOnlyWithinItsRounds() {
    NegotiationMessage round3 = NegotiationMessage.parse(proposing("accept", 3, key("judge-1")));
    NegotiationMessage round4 = NegotiationMessage.parse(proposing("accept", 4, key("judge-1")));
    AgreementTerms mutual = mutual(3);
    assertThat(
            EvaluatorProposals.apply(
                mutual, EvaluatorProposalsFact.NONE, round3, Role.PROVIDER, NOW))
        .hasValueSatisfying(f -> {
          assertThat(f.clientProposal()).isEmpty();
          assertThat(f.providerProposal().orElseThrow().round()).isEqualTo(3);
        });
    assertThat(
            violations(() ->
                EvaluatorProposals.apply(
                    mutual, EvaluatorProposalsFact.NONE, round4, Role.CLIENT, NOW)))
        .singleElement()
        .satisfies(v -> {
          assertThat(v.pointer()).isEqualTo("/proposed_evaluators");
          assertThat(v.message()).contains("rounds 1 to 3").contains("round 4");
        });
    assertThat(
            violations(() ->
                EvaluatorProposals.apply(
                    mutual, EvaluatorProposalsFact.NONE, round3, Role.EVALUATOR, NOW)))
        .singleElement()
        .satisfies(v -> assertThat(v.message()).contains("only the client and the provider"));

    AgreementTerms named = terms(d -> {});
    AgreementTerms random = terms(d -> ((ObjectNode) d.get("parties")).remove("evaluator"));
    AgreementTerms market =
        terms(d -> {
          ((ObjectNode) d.get("parties")).remove("evaluator");
          verification(d).putObject("evaluator_selection").put("mode", "marketplace");
        });
    for (AgreementTerms t : List.of(named, random, market)) {
      assertThat(
              violations(() ->
                  EvaluatorProposals.apply(
                      t, EvaluatorProposalsFact.NONE, round3, Role.CLIENT, NOW)))
          .as(t.verification().evaluatorSelection().mode())
          .singleElement()
          .satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/proposed_evaluators");
            assertThat(v.message()).contains("only when verification.evaluator_selection.mode");
          });
    }
    // A message without proposals is none of this rule's business, in any mode.
    NegotiationMessage plain =
        NegotiationMessage.parse(body(null, 1, "accept", "accept_as_proposed"));
    assertThat(
            EvaluatorProposals.apply(named, EvaluatorProposalsFact.NONE, plain, Role.CLIENT, NOW))
        .isEmpty();
  }

  /**
   * Over random sequences of proposals: the latest list of each party wins, and what both propose
   * is exactly the intersection of those two lists, in the client's order; the fact reads back as
   * written.
   */
  @Test
  void theLatestListOfEachPartyWinsAndTheCommonOnesAreTheirIntersection() {
    Random random = new Random(20261122L);
    List<Ed25519PublicKey> pool = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      pool.add(Fixtures.key("judge-" + i).publicKey());
    }
    AgreementTerms terms = mutual(20);
    for (int run = 0; run < 200; run++) {
      EvaluatorProposalsFact fact = EvaluatorProposalsFact.NONE;
      List<Ed25519PublicKey> lastClient = null;
      List<Ed25519PublicKey> lastProvider = null;
      int rounds = 1 + random.nextInt(8);
      for (int round = 1; round <= rounds; round++) {
        Role party = round % 2 == 1 ? Role.CLIENT : Role.PROVIDER;
        if (random.nextInt(4) == 0) {
          continue; // this round proposes nothing: the earlier list stands
        }
        Set<Ed25519PublicKey> chosen = new LinkedHashSet<>();
        int n = random.nextInt(NegotiationMessage.MAX_PROPOSED_EVALUATORS + 1);
        while (chosen.size() < n) {
          chosen.add(pool.get(random.nextInt(pool.size())));
        }
        String[] keys = chosen.stream().map(Ed25519PublicKey::toBase64Url).toArray(String[]::new);
        NegotiationMessage m = NegotiationMessage.parse(proposing("accept", round, keys));
        fact =
            EvaluatorProposals.apply(terms, fact, m, party, NOW.plusSeconds(round)).orElseThrow();
        if (party == Role.CLIENT) {
          lastClient = List.copyOf(chosen);
        } else {
          lastProvider = List.copyOf(chosen);
        }
      }
      Set<Ed25519PublicKey> expected = new LinkedHashSet<>();
      if (lastClient != null && lastProvider != null) {
        expected.addAll(lastClient);
        expected.retainAll(new HashSet<>(lastProvider));
      }
      assertThat(List.copyOf(fact.common())).isEqualTo(List.copyOf(expected));
      assertThat(fact.clientProposal().map(EvaluatorProposalsFact.Proposal::evaluators))
          .isEqualTo(java.util.Optional.ofNullable(lastClient));
      EvaluatorProposalsFact written = fact;
      assertThat(ServerFacts.NONE.withEvaluatorProposals(fact).evaluatorProposals())
          .isEqualTo(written);
    }
  }

  @Test
  void aProposalRecordRefusesDuplicates() {
    Ed25519PublicKey k = Fixtures.key("judge-1").publicKey();
    assertThatThrownBy(() -> new EvaluatorProposalsFact.Proposal(List.of(k, k), 1, NOW))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ServerFacts.NONE.evaluatorProposals()).isEqualTo(EvaluatorProposalsFact.NONE);
    assertThat(EvaluatorProposalsFact.NONE.common()).isEmpty();
  }
}
