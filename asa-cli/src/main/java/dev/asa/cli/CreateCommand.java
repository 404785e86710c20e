package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AgreementBuilder;
import dev.asa.client.AgreementView;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PublicKey;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code asa agreements create}: proposes a new agreement, either from a document on disk or from a
 * template and the parties' keys. The client holds its own key file; of the provider it usually
 * knows only the public key, hence {@code --provider-pub}.
 */
@Command(
    name = "create",
    header = "Proposes a new agreement (state PROPOSED) and prints its id and agreement_hash.",
    customSynopsis =
        "asa agreements create (--file DOC.json | --template TYPE --client-key FILE (--provider-key"
            + " FILE | --provider-pub KEY) --description TEXT [--evaluator IDENTITY [--evaluator-key"
            + " FILE | --evaluator-pub KEY] [--evaluator-scheme S]] [--amount 10.00 [--currency"
            + " USDC]] [--challenge-window SECONDS] [--tests FILE] [--depth D] [--id ID])"
            + " [--idempotency-key K]",
    description =
        "From a template, the parties are identified by the did:key of their keys, and the template"
            + " supplies every term not given here. Without --evaluator the server assigns a"
            + " registered, qualified, independent evaluator from its pool when the agreement"
            + " becomes ACTIVE. Without --amount the agreement carries no payment.")
final class CreateCommand implements Callable<Integer> {

  /** {@code --amount}: what the server takes, a decimal string with no sign. */
  private static final Pattern AMOUNT = Pattern.compile("(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?");

  /** {@code --currency}: a currency or token code in capitals. */
  private static final Pattern CURRENCY = Pattern.compile("[A-Z][A-Z0-9]{1,9}");

  @Mixin ServerOptions server;

  @Option(
      names = "--file",
      paramLabel = "DOC.json",
      description = "a complete or partial agreement document (it may name a \"template\")")
  String file;

  @Option(
      names = "--template",
      paramLabel = "TYPE",
      description = "the template to start from, e.g. general (see asa templates)")
  String template;

  @Option(
      names = "--client-key",
      paramLabel = "FILE",
      description = "the client's key file (only its public key is sent)")
  String clientKey;

  @Option(names = "--provider-key", paramLabel = "FILE", description = "the provider's key file")
  String providerKey;

  @Option(
      names = "--provider-pub",
      paramLabel = "KEY",
      description =
          "the provider's public key (base64url) or did:key, when you do not hold its key file")
  String providerPub;

  @Option(
      names = "--description",
      paramLabel = "TEXT",
      description = "the task, in words (service.description); required with --template")
  String description;

  @Option(
      names = "--evaluator",
      paramLabel = "IDENTITY",
      description =
          "the evaluator's identity value (default: the server assigns one from its pool)")
  String evaluator;

  @Option(
      names = "--evaluator-scheme",
      paramLabel = "S",
      description = "its identity scheme (default: did for a did:..., else api_key)")
  String evaluatorScheme;

  @Option(
      names = "--evaluator-key",
      paramLabel = "FILE",
      description = "the evaluator's key file (only its public key is used)")
  String evaluatorKey;

  @Option(
      names = "--evaluator-pub",
      paramLabel = "KEY",
      description =
          "the evaluator's public key (base64url or did:key): the key its results are signed with")
  String evaluatorPub;

  @Option(
      names = "--evaluator-type",
      paramLabel = "T",
      description = "the kind of evaluator (default agent_as_judge)")
  String evaluatorType;

  @Option(
      names = "--amount",
      paramLabel = "AMOUNT",
      description =
          "the payment held in escrow, a positive decimal such as 10.00 (leave it out for no"
              + " payment)")
  String amount;

  @Option(
      names = "--currency",
      paramLabel = "CODE",
      description = "the payment's currency or token code in capitals, such as USD (default USDC)")
  String currency;

  @Option(
      names = "--challenge-window",
      paramLabel = "SECONDS",
      description = "how long either party may challenge the result (template default 7200)")
  String challengeWindow;

  @Option(
      names = "--tests",
      paramLabel = "FILE",
      description =
          "a test file the delivered code must pass (.py, .js or .java), run by a server with its"
              + " code sandbox on")
  String tests;

  @Option(
      names = "--depth",
      paramLabel = "D",
      description =
          "how deep the server's own evaluators verify when nobody submits scores: structural,"
              + " semantic or composite")
  String depth;

  @Option(
      names = "--id",
      paramLabel = "ID",
      description = "the agreement id (default: the server picks one)")
  String id;

