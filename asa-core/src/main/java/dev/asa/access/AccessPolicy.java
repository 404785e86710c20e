package dev.asa.access;

import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.document.Agreement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who may do what to an agreement: the one table of docs/access.md's authorization section, and the
 * one place that applies it. A caller's roles come from matching its key to the agreement's {@code
 * parties.*.verification_key} and, for an agreement that names no evaluator, to the keys of the
 * pool evaluators assigned at activation ({@link Agreement#evaluators()}): an assigned evaluator
 * holds exactly the role a named one does. A key can hold no role (a stranger, who learns nothing:
 * 404), or act out of its role (403, with the reason).
 *
 * <pre>
 * operation                   client provider evaluator operator
 * READ (agreement, events...)   yes     yes      yes       yes
 * NEGOTIATE                     yes     yes       -         -
 * SIGN_AS_CLIENT                yes      -        -         -
 * SIGN_AS_PROVIDER               -      yes       -         -
 * FUND                          yes      -        -         -
 * STAKE_COLLATERAL               -      yes       -         -
 * DELIVER                        -      yes       -         -
 * TRIGGER_VERIFICATION          yes     yes      yes        -
 * SUBMIT_VERIFICATION_RESULT     -       -       yes        -
 * CHALLENGE                     yes     yes       -         -
 * CLOSE                         yes     yes      yes        -
 * RULE                           -       -        -        yes
 * ANCHOR                        yes     yes       -         -
 * </pre>
 *
 * TRIGGER_VERIFICATION is a role's right to ask; whether the server's built-in evaluator may then
 * decide is the terms' ({@link Judging}): where a named or assigned evaluator judges, the ask is
 * refused whoever makes it.
 *
 * <p>Creating an agreement is the client's: the caller's key must be the document's client key
 * ({@link #requireProposer}). The operator reads every agreement (it runs the server and answers
 * for it: the console shows it everything a party could read) but acts on none except to rule on a
 * dispute.
 */
public final class AccessPolicy {
  private AccessPolicy() {}

  private static final Map<Operation, Set<Role>> ALLOWED =
      Map.ofEntries(
          Map.entry(Operation.READ, EnumSet.of(Role.CLIENT, Role.PROVIDER, Role.EVALUATOR)),
          Map.entry(Operation.NEGOTIATE, EnumSet.of(Role.CLIENT, Role.PROVIDER)),
          Map.entry(Operation.SIGN_AS_CLIENT, EnumSet.of(Role.CLIENT)),
          Map.entry(Operation.SIGN_AS_PROVIDER, EnumSet.of(Role.PROVIDER)),
          Map.entry(Operation.FUND, EnumSet.of(Role.CLIENT)),
          Map.entry(Operation.STAKE_COLLATERAL, EnumSet.of(Role.PROVIDER)),
          Map.entry(Operation.DELIVER, EnumSet.of(Role.PROVIDER)),
          Map.entry(
              Operation.TRIGGER_VERIFICATION,
              EnumSet.of(Role.CLIENT, Role.PROVIDER, Role.EVALUATOR)),
          Map.entry(Operation.SUBMIT_VERIFICATION_RESULT, EnumSet.of(Role.EVALUATOR)),
          Map.entry(Operation.CHALLENGE, EnumSet.of(Role.CLIENT, Role.PROVIDER)),
          Map.entry(Operation.CLOSE, EnumSet.of(Role.CLIENT, Role.PROVIDER, Role.EVALUATOR)),
          Map.entry(Operation.RULE, EnumSet.noneOf(Role.class)),
          Map.entry(Operation.ANCHOR, EnumSet.of(Role.CLIENT, Role.PROVIDER)));

  /** The roles a caller holds in an agreement (empty for a stranger; the server holds none). */
  public static Set<Role> rolesOf(Agreement agreement, Caller caller) {
    Set<Role> roles = EnumSet.noneOf(Role.class);
    if (caller instanceof Caller.Key k) {
      AgreementTerms terms = agreement.terms();
      List<Party> parties =
          new ArrayList<>(List.of(terms.parties().client(), terms.parties().provider()));
      parties.addAll(agreement.evaluators());
      for (Party p : parties) {
        if (p.key().map(k.key()::equals).orElse(false)) {
          roles.add(p.role());
        }
      }
    }
    return roles;
  }

  /** Whether the table allows the operation to anyone holding these roles. */
  public static boolean allows(Operation op, Set<Role> roles, boolean operator) {
    if (operator && (op == Operation.READ || op == Operation.RULE)) {
      return true;
    }
    return roles.stream().anyMatch(ALLOWED.get(op)::contains);
  }

  /**
   * Whether the caller signed with the operator key: it reads every agreement, and alone lists and
   * counts them all without naming a party.
   */
  public static boolean isOperator(Caller caller) {
    return caller instanceof Caller.Key k && k.operator();
  }

  /** Whether the caller may read the agreement: a party, its evaluator or the operator. */
  public static boolean mayRead(Agreement agreement, Caller caller) {
    return caller instanceof Caller.Server
        || allows(Operation.READ, rolesOf(agreement, caller), isOperator(caller));
  }

  /**
   * Allows the operation or throws: 404-style for a caller with no role (and not the server), 403
   * with the reason for a party out of its role. The operator, holding no role, reads and rules;
   * anything else it tries is answered as to a stranger.
   */
  public static void require(Agreement agreement, Caller caller, Operation op) {
    if (caller instanceof Caller.Server) {
      return; // the server acts for the built-in evaluator and its timers; routes never pass it
    }
    boolean operator = isOperator(caller);
    Set<Role> roles = rolesOf(agreement, caller);
    if (allows(op, roles, operator)) {
      return;
    }
    if (roles.isEmpty() && !(operator && op == Operation.RULE)) {
      throw AccessDeniedException.notFound(agreement.id());
    }
    String who = describe(roles);
    throw AccessDeniedException.forbidden(
        ("aeiou".indexOf(who.charAt(0)) >= 0 ? "an " : "a ")
            + who
            + " may not "
            + verb(op)
            + " this agreement; that is for the "
            + describe(ALLOWED.get(op))
            + (op == Operation.RULE ? "operator" : ""));
  }

  /** Only the client named in a document may propose it. */
  public static void requireProposer(AgreementTerms terms, Caller caller) {
    if (caller instanceof Caller.Key k
        && k.key().equals(terms.parties().client().verificationKey())) {
      return;
    }
    throw AccessDeniedException.forbidden(
        "only the client may propose an agreement: sign the request with the key in"
            + " parties.client.verification_key");
  }

  private static String describe(Set<Role> roles) {
    if (roles.isEmpty()) {
      return "";
    }
    return String.join(" or ", roles.stream().map(Role::wireName).toList());
  }

  private static String verb(Operation op) {
    return switch (op) {
      case READ -> "read";
      case NEGOTIATE -> "negotiate";
      case SIGN_AS_CLIENT -> "sign the client's slot of";
      case SIGN_AS_PROVIDER -> "sign the provider's slot of";
      case FUND -> "fund";
      case STAKE_COLLATERAL -> "stake collateral on";
      case DELIVER -> "deliver on";
      case TRIGGER_VERIFICATION -> "trigger verification of";
      case SUBMIT_VERIFICATION_RESULT -> "submit verification results for";
      case CHALLENGE -> "challenge the result of";
      case CLOSE -> "close";
      case RULE -> "rule on";
      case ANCHOR -> "anchor";
    };
  }
}
