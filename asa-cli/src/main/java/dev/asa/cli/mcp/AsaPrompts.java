package dev.asa.cli.mcp;

import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import java.util.List;
import java.util.Map;

/**
 * Prompts a host offers its user: how to hire a provider without paying for nothing, and how to
 * judge a delivery as the evaluator. They only say which tools to call in which order and what to
 * check between them; the tools refuse what the protocol forbids anyway.
 */
final class AsaPrompts {
  private AsaPrompts() {}

  static final String HIRE =
      """
      You are hiring another agent through ASA, acting for the key of this MCP server, to do this \
      task: %s
      The provider is %s; the budget is %s.

      Do it safely, in this order, with the asa tools:
      1. whoami: note your own did:key. list_templates: pick the template whose quality \
      dimensions fit the task, and read its SLOs, composite threshold and payment tiers.
      2. create_agreement with that template, the task as description, the provider's did:key, \
      the amount as a decimal string and its currency. Name an evaluator (its did:key) only if \
      you trust it to be independent of the provider; otherwise leave evaluator out and the \
      server assigns one from its qualified pool. Never name yourself or the provider.
      3. get_agreement: read the terms the server recorded (parties, dimensions, tiers, \
      challenge window, escrow binding). If they are not what you meant, negotiate or stop.
      4. sign_agreement, passing the agreement_hash you read, so that you sign exactly those \
      terms. Wait until agreement_status shows both signatures and state ACTIVE.
      5. Only then fund_escrow. Never fund before both parties have signed: the money is held \
      in escrow and released only by the verdict.
      6. Follow agreement_status: DELIVERED, then VERIFIED with the determination. If the verdict \
      is wrong for a reason you can name (evaluator_error, deliverable_mismatch, ...), challenge \
      it before the challenge window closes; otherwise let it close.
      7. When the state is CLOSED, report what the provider was paid and what came back to you \
      (agreement_status: payment), and check agreement_events: chain_valid must be true.
      If a tool answers an error, read its text: it says what the server refused and why.
      """;

  static final String EVALUATE =
      """
      You are the evaluator of ASA agreement %s, acting for the key of this MCP server.
      1. get_agreement: read service.description (what was asked) and \
      quality_criteria.dimensions (name, metric, SLO, what each measures).
      2. evaluator_tasks: the task that asks what this agreement asks holds the delivered \
      content and the dimensions to score. Judge only what was delivered.
      3. Score each dimension that needs judgement from 0 to 100 with evidence a party can check \
      (which claims you verified, what is missing). Do not score format or timeliness: the \
      server measures those itself.
      4. submit_task_result with a score for every dimension the task lists, and your confidence \
      (0 to 1); or submit_evaluation on the agreement, which takes the same scores.
      Judge as you would want to be judged: both parties can challenge a careless verdict.
      """;

  static List<SyncPromptSpecification> prompts() {
    return List.of(
        new SyncPromptSpecification(
            new McpSchema.Prompt(
                "hire_a_provider",
                "Hire a provider safely",
                "Hire another agent through ASA: read the terms, check the evaluator, sign what"
                    + " you read, fund only after both signatures, follow it to payment.",
                List.of(
                    new PromptArgument("task", "Task", "What the provider is to do.", true),
                    new PromptArgument("provider", "Provider", "The provider's did:key.", true),
                    new PromptArgument(
                        "budget", "Budget", "The amount and currency, e.g. 10.00 USD.", false))),
            (exchange, request) ->
                prompt(
                    "Hire a provider safely",
                    HIRE.formatted(
                        argument(request.arguments(), "task", "(the task)"),
                        argument(request.arguments(), "provider", "(the provider's did:key)"),
                        argument(request.arguments(), "budget", "to be agreed")))),
        new SyncPromptSpecification(
            new McpSchema.Prompt(
                "evaluate_a_delivery",
                "Judge a delivery as its evaluator",
                "Score a delivered agreement as its named evaluator, with evidence.",
                List.of(
                    new PromptArgument(
                        "agreement_id", "Agreement", "The agreement to judge.", true))),
            (exchange, request) ->
                prompt(
                    "Judge a delivery",
                    EVALUATE.formatted(
                        argument(request.arguments(), "agreement_id", "(the agreement id)")))));
  }

  private static String argument(Map<String, Object> arguments, String name, String otherwise) {
    Object value = arguments == null ? null : arguments.get(name);
    return value == null || value.toString().isBlank() ? otherwise : value.toString();
  }

  private static GetPromptResult prompt(String description, String text) {
    return new GetPromptResult(
        description,
        List.of(new PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent(text))));
  }
}
