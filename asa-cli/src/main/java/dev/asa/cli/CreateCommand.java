package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AgreementBuilder;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PublicKey;
import java.util.List;

/**
 * {@code asa agreements create}: proposes a new agreement, either from a document on disk or from a
 * template and the parties' keys. The client holds its own key file; of the provider it usually
 * knows only the public key, hence {@code --provider-pub}.
 */
final class CreateCommand implements Command {

  /** The options that describe the agreement on the command line, as opposed to in a file. */
  private static final List<String> TEMPLATE_OPTIONS =
      List.of(
          "--template",
          "--client-key",
          "--provider-key",
          "--provider-pub",
          "--evaluator",
          "--evaluator-scheme",
          "--evaluator-type",
          "--evaluator-pub",
          "--evaluator-key",
          "--description",
          "--amount",
          "--currency",
          "--challenge-window",
          "--tests",
          "--depth",
          "--id");

  private static final Usage USAGE =
      Usage.of(
              "agreements create",
              "(--file DOC.json | --template TYPE --client-key FILE (--provider-key FILE | --provider-pub KEY) [--evaluator IDENTITY"
                  + " [--evaluator-key FILE | --evaluator-pub KEY] [--evaluator-scheme S]] [--description TEXT] [--amount 10.00 [--currency USDC]] [--challenge-window SECONDS] [--tests FILE] [--depth D] [--id ID]) [--idempotency-key K]",
              "Proposes a new agreement (state PROPOSED).\n"
                  + "Prints its id and agreement_hash. From a template, the parties are identified by the did:key of their keys; the template supplies every\n"
                  + "term not given here. Without --evaluator the server assigns a registered, qualified, independent\n"
                  + "evaluator from its pool when the agreement becomes ACTIVE.")
          .option(
              Option.value(
                  "--file",
                  "DOC.json",
                  "a complete or partial agreement document (it may name a \"template\")"))
          .option(
              Option.value(
                  "--template",
                  "TYPE",
                  "the template to start from, e.g. general (see asa templates)"))
          .option(
              Option.value(
                  "--client-key", "FILE", "the client's key file (only its public key is sent)"))
          .option(Option.value("--provider-key", "FILE", "the provider's key file"))
          .option(
              Option.value(
                  "--provider-pub",
                  "KEY",
                  "the provider's public key (base64url) or did:key, when you do not hold its key file"))
          .option(
              Option.value(
                  "--evaluator",
                  "IDENTITY",
                  "the evaluator's identity value (default: the server assigns one from its pool)"))
          .option(
              Option.value(
                  "--evaluator-scheme",
                  "S",
                  "its identity scheme (default: did for a did:..., else api_key)"))
          .option(
              Option.value(
                  "--evaluator-key",
                  "FILE",
                  "the evaluator's key file (only its public key is used)"))
          .option(
              Option.value(
                  "--evaluator-pub",
                  "KEY",
                  "the evaluator's public key (base64url or did:key): the key its results are signed with"))
          .option(
              Option.value(
                  "--evaluator-type", "T", "the kind of evaluator (default agent_as_judge)"))
          .option(Option.value("--description", "TEXT", "the task, in words (service.description)"))
          .option(
              Option.value(
                  "--amount", "AMOUNT", "the payment held in escrow, a decimal such as 10.00"))
          .option(Option.value("--currency", "CODE", "the payment's currency (default USDC)"))
          .option(
              Option.value(
                  "--challenge-window",
                  "SECONDS",
                  "how long either party may challenge the result (template default 7200)"))
          .option(
              Option.value(
                  "--tests",
                  "FILE",
                  "a test file the delivered code must pass (.py, .js or .java), run by a server with its code sandbox on"))
          .option(
              Option.value(
                  "--depth",
                  "D",
                  "how deep the server's own evaluators verify when nobody submits scores: structural, semantic or composite"))
          .option(Option.value("--id", "ID", "the agreement id (default: the server picks one)"))
          .option(
              Option.value(
                  "--idempotency-key",
                  "K",
                  "lets a retried create return the first answer instead of a second agreement"))
          .server();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    JsonNode doc = args.has("--file") ? fromFile(args) : fromTemplate(args);
    // The client proposes: without --key, requests are signed with the --client-key it names.
    AsaClient client =
        session.keyFileName() == null && args.has("--client-key")
            ? session.client().withKey(Inputs.keyFile(args.value("--client-key")))
            : session.client();
    ObjectNode created = client.createAgreement(doc, args.value("--idempotency-key"));
    if (session.json()) {
      session.printJson(created);
      return 0;
    }
    String id = created.path("agreement_id").asText();
    session.out().println("created agreement " + id);
    session
        .out()
        .print(
            Table.plain()
                .row("state", created.path("state").asText())
                .row("agreement_hash", created.path("agreement_hash").asText())
                .render());
    session
        .out()
        .println(
            "next: each party signs with  asa agreements sign "
                + id
                + " --key FILE --as client|provider");
    return 0;
  }

  private static JsonNode fromFile(Arguments args) throws UsageException, CliException {
    for (String option : TEMPLATE_OPTIONS) {
      args.exclusive("--file", option);
    }
    return Inputs.jsonFile(args.value("--file"));
  }

  private static ObjectNode fromTemplate(Arguments args) throws UsageException, CliException {
    if (!args.has("--template")) {
      throw new UsageException("give --file DOC.json, or --template TYPE with the parties");
    }
    args.exclusive("--provider-key", "--provider-pub");
    if (!args.has("--client-key")) {
      throw new UsageException("missing --client-key FILE");
    }
    if (!args.has("--provider-key") && !args.has("--provider-pub")) {
      throw new UsageException("missing --provider-key FILE or --provider-pub KEY");
    }
    if (!args.has("--evaluator")) {
      for (String option :
          List.of("--evaluator-scheme", "--evaluator-type", "--evaluator-key", "--evaluator-pub")) {
        if (args.has(option)) {
          throw new UsageException(option + " needs --evaluator IDENTITY");
        }
      }
    }
    if (args.has("--currency") && !args.has("--amount")) {
      throw new UsageException("--currency needs --amount");
    }
    Ed25519PublicKey provider =
        args.has("--provider-key")
            ? Inputs.keyFile(args.value("--provider-key")).publicKey()
            : Inputs.publicKey("--provider-pub", args.value("--provider-pub"));
    AgreementBuilder builder =
        AgreementBuilder.template(args.value("--template"))
            .client(Inputs.keyFile(args.value("--client-key")).publicKey())
            .provider(provider);
    String evaluator = args.value("--evaluator");
    if (evaluator != null) {
      builder.evaluator(
          args.value("--evaluator-scheme", evaluator.startsWith("did:") ? "did" : "api_key"),
          evaluator,
          args.value("--evaluator-type", "agent_as_judge"),
          args.has("--evaluator-key")
              ? Inputs.keyFile(args.value("--evaluator-key")).publicKey()
              : args.has("--evaluator-pub")
                  ? Inputs.publicKey("--evaluator-pub", args.value("--evaluator-pub"))
                  : null);
    }
    if (args.has("--description")) {
      builder.description(args.value("--description"));
    }
    if (args.has("--amount")) {
      builder.payment(args.value("--amount"), args.value("--currency", "USDC"));
    }
    if (args.has("--challenge-window")) {
      builder.challengeWindowSeconds(
          Inputs.nonNegativeLong("--challenge-window", args.value("--challenge-window")));
    }
    if (args.has("--tests")) {
      String file = args.value("--tests");
      String language =
          dev.asa.evaluators.code.Language.ofPath(file)
              .map(dev.asa.evaluators.code.Language::wireName)
              .filter(dev.asa.agreement.CodeTests.LANGUAGES::contains)
              .orElseThrow(() ->
                  new UsageException(
                      "--tests "
                          + file
                          + ": name the test file .py, .js or .java (its language: one of "
                          + String.join(", ", dev.asa.agreement.CodeTests.LANGUAGES)
                          + ")"));
      builder.tests(language, Inputs.textFile(file));
    }
    if (args.has("--depth")) {
      String depth = args.value("--depth");
      if (!List.of("structural", "semantic", "composite").contains(depth)) {
        throw new UsageException("--depth must be structural, semantic or composite");
      }
      builder.verificationDepth(depth);
    }
    if (args.has("--id")) {
      builder.agreementId(args.value("--id"));
    }
    return builder.build();
  }
}
