package dev.asa.evaluators.judge;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The judge's rubrics: one per dimension of the section 5.4 default table, and a generic one for
 * any other name an agreement uses.
 *
 * <p>Kept in Java rather than in resource files so that a rubric and its id change in the same
 * reviewed commit, and so that a missing rubric is a compile error rather than a runtime surprise.
 */
public final class Rubrics {

  /** The rubric for dimensions this registry does not know. */
  public static final Rubric GENERIC =
      new Rubric(
          "generic-v1",
          "*",
          "How well the deliverable does what the dimension's name (and the agreement's description of it, if any) asks for, for this request.",
          "Fully meets the dimension for this request; at most trivial issues.",
          "Meets it in the main, with some clear but minor shortcomings.",
          "Meets it only partly; shortcomings a client would have to fix.",
          "Barely addresses the dimension, or gets it wrong.");

  /**
   * Dimensions the judge does not score: they are measured, not judged, by the structural evaluator
   * (delivery time against the deadline; format and schema checks). A model's opinion of them would
   * only add noise.
   */
  public static final Set<String> STRUCTURAL = Set.of("timeliness", "format_compliance");

  /**
   * Rubric families a request may name in {@code evaluator_config.rubric_id}. In v1 every family
   * uses the per-dimension rubrics below; the family id is recorded in the prompt so that a later
   * version can differ per deliverable type without changing what old evidence trails mean.
   */
  public static final List<String> FAMILIES =
      List.of("research-v1", "analysis-v1", "code-v1", "data-v1", "translation-v1", "general-v1");

  /** Names the whitepaper's own examples use for the same dimensions. */
  private static final Map<String, String> ALIASES =
      Map.of(
          "source_quality", "sources",
          "writing_quality", "writing",
          "cultural_appropriateness", "cultural_fit");

  private static final Map<String, Rubric> BY_DIMENSION = new LinkedHashMap<>();

