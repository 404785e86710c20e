package dev.asa.example;

import dev.asa.agreement.Role;
import dev.asa.client.AgreementBuilder;
import dev.asa.client.AgreementStatus;
import dev.asa.client.AgreementView;
import dev.asa.client.Agreements;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.client.EvaluatorScores;
import dev.asa.client.VerificationView;
import dev.asa.client.VerifyOutcome;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * The walk-through in Java: one agreement from proposal to verdict, each party with its own key.
 */
public final class SdkExample {

  /** Usage: {@code SdkExample [SERVER [KEY-DIRECTORY]]}, e.g. after {@code asa keys new}. */
  public static void main(String[] args) throws IOException {
    URI server = URI.create(args.length > 0 ? args[0] : "http://127.0.0.1:8080");
    Path keys = Path.of(args.length > 1 ? args[1] : ".");
    try {
      run(server, keys);
    } catch (AsaApiException e) {
      // status() is the HTTP status (0: unreachable), kind() the problem type, e.g.
      // "transition-refused"; the message has the detail and one line per field error.
      System.err.println(e.getMessage());
      System.exit(e.isUnreachable() ? 4 : 3);
    }
  }

  /** Runs one agreement through the server at {@code server} with the three key files. */
  public static AgreementStatus run(URI server, Path keys) throws IOException {
    // The key files `asa keys new --out client.key` (and provider.key, evaluator.key) wrote.
    Ed25519PrivateKey clientKey = KeyFile.read(keys.resolve("client.key"));
    Ed25519PrivateKey providerKey = KeyFile.read(keys.resolve("provider.key"));
    Ed25519PrivateKey evaluatorKey = KeyFile.read(keys.resolve("evaluator.key"));

    // One view per party: every request it sends is signed with that party's key.
    Agreements client = AsaClient.connect(server, clientKey).agreements();
    Agreements provider = AsaClient.connect(server, providerKey).agreements();
    Agreements evaluator = AsaClient.connect(server, evaluatorKey).agreements();

    // 1. The client proposes from the "general" template: 10.00 USD in escrow on the built-in
    //    ledger, evaluator "judge-7" holding evaluator.key.
    AgreementView created =
        client.create(
            AgreementBuilder.template("general")
                .client(clientKey.publicKey())
                .provider(providerKey.publicKey())
                .evaluator("api_key", "judge-7", "agent_as_judge", evaluatorKey.publicKey())
                .description("Summarise recent work on federated learning privacy")
                .payment("10.00", "USD")
                .challengeWindowSeconds(5)
                .build());
    String id = created.id();
    System.out.println(id + " " + created.state() + ", terms " + created.agreementHash());

    // 2. Both parties sign the agreement_hash (here, locally); the second signature activates it.
    provider.sign(id, Role.PROVIDER);
    AgreementView active = client.sign(id, Role.CLIENT);
    System.out.println("signed by both: " + active.state());

    // 3. The client funds the escrow; 4. the provider delivers.
    client.fund(id);
    provider.deliver(
        id,
        """
        # Federated learning and privacy

        Differential privacy bounds what a trained model reveals about any one record.
        """,
        "markdown");

    // 5. The evaluator scores what needs judgement; the server measures format and timeliness.
    VerifyOutcome verified =
        evaluator.verify(
            id,
            EvaluatorScores.builder()
                .score("accuracy", 80, "3 of 3 spot-checked claims hold")
                .score("completeness", 70, "covers the main results")
                .score("relevance", 80, "on topic throughout")
                .confidence(0.85)
                .build());
    System.out.println("verified: " + verified.state());

    // 6. Any party reads the result and the status.
    VerificationView result = client.verification(id);
    System.out.printf(
        "%s: composite %s (threshold %s), %s%% of the payment to the provider%n",
        result.passed() ? "PASS" : "FAIL",
        result.composite().score(),
        result.composite().threshold(),
        result.releasePercent());
    for (VerificationView.Dimension d : result.dimensions()) {
      System.out.println(
          "  "
              + d.name()
              + " "
              + d.score().map(Object::toString).orElse("not evaluated")
              + ": "
              + d.evidence());
    }
    AgreementStatus status = client.status(id);
    System.out.println(
        status.state()
            + ", payment "
            + status.payment().status()
            + ", challenge window closes "
            + status.challengeWindowClosesAt().orElseThrow());
    return status;
  }
}
