package dev.asa.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.agreement.SignatureRefusedException;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.facts.Fact;
import dev.asa.facts.ServerFacts;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An agreement document: its typed {@link AgreementTerms}, its state, its signatures and its
 * digest, and beside it the {@link ServerFacts} the server keeps about it.
 *
 * <p>Immutable. The JSON document is kept whole (unknown members of a known version round-trip
 * unchanged) and every "with" method returns a new agreement. A signature can only be added through
 * {@link #withSignature}, which verifies it first: there is no way to build an agreement that
 * claims a signature its party did not make. The document never holds server facts: they live in
 * their own field, stored in their own column, and a document that carries {@code metadata} is
 * refused when read ({@link AgreementDocuments#read}).
 */
public final class Agreement {

  /**
   * Members outside the signed terms: they change during the lifecycle without breaking signatures.
   * {@code metadata} is where responses render the server's facts; it is never part of the hash, so
   * a rendered document hashes like the one the parties signed.
   */
  public static final java.util.Set<String> UNSIGNED_MEMBERS =
      java.util.Set.of("status", "signatures", "metadata");

  /**
   * The member under which responses render {@link ServerFacts}; refused in any document a caller
   * sends.
   */
  public static final String FACTS_MEMBER = "metadata";

  /** The {@code type} of an evaluator the pool assigned (it has no {@code parties.evaluator}). */
  public static final String POOL_EVALUATOR_TYPE = "pool";

  private final ObjectNode document;
  private final AgreementTerms terms;
  private final State state;
  private final Digest hash;
  private final Map<Role, Ed25519Signature> signatures;
  private final ServerFacts facts;
  // The members but status as JSON text, written once for this agreement and every one made from
  // it by a change of state or facts (they share those members): see MembersText.
  private final MembersText.Shared membersText;

  Agreement(ObjectNode document, AgreementTerms terms, ServerFacts facts) {
    this(document, terms, computeHash(document), facts, new MembersText.Shared(document));
  }

  /**
   * For changes outside the signed terms (status, signatures, facts): the hash stays. {@code
   * membersText} is the one of the agreement changed where only status or facts changed, a new one
   * where a member changed.
   */
  private Agreement(
      ObjectNode document,
      AgreementTerms terms,
      Digest hash,
      ServerFacts facts,
      MembersText.Shared membersText) {
    if (document.has(FACTS_MEMBER)) {
      throw new IllegalArgumentException(
          "an agreement document never holds server facts; they are kept apart");
    }
    this.document = document;
    this.terms = terms;
    this.state = State.fromWire(document.path("status").asText("proposed"));
    this.hash = hash;
    this.signatures = readSignatures(document);
    this.facts = Objects.requireNonNull(facts, "facts");
    this.membersText = membersText;
  }

  /**
   * {@code sha256:} + hex of SHA-256 over the JCS form of the document minus status, signatures and
   * metadata.
   */
  public static Digest computeHash(JsonNode document) {
    ObjectNode terms = shallowCopy((ObjectNode) document);
    terms.remove(UNSIGNED_MEMBERS);
    return Digest.sha256(Jcs.canonicalize(terms));
  }

  /**
   * A new top-level object sharing the members' values. Safe because an agreement never changes a
   * node it holds: a change replaces top-level members of a copy (and copies a member it must edit
   * inside, as {@link #withSignature} does), and {@link #toJson} hands out deep copies. A deep copy
   * of the whole document on every state change was the largest allocation on the request path.
   */
  private static ObjectNode shallowCopy(ObjectNode document) {
    ObjectNode copy = document.objectNode();
    copy.setAll(document);
    return copy;
  }

  private static Map<Role, Ed25519Signature> readSignatures(ObjectNode document) {
    Map<Role, Ed25519Signature> map = new EnumMap<>(Role.class);
    JsonNode sigs = document.path("signatures");
    for (Role role : new Role[] {Role.CLIENT, Role.PROVIDER}) {
      JsonNode s = sigs.path(role.wireName()).path("value");
      if (s.isTextual()) {
        map.put(role, Ed25519Signature.fromBase64Url(s.asText()));
      }
    }
    return map;
  }

  public String id() {
    return terms.agreementId();
  }

  public AgreementTerms terms() {
    return terms;
  }

  public State state() {
    return state;
  }

  /** The digest both parties sign (as the UTF-8 bytes of its {@code sha256:...} string). */
  public Digest hash() {
    return hash;
  }

  /** The exact bytes a party signs: the UTF-8 encoding of the agreement_hash string. */
  public byte[] signingInput() {
    return hash.toString().getBytes(StandardCharsets.UTF_8);
  }

  public Optional<Ed25519Signature> signature(Role role) {
    return Optional.ofNullable(signatures.get(role));
  }

  public boolean isSignedBy(Role role) {
    return signatures.containsKey(role);
  }

  public boolean isFullySigned() {
    return signatures.containsKey(Role.CLIENT) && signatures.containsKey(Role.PROVIDER);
  }

  /**
   * A copy of the document as the parties wrote it, with status and signatures; no server facts.
   */
  public ObjectNode toJson() {
    return document.deepCopy();
  }

  /**
   * A copy of one top-level member of the document ({@code parties}, {@code escrow}...), or a
   * missing node where it has none: for reading a part, without copying the whole document as
   * {@link #toJson} must.
   */
  public JsonNode member(String name) {
    return document.path(name).deepCopy();
  }

  /** The document as {@link #toJson} gives it, as JSON text (written without copying it first). */
  public String toJsonText() {
    return Json.write(document);
  }

  /**
   * The document as the store keeps it: without its status, which the stored row's state holds (so
   * that a change of state alone leaves the stored text as it was, see {@link
   * #sameDocumentButStatus}), and without server facts, which are kept beside it. {@link
   * AgreementDocuments#readStored(String, State)} puts the status back.
   */
  public String toStoredText() {
    return membersText.get().object();
  }

  /**
   * Whether this agreement's document is {@code other}'s but for its status: the same members, each
   * the very same node. Changes replace the members they change (see {@link #shallowCopy}), so a
   * change of state or facts answers true and a signature, a new term or a parsed copy false (false
   * costs only a stored text written again).
   */
  public boolean sameDocumentButStatus(Agreement other) {
    if (other.document == document) {
      return true;
    }
    int members = 0;
    for (var it = document.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!name.equals("status")) {
        if (other.document.get(name) != document.get(name)) {
          return false;
        }
        members++;
      }
    }
    return members == other.document.size() - (other.document.has("status") ? 1 : 0);
  }

  /**
   * The document with the server's facts beside it, as answers show it, to be written out and
   * dropped: its members, the facts' node among them, are this agreement's own nodes, not copies (a
   * copy of the whole document was a twentieth of all the bytes the server allocated), so it must
   * never be changed; {@link #toJson} gives a copy to change. It writes itself from the texts kept
   * for the stored row ({@link AnswerJson}).
   */
  public ObjectNode toAnswerJson() {
    return AnswerJson.of(document, membersText, facts);
  }

  /**
   * Who judges this agreement: the pool evaluators the server assigned ({@code
   * metadata.assigned_evaluators}, type {@code pool}, the primary first: at activation for an
   * agreement that names none, or as a backup), else the evaluator {@code parties.evaluator} names;
   * none for an agreement that names none and is not active yet. The one answer to "is this key the
   * evaluator?", for access and for the verification result.
   */
  public List<Party> evaluators() {
    // The server's assignment wins: for an agreement that names its evaluator, there is one only
    // when a backup replaced that evaluator (it timed out, or failed a canary).
    Optional<Party> named = terms.parties().evaluator();
    if (named.isPresent() && facts.assignedEvaluators().isEmpty()) {
      return List.of(named.get());
    }
    return facts
        .assignedEvaluators()
        .map(a ->
            a.evaluators().stream()
                .map(e ->
                    new Party(
                        Role.EVALUATOR,
                        new Identity(e.identityScheme(), e.identityValue(), e.lineage()),
                        e.displayName(),
                        e.organization(),
                        e.key(),
                        POOL_EVALUATOR_TYPE))
                .toList())
        .orElse(List.of());
  }

  /** What the server knows about this agreement. */
  public ServerFacts facts() {
    return facts;
  }

  /**
   * Adds a party's signature after checking it against that party's verification_key and this
   * agreement's hash. Throws {@link SignatureRefusedException} (and changes nothing) otherwise.
   */
  public Agreement withSignature(Role role, Ed25519Signature signature) {
    Objects.requireNonNull(signature, "signature");
    if (role == Role.EVALUATOR) {
      throw new SignatureRefusedException("only the client and the provider sign an agreement");
    }
    Party party = terms.parties().signer(role);
    if (!party.verificationKey().verify(signingInput(), signature)) {
      throw new SignatureRefusedException(
          "the "
              + role.wireName()
              + " signature does not verify: sign the UTF-8 bytes of the"
              + " agreement_hash string \""
              + hash
              + "\" with the private key of parties."
              + role.wireName()
              + ".verification_key");
    }
    ObjectNode copy = shallowCopy(document);
    ObjectNode sigs =
        copy.get("signatures") instanceof ObjectNode signed ? signed.deepCopy() : copy.objectNode();
    copy.set("signatures", sigs);
    ObjectNode entry = sigs.putObject(role.wireName());
    entry.put("scheme", "ed25519");
    entry.put("value", signature.toBase64Url());
    return new Agreement(copy, terms, hash, facts, new MembersText.Shared(copy));
  }

  /**
   * The same terms in another state (only {@code dev.asa.lifecycle} decides whether that is
   * allowed).
   */
  public Agreement withState(State next) {
    ObjectNode copy = shallowCopy(document);
    copy.put("status", next.wireName());
    return new Agreement(copy, terms, hash, facts, membersText);
  }

  /** The same agreement with one untyped server fact recorded (outside the signed terms). */
  public Agreement withFact(Fact fact, JsonNode value) {
    return new Agreement(document, terms, hash, facts.with(fact, value), membersText);
  }

  /**
   * The same agreement with its facts changed by {@code change} (e.g. {@code f ->
   * f.withEscrow(...)}).
   */
  public Agreement withFacts(java.util.function.UnaryOperator<ServerFacts> change) {
    return new Agreement(document, terms, hash, change.apply(facts), membersText);
  }

  /**
   * The same agreement with all of {@code facts} (e.g. carried over to a renegotiated document).
   */
  public Agreement withFacts(ServerFacts facts) {
    return new Agreement(document, terms, hash, facts, membersText);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Agreement a && a.document.equals(document) && a.facts.equals(facts);
  }

  @Override
  public int hashCode() {
    return document.hashCode() * 31 + facts.hashCode();
  }

  @Override
  public String toString() {
    return "Agreement[" + id() + ", " + state + ", " + hash + "]";
  }
}