  @Option(
      names = "--idempotency-key",
      paramLabel = "K",
      description = "lets a retried create return the first answer instead of a second agreement")
  String idempotencyKey;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    JsonNode doc = file != null ? fromFile() : fromTemplate();
    // The client proposes: without --key, requests are signed with the --client-key it names.
    AsaClient client =
        session.keyFileName() == null && clientKey != null
            ? session.client().withKey(Inputs.keyFile(clientKey))
            : session.client();
    AgreementView created = client.agreements().create(doc, idempotencyKey);
    if (session.json()) {
      session.printJson(created.json());
      return Exit.OK;
    }
    String id = created.id();
    session.out().println("created agreement " + id);
    session
        .out()
        .print(
            Table.plain()
                .row("state", created.state().name())
                .row("agreement_hash", created.agreementHash())
                .render());
    session
        .out()
        .println(
            "next: each party signs with  asa agreements sign "
                + id
                + " --key FILE --as client|provider");
    return Exit.OK;
  }

  private JsonNode fromFile() throws UsageException, CliException {
    List<String> given =
        Stream.of(
                template == null ? null : "--template",
                clientKey == null ? null : "--client-key",
                providerKey == null ? null : "--provider-key",
                providerPub == null ? null : "--provider-pub",
                evaluator == null ? null : "--evaluator",
                evaluatorScheme == null ? null : "--evaluator-scheme",
                evaluatorType == null ? null : "--evaluator-type",
                evaluatorPub == null ? null : "--evaluator-pub",
                evaluatorKey == null ? null : "--evaluator-key",
                description == null ? null : "--description",
                amount == null ? null : "--amount",
                currency == null ? null : "--currency",
                challengeWindow == null ? null : "--challenge-window",
                tests == null ? null : "--tests",
                depth == null ? null : "--depth",
                id == null ? null : "--id")
            .filter(Objects::nonNull)
            .toList();
    if (!given.isEmpty()) {
      throw new UsageException("--file and " + given.get(0) + " cannot be used together");
    }
    return Inputs.jsonFile(file);
  }

  private ObjectNode fromTemplate() throws UsageException, CliException {
    if (template == null) {
      throw new UsageException("give --file DOC.json, or --template TYPE with the parties");
    }
    if (providerKey != null && providerPub != null) {
      throw new UsageException("--provider-key and --provider-pub cannot be used together");
    }
    if (clientKey == null) {
      throw new UsageException("missing --client-key FILE");
    }
    if (providerKey == null && providerPub == null) {
      throw new UsageException("missing --provider-key FILE or --provider-pub KEY");
    }
    if (evaluator == null) {
      for (String option :
          Stream.of(
                  evaluatorScheme == null ? null : "--evaluator-scheme",
                  evaluatorType == null ? null : "--evaluator-type",
                  evaluatorKey == null ? null : "--evaluator-key",
                  evaluatorPub == null ? null : "--evaluator-pub")
              .filter(Objects::nonNull)
              .toList()) {
        throw new UsageException(option + " needs --evaluator IDENTITY");
      }
    }
    if (description == null || description.isBlank()) {
      throw new UsageException("missing --description TEXT: the task, in words");
    }
    if (currency != null && amount == null) {
      throw new UsageException("--currency needs --amount");
    }
    Ed25519PublicKey provider =
        providerKey != null
            ? Inputs.keyFile(providerKey).publicKey()
            : Inputs.publicKey("--provider-pub", providerPub);
    AgreementBuilder builder =
        AgreementBuilder.template(template)
            .client(Inputs.keyFile(clientKey).publicKey())
            .provider(provider);
    if (evaluator != null) {
      builder.evaluator(
          evaluatorScheme != null
              ? evaluatorScheme
              : evaluator.startsWith("did:") ? "did" : "api_key",
          evaluator,
          evaluatorType != null ? evaluatorType : "agent_as_judge",
          evaluatorKey != null
              ? Inputs.keyFile(evaluatorKey).publicKey()
              : evaluatorPub != null ? Inputs.publicKey("--evaluator-pub", evaluatorPub) : null);
    }
    builder.description(description);
    if (amount != null) {
      builder.payment(amount(amount), currency(currency == null ? "USDC" : currency));
    }
    if (challengeWindow != null) {
      builder.challengeWindowSeconds(Inputs.nonNegativeLong("--challenge-window", challengeWindow));
    }
    if (tests != null) {
      String language =
          dev.asa.evaluators.Language.ofPath(tests)
              .map(dev.asa.evaluators.Language::wireName)
              .filter(dev.asa.agreement.CodeTests.LANGUAGES::contains)
              .orElseThrow(() ->
                  new UsageException(
                      "--tests "
                          + tests
                          + ": name the test file .py, .js or .java (its language: one of "
                          + String.join(", ", dev.asa.agreement.CodeTests.LANGUAGES)
                          + ")"));
      builder.tests(language, Inputs.textFile(tests));
    }
    if (depth != null) {
      if (!List.of("structural", "semantic", "composite").contains(depth)) {
        throw new UsageException("--depth must be structural, semantic or composite");
      }
      builder.verificationDepth(depth);
    }
    if (id != null) {
      builder.agreementId(id);
    }
    return builder.build();
  }

  /**
   * {@code --amount}: a positive decimal. Zero would be an agreement that moves no money, which is
   * what leaving the option out already says.
   */
  static String amount(String text) throws UsageException {
    if (!AMOUNT.matcher(text).matches()) {
      throw new UsageException(
          "--amount must be a positive decimal such as 12.50 (digits, a point and the decimals;"
              + " no sign), not '"
              + text
              + "'");
    }
    if (new BigDecimal(text).signum() == 0) {
      throw new UsageException(
          "--amount 0 would hold nothing in escrow: leave --amount out for an agreement without"
              + " payment");
    }
    return text;
  }

  /** {@code --currency}: a code in capitals such as USD, EUR or USDC. */
  static String currency(String text) throws UsageException {
    if (!CURRENCY.matcher(text).matches()) {
      throw new UsageException(
          "--currency must be an ISO 4217 code in capitals such as USD (or a token code such as"
              + " USDC), not '"
              + text
              + "'");
    }
    return text;
  }
}