  static {
    add(
        "accuracy",
        "Whether the deliverable's statements of fact, figures, citations and conclusions are correct.",
        "Every checked claim is correct and precisely stated; no invented facts, figures or citations.",
        "Mostly correct; a few imprecisions (a date, a rounded figure) that do not change any conclusion.",
        "Several errors, or one error that changes a conclusion; some claims cannot be trusted.",
        "Largely wrong or invented: fabricated sources, figures or events.");
    add(
        "completeness",
        "Whether the deliverable covers everything the request asked for, at the depth asked for.",
        "Every part of the request is addressed; nothing a client would miss.",
        "The main parts are addressed; one secondary part is thin or missing.",
        "Important parts of the request are missing or only mentioned.",
        "Addresses only a small fraction of the request.");
    add(
        "relevance",
        "Whether the content addresses the request rather than something near it; tangents and padding lower it.",
        "Everything in it serves the request; no tangents or filler.",
        "On topic overall, with some tangential or padded passages.",
        "Much of it is off topic or generic text that would fit many requests.",
        "Mostly unrelated to the request.");
    add(
        "sources",
        "The quality, relevance and traceability of the sources the deliverable relies on and cites.",
        "Claims that need support cite specific, authoritative, checkable sources (peer-reviewed, primary, official).",
        "Sources are cited for most key claims; some are secondary or weak (blogs, press releases).",
        "Few sources, vague references (\"studies show\"), or sources that do not support the claim.",
        "No usable sources, or sources that look invented.");
    add(
        "writing",
        "The quality of the writing: structure, grammar, precision and readability for the intended reader.",
        "Well structured, precise and easy to read; no language errors worth noting.",
        "Clear on the whole; some awkward sentences, repetition or structural weaknesses.",
        "Hard to follow in places: poor structure, frequent errors or ambiguity.",
        "Barely readable.");
    add(
        "methodology",
        "Whether the analysis uses appropriate, stated methods and applies them correctly (data handling, assumptions, statistics).",
        "Methods are appropriate, stated and correctly applied; assumptions and limits are explicit.",
        "Sound methods with gaps in justification or some unstated assumptions.",
        "Questionable or poorly applied methods; conclusions are only weakly supported by them.",
        "No discernible method, or one that cannot support the conclusions.");
    add(
        "depth",
        "How far the analysis goes beyond the obvious: causes, trade-offs, implications, non-trivial insight.",
        "Explains causes, trade-offs and implications; insight a domain expert would value.",
        "Goes beyond a summary in places but stays mostly descriptive.",
        "Mostly restates the obvious or the input; little analysis.",
        "Superficial throughout.");
    add(
        "clarity",
        "How easily the intended reader can understand the deliverable and find what they need.",
        "Immediately understandable; terms defined; the key points stand out.",
        "Understandable with some effort; some jargon or buried key points.",
        "Confusing in important places; the reader must guess what is meant.",
        "Incomprehensible for the intended reader.");
    add(
        "actionability",
        "Whether the reader can act on the deliverable: concrete, prioritised, feasible recommendations or next steps.",
        "Concrete, prioritised, feasible recommendations tied to the findings.",
        "Useful recommendations, but some are generic or not prioritised.",
        "Mostly generic advice that does not follow from the findings.",
        "Nothing a reader could act on.");
    add(
        "correctness",
        "Whether the code does what the request specifies, including edge cases and error handling, and would compile/run.",
        "Implements the specification correctly including edge cases; no bugs found on careful reading.",
        "Correct on the main paths; minor bugs or unhandled edge cases.",
        "Significant bugs, missing required behaviour, or it would not compile/run as given.",
        "Does not do what was asked.");
    add(
        "performance",
        "Whether the code's time and memory use are reasonable for the stated or implied scale.",
        "Appropriate algorithms and data structures; no avoidable hot spots at the expected scale.",
        "Acceptable, with some avoidable inefficiencies.",
        "Inefficiencies that would matter at the expected scale (e.g. quadratic where linear is easy).",
        "Unusable at the expected scale.");
    add(
        "security",
        "Whether the code avoids vulnerabilities: injection, unsafe deserialisation, secrets in code, missing validation, weak crypto.",
        "No vulnerabilities found; inputs validated, secrets handled properly, safe defaults.",
        "No serious vulnerability; minor hardening missing.",
        "At least one exploitable weakness or careless handling of secrets or input.",
        "Critical vulnerabilities (e.g. remote code execution, SQL injection, hard-coded credentials).");
    add(
        "maintainability",
        "How easy the code is to read, change and test: structure, naming, duplication, coupling.",
        "Clear structure and naming, little duplication, easy to change and test.",
        "Readable, with some long functions, duplication or tight coupling.",
        "Hard to follow or change: tangled logic, poor names, heavy duplication.",
        "Unmaintainable.");
    add(
        "documentation",
        "Whether the code or deliverable explains what it does, how to use it and why non-obvious choices were made.",
        "Usage, interfaces and non-obvious decisions are documented accurately and concisely.",
        "Main usage documented; gaps in details or rationale.",
        "Sparse or outdated documentation; a user would have to read the code.",
        "No useful documentation.");
    add(
        "consistency",
        "Whether the data is internally consistent: units, formats, categories, totals and identifiers agree throughout.",
        "Consistent units, formats and categories; totals and cross-references agree.",
        "Mostly consistent; a few stray formats or labels.",
        "Inconsistencies that would break analysis (mixed units, contradictory records).",
        "Pervasively inconsistent.");
    add(
        "metadata",
        "Whether the data comes with the metadata needed to use it: field definitions, units, provenance, dates, licence.",
        "Fields, units, provenance and collection dates are documented.",
        "Most fields documented; provenance or units partly missing.",
        "Little metadata; meaning of several fields must be guessed.",
        "No metadata.");
    add(
        "fluency",
        "Whether the translation reads naturally in the target language, as if written in it.",
        "Reads as natural native text; idiomatic and grammatical.",
        "Natural on the whole with some awkward or literal phrasing.",
        "Frequently stilted or ungrammatical; clearly a translation.",
        "Hard to read in the target language.");
    add(
        "terminology",
        "Whether domain terms are translated correctly and consistently, following any glossary or standard usage.",
        "Correct, consistent domain terminology throughout (and glossary followed where one is given).",
        "Mostly correct; a few inconsistent or non-standard terms.",
        "Frequent wrong or inconsistent terms that could mislead a specialist.",
        "Terminology largely wrong.");
    add(
        "cultural_fit",
        "Whether the text suits the target audience's conventions: idioms, formality, units, dates, references.",
        "Fully adapted: idioms, formality, formats and references fit the audience.",
        "Mostly adapted; some conventions or references left from the source culture.",
        "Noticeably foreign or inappropriate for the audience in places.",
        "Unsuitable or offensive for the audience.");
    add(
        "thoroughness",
        "Whether the review examines everything in scope and finds the issues a careful reviewer would find.",
        "Covers the whole scope and finds the significant issues, including non-obvious ones.",
        "Covers most of the scope; misses some secondary issues.",
        "Skims; misses significant issues or whole parts of the scope.",
        "Barely examines the material.");
    add(
        "tone",
        "Whether the tone suits the purpose and audience: professional, respectful, constructive where feedback is given.",
        "Tone fits purpose and audience exactly; constructive and respectful.",
        "Appropriate overall, with some lapses (too curt, too effusive).",
        "Often unsuitable: dismissive, condescending or overly casual.",
        "Hostile or wholly inappropriate.");
    add(
        "timeliness",
        "Delivery by the deadline. Measured by the structural evaluator from the delivery time; never judged by a model.",
        "Delivered on time.",
        "-",
        "-",
        "Delivered late.");
    add(
        "format_compliance",
        "Conformance to the required format, schema and sections. Measured by the structural evaluator; never judged by a model.",
        "All structural checks pass.",
        "-",
        "-",
        "The checks fail.");
  }

  private Rubrics() {}

  private static void add(
      String dimension, String measures, String at90, String at70, String at40, String at10) {
    BY_DIMENSION.put(
        dimension, new Rubric(dimension + "-v1", dimension, measures, at90, at70, at40, at10));
  }

  /**
   * The rubric for a dimension name (aliases such as {@code source_quality} included), or {@link
   * #GENERIC}.
   */
  public static Rubric forDimension(String name) {
    return known(name).orElse(GENERIC);
  }

  /** The dedicated rubric for a dimension name, if there is one. */
  public static Optional<Rubric> known(String name) {
    String key = name.toLowerCase(Locale.ROOT).strip();
    return Optional.ofNullable(BY_DIMENSION.get(ALIASES.getOrDefault(key, key)));
  }

  /** Whether the dimension is measured by the structural evaluator instead of the judge. */
  public static boolean isStructural(String name) {
    return STRUCTURAL.contains(name.toLowerCase(Locale.ROOT).strip());
  }

  /** Every dedicated rubric, in the order of the section 5.4 table. */
  public static List<Rubric> all() {
    return List.copyOf(BY_DIMENSION.values());
  }
}
