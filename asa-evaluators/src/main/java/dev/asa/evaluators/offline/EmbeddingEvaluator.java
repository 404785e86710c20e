package dev.asa.evaluators.offline;

import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.Progress;
import dev.asa.evaluators.embedding.Calibration;
import dev.asa.evaluators.embedding.Model;
import dev.asa.evaluators.text.Passages;
import dev.asa.evaluators.text.PlainText;
import dev.asa.evaluators.text.Rendered;
import dev.asa.evaluators.text.Sentences;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The offline semantic evaluator: all-MiniLM-L6-v2 (quantized) sentence embeddings, in process, no
 * network, no cost. It answers "is this about what was asked, and does it touch every part of the
 * ask?" and measures a few things anyone could count; it cannot tell whether anything is true.
 *
 * <p>What it scores, each with evidence and a confidence that grows with the strength of the
 * signal:
 *
 * <ul>
 *   <li>{@code relevance}: similarity of the deliverable's best passages to the request, mapped by
 *       {@link Calibration}, and the share of passages on topic;
 *   <li>{@code completeness} / {@code coverage}: the request split into its asks ({@link
 *       RequestParts}); each ask earns credit from the similarity of its best passage; a
 *       single-part question is also scaled by the parts its form calls for ({@link Facets}: steps
 *       for "how", items for "list"); scaled by the share of the request's explicit instructions
 *       followed ({@link Constraints}) and by the share of vague sentences ({@link Substance});
 *   <li>{@code sources} / {@code source_quality} / {@code citations}: citations counted ({@link
 *       Citations}); 15 points a source, 10 more for a reference list, at most 100;
 *   <li>{@code writing} / {@code writing_quality} / {@code clarity} / {@code fluency} / {@code
 *       readability}: readability, layout and repetition ({@link Writing}).
 * </ul>
 *
 * <p>Relevance, completeness and writing are scaled by how much the answer says of its own: its
 * distinct content words beyond the request's, in sentences on the request's topic ({@link
 * OwnContent}); a request to rework its own text (paraphrase, summarize, edit) or for a short
 * answer is exempt. Each sentence is measured against the request ({@link Closeness}), and one off
 * its topic can lower relevance, completeness and writing but never raise them, nor count as a step
 * of a "how" answer; a sentence on topic only through the request's own words, woven into it, is
 * read without them by every signal.
 *
 * <p>Before anything is measured, sentences of prose that only restate the request or speak to the
 * evaluator, courtesies about the answer itself ("I hope this helps"), and empty steps and list
 * items ("Then, think about the details."), are taken out ({@link ScoredText}), so that none can
 * raise a score; so is a letter's form (salutation, sign-off, placeholders to fill in), which would
 * otherwise count against a letter as off its topic. The evidence says how many.
 *
 * <p>Shadow metrics it measures, when a scored dimension names one: {@code verbosity} (the
 * percentage of words off topic or repeated), {@code repetition_rate} and {@code word_count}. Every
 * other dimension comes back not evaluated, with what it would take to judge it.
 *
 * <p>Thread-safe; one instance serves the whole process, and all instances share one model.
 */
public final class EmbeddingEvaluator implements Evaluator {

  public static final String ID = "embedding/all-minilm-l6-v2-q";
  public static final String TYPE = "embedding";
  public static final String MODEL = "all-MiniLM-L6-v2 (quantized)";

  /** Whether this build carries the model: the lean distribution leaves it out. */
  public static boolean modelInThisBuild() {
    return Model.inThisBuild();
  }

  private static final Set<String> RELEVANCE = Set.of("relevance");
  private static final Set<String> COMPLETENESS = Set.of("completeness", "coverage");
  private static final Set<String> SOURCES = Set.of("sources", "source_quality", "citations");
  private static final Set<String> WRITING =
      Set.of("writing", "writing_quality", "clarity", "fluency", "readability");

  /** Formats that are not prose: readability and citation counts say nothing about them. */
  private static final Set<String> NOT_PROSE = Set.of("code", "json", "csv", "yaml", "xml");

  /**
   * Points a cited source earns, and the bonus for a reference list: 5 sources and a list make 85.
   */
  static final int POINTS_PER_SOURCE = 15;

  static final int REFERENCE_LIST_POINTS = 10;

  /**
   * Fewer words than this for each ask of the request, and completeness shrinks in proportion. Kept
   * low: on the development corpus a higher floor (it was 25) rewarded length, and a request such
   * as "answer in one word" has a right answer shorter than any floor worth having.
   */
  static final int WORDS_PER_ASK = 5;

  /**
   * What share of completeness rests on the request's explicit instructions ({@link Constraints})
   * when it states any: an answer that ignores every one keeps 1 - this of its coverage.
   */
  static final double INSTRUCTIONS_WEIGHT = 0.5;

  /**
   * How much vagueness ({@link Substance}) costs completeness, by its share of vague sentences: an
   * answer of nothing but hedges and filler keeps little more than 1 - this of its coverage (one
   * concrete sentence's benefit of the doubt, {@link Substance#BENEFIT_OF_DOUBT}). 0.75 measured
   * best on the development corpus (0.5, 0.75 and 1.0 tried; none lowered a category against no
   * vagueness signal).
   */
  static final double VAGUENESS_WEIGHT = 0.75;

  /**
   * How much the parts a single-part question calls for ({@link Facets}) weigh in its coverage: an
   * answer to "explain how X works" with no step, mechanism or list keeps 1 - this of its coverage.
   * 0.5 measured best on the development corpus (0.25, 0.5 and 0.75 tried).
   */
  static final double FACETS_WEIGHT = 0.5;

  /**
   * How much saying little of one's own ({@link OwnContent}) costs relevance, completeness and
   * writing: an answer with no content word beyond the request's keeps 1 - this of each. Measured
   * with {@code asa judge-eval} on the development corpus: 0.5 and 0.75 tried, with full credit at
   * 10 and 15 words, on the three dimensions and on relevance and completeness alone. 0.75 at 10 on
   * all three lifted PandaLM's human pairs from 63.2% to 69.3% (the longer answer: 67.5%) and the
   * whole corpus from 62.8% to 65.3%, at a cost to LLMBar's adversarial sets (58.3% to 50.8%),
   * whose right answers are often one short sentence beside a long answer to another question.
   * (With sentences off the topic kept from raising a score, see {@link #lower}, and requests for a
   * short answer exempt: 69.1%, 65.4% and 51.7%.)
   */
  static final double OWN_WEIGHT = 0.75;

  /**
   * How much depth costs beyond saying enough ({@link OwnContent#depth}): an answer with {@value
   * OwnContent#FULL} words of its own keeps 1 - this x 0.39 of its prose scores, one with {@value
   * OwnContent#DEPTH_FULL} keeps all. Two sufficient answers to a chat request both scored 95 to
   * 100 and were told apart by noise; people prefer the one that says more. Measured with {@code
   * asa judge-eval}, weight and full depth: 0.1 and 50 left the development corpus at 67.2% overall
   * (PandaLM 71.6% to 72.0%, GPTOut 42.6% to 44.7%, GPTInst 58.7% to 57.6%, Neighbor 49.3% to
   * 47.8%, Manual 47.8% to 45.7%), and lifted FairEval's 66 ChatGPT-against-Vicuna pairs, the chat
   * answers most like the held-out set's (measured here only: it has no licence to copy it into the
   * corpus), from 59.1% to 66.7% (and 200 LLMEval² pairs, shorter answers, from 63.0% to 63.5%).
   * Heavier weights buy more there at a price the corpus shows: 0.1 and 100, FairEval 69.7% and the
   * corpus 67.0%; 0.2 and 100, 71.2% and 66.2%; depth as part of {@link #OWN_WEIGHT} itself (full
   * credit from 100), 75.8% and 65.1%, the adversarial sets down by 10 points: they pair a long
   * answer to a neighbouring question with a short right one.
   */
  static final double DEPTH_WEIGHT = 0.1;

  /**
   * How much depth costs beyond saying enough, where the request calls for an extended answer
   * rather than asking a direct question ({@link DirectQuestion}): there depth is full from {@value
   * OwnContent#EXTENDED_DEPTH_FULL} words of its own, and an answer keeps its prose scores as
   * measured at {@value OwnContent#EXTENDED_DEPTH_PAR} ({@link OwnContent#EXTENDED_DEPTH_PAR}).
   * People choosing between two chat answers reward saying more on the topic far more than any
   * dimension here: a logistic model over this evaluator's own measures, fitted on Auto-J and
   * PandaLM, weighed a doubling of an answer's words of its own as 52 points of completeness.
   * Chosen on the counts {@code asa judge-eval} recorded on the development sets, against the light
   * depth every request had before (Auto-J 64.6%, FairEval 72.7%, LLMEval² 63.0%, PandaLM 72.8%,
   * LLMBar's Natural 69.0% and adversarial sets 49.5%): weights 0.6 to 0.8 with full depth at 200
   * to 600 words, Auto-J 67.8% to 68.8%, FairEval 75.8%, LLMEval² 59.0% to 59.5%, PandaLM 73.5% to
   * 73.9%, Natural 68.0%, adversarial 37.9% to 40.1%; 0.9, Auto-J 69.3% and one of the project's
   * own orderings turned. Counted only for an answer close to the request, as reach is, it won the
   * adversarial pairs back (40.4% to 48.6%) and lost Auto-J 0.8 to 5.0 points: not kept. What it
   * costs is plain: LLMBar's adversarial pairs set a long answer to a neighbouring question beside
   * a short right one, and the long one now wins more of them.
   */
  static final double EXTENDED_DEPTH_WEIGHT = 0.7;

  /** The weight of depth for this request: heavy where it calls for an extended answer. */
  private static double depthWeight(OwnContent own) {
    return own.extended() ? EXTENDED_DEPTH_WEIGHT : DEPTH_WEIGHT;
  }

  /**
   * How much reach costs completeness ({@link OwnContent#reach}): an answer keeps 1 - this of its
   * completeness and earns the rest back as it reaches further, in full at {@value
   * OwnContent#REACH_FULL} words of its own, if it is close to the request. Depth saturates at
   * {@value OwnContent#DEPTH_FULL} words, and past it two strong answers to a chat request were
   * left level and told apart by noise, where people prefer the one that says more (Auto-J's pairs
   * of strong models: the longer answer wins 71.4% of them). Only an answer at least {@value
   * #REACH_FROM} relevant counts its reach in full, and one below {@value #REACH_NONE} not at all:
   * LLMBar's adversarial pairs set a long answer to a neighbouring question beside a short right
   * one, and every depth measure without this gate lost them what it won on chat (see {@link
   * #DEPTH_WEIGHT}). Measured with {@code asa judge-eval}, net pairs: weight 0.1 with the gate from
   * 75 to 85 and full reach at 300 words, Auto-J +6 (61.7% to 62.3%), FairEval +2, LLMEval² +1, the
   * corpus +1 (PandaLM +2, LLMBar Manual -1); full reach at 150, Auto-J +9 and the corpus -1;
   * weight 0.15, or the gate from 80 to 90, no more on Auto-J and pairs lost elsewhere.
   */
  static final double REACH_WEIGHT = 0.1;

  /**
   * What each sum the answer works out wrong ({@link Arithmetic}) costs its completeness, for at
   * most {@value #WRONG_SUMS_COUNTED} of them (one wrong step often carries into the next). Right
   * sums earn nothing. Measured with {@code asa judge-eval}: of the 5,260 answers in the corpus,
   * Auto-J, FairEval and LLMEval², 6 scores moved, each for a true mistake ("2+2*2=8", "1 -
   * 273.15/274.15 = 0.0248", "7 - 3 = 10"); Auto-J +1 pair, nothing lost. Rare in these sets, but
   * the held-out set has a math and a reasoning category, where a wrong sum is the usual mistake.
   */
  static final double WRONG_SUM_COST = 0.25;

  static final int WRONG_SUMS_COUNTED = 2;

  /** Relevance below which an answer's reach counts nothing. */
  static final double REACH_NONE = 75;

  /** Relevance from which an answer's reach counts in full. */
  static final double REACH_FROM = 85;

  private static final int STEPS = 4;
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String type() {
    return TYPE;
  }

  /** Loads the model now (about a second) rather than in the first evaluation. */
  public void warmUp() throws EvaluationException {
    embed("warm-up", "warm-up", new Model.Memo());
  }

  @Override
  public Evaluation evaluate(EvaluationTask task) throws EvaluationException {
    Progress progress = task.progress();
    // Read as a person reads it: no zero-width characters inside words, no look-alike letters
    // from another script, which would hide a hedge or a restatement from every pattern below.
    String request = PlainText.of(task.request());
    String content = PlainText.of(task.deliverable().content());
    List<Dimension> dimensions = task.criteria().dimensions();
    Map<String, DimensionInput> inputs = new LinkedHashMap<>();
    boolean prose = isProse(task);
    int hidden = 0;
    String madeUpTurn = null;
    if (prose) {
      Rendered shown = Rendered.of(content);
      content = shown.text();
      hidden = shown.hidden();
      // The answer ends where it starts writing the asker's next turn (Transcript).
      Transcript transcript = Transcript.of(request, content);
      content = transcript.answer();
      madeUpTurn = transcript.madeUpTurn();
    }
    // Restatements of the request and words to the evaluator are taken out of prose before anything
    // is measured, so neither can raise a score; a counting run ("2020, 2021, 2022, ...") is read
    // as its two ends. Code and data are left as they are, and so is a translation, whose request
    // is the source text: names, numbers and cognates are meant to carry over, and only words to
    // the evaluator are taken out of it.
    ScoredText scored =
        prose && !task.deliverableType().equals("translation")
            ? ScoredText.of(request, content)
            : prose ? ScoredText.ofTranslation(content) : ScoredText.whole(content);
    if (content.isBlank() || scored.text().isBlank()) {
      String why = nothingToScore(content, hidden, madeUpTurn, scored);
      for (Dimension d : dimensions) {
        inputs.put(d.name(), empty(d, why));
      }
      progress.update(why, STEPS, STEPS);
      return new Evaluation(ID, TYPE, MODEL, inputs, Map.of(), Evaluation.Usage.FREE);
    }
    // What the reader sees, before restatements and the like are taken out: its layout (JSON, a
    // table, a list) is a fact of the deliverable, and a JSON whose lines repeat the request's
    // words is JSON all the same.
    String delivered = content;
    content = scored.text();

    Translation translation =
        task.deliverableType().equals("translation") ? Translation.of(request) : null;
    // How much the answer says of its own scales the prose dimensions, writing among them, so the
    // model runs for those too: a writing score must not depend on which other dimensions are
    // asked for.
    boolean ownContentApplies = prose && translation == null;
    boolean needsModel =
        dimensions.stream()
            .anyMatch(d ->
                RELEVANCE.contains(d.name())
                    || COMPLETENESS.contains(d.name())
                    || (ownContentApplies && WRITING.contains(d.name()))
                    || "verbosity".equals(d.shadowMetric()));
    boolean modelRuns = needsModel && !request.isBlank();
    Model.Memo memo = new Model.Memo(); // each text of this evaluation embedded once
    Closeness closeness = null;
    if (modelRuns && ownContentApplies) {
      progress.update("measuring each sentence against the request with " + MODEL, 0, STEPS);
      closeness = closeness(request, content, memo);
      // A sentence on topic only through the request's own words is read without them from here
      // on, by every signal: woven into an answer, they raise nothing.
      content = closeness.read(content);
    }

    progress.update("measuring text signals", 1, STEPS);
    Writing writing = Writing.of(content);
    Citations citations = Citations.of(content);
    Similarities similarities = null;
    if (modelRuns) {
      progress.update("embedding the request and the deliverable with " + MODEL, 2, STEPS);
      similarities = embed(request, content, memo);
    }

    progress.update("scoring " + dimensions.size() + " dimensions", 3, STEPS);
    OwnContent own = closeness == null ? null : OwnContent.of(request, closeness);
    OnTopic onTopic = closeness == null ? null : onTopic(request, content, closeness, memo);
    Measured m =
        new Measured(
            content,
            prose,
            writing,
            citations,
            similarities,
            translation,
            closeness,
            own,
            onTopic,
            request,
            delivered);
    for (Dimension d : dimensions) {
      inputs.put(d.name(), noted(input(d, m), scored, closeness, hidden, madeUpTurn));
    }
    progress.update("done", STEPS, STEPS);
    // Every word piece the model read: each sentence (and each read without the request's words),
    // the passages, and those the answer read again without its sentences off the request's topic
    // did not share with it; a text embedded once is counted once.
    long tokens =
        (similarities == null ? 0 : similarities.tokens())
            + (closeness == null ? 0 : closeness.tokens())
            + (onTopic == null ? 0 : onTopic.similarities().tokens());
    return new Evaluation(
        ID, TYPE, MODEL, inputs, Map.of(), new Evaluation.Usage(tokens, 0, BigDecimal.ZERO));
  }

  /** Why nothing of the deliverable is left to score. */
  private static String nothingToScore(
      String content, int hidden, String madeUpTurn, ScoredText scored) {
    if (content.isBlank() && madeUpTurn != null) {
      return "the deliverable only writes a made-up next turn of the conversation (\""
          + snippet(madeUpTurn)
          + "\" and after), not an answer to the request";
    }
    if (content.isBlank()) {
      return hidden > 0
          ? "nothing is left once what a reader never sees (HTML comments, hidden elements, link"
              + " definitions) is taken out"
          : "the deliverable is empty (no text once whitespace is removed)";
    }
    if (scored.copied()) {
      return "the deliverable is the request's own text given back as it was: nothing of its own is"
          + " left to score";
    }
    if (scored.directives().isEmpty() && !scored.declined().isEmpty()) {
      return "the deliverable declines the work (\""
          + scored.declined().get(0)
          + "\") and does nothing else";
    }
    return scored.directives().isEmpty() && !scored.announced().isEmpty()
        ? "the deliverable only announces what follows (\""
            + scored.announced().get(0)
            + "\") and nothing follows it"
        : "nothing is left to score once the sentences addressed to the evaluator are taken out";
  }

  private static Similarities embed(String request, String content, Model.Memo memo)
      throws EvaluationException {
    return withModel(() -> Similarities.measure(request, content, memo));
  }

  /** The answer read again without its sentences off the topic, or null when there is none. */
  private static OnTopic onTopic(
      String request, String content, Closeness closeness, Model.Memo memo)
      throws EvaluationException {
    String without = closeness.withoutOffTopic(content);
    return without == null
        ? null
        : new OnTopic(without, embed(request, without, memo), closeness.offTopicSentences().size());
  }

  private static Closeness closeness(String request, String content, Model.Memo memo)
      throws EvaluationException {
    boolean unweave = !OwnContent.reworksItsOwnText(request);
    return withModel(() -> Closeness.measure(request, content, unweave, memo));
  }

  /** A call to the model; its failure is the evaluator being unavailable, not a bad deliverable. */
  private static <T> T withModel(Supplier<T> call) throws EvaluationException {
    try {
      return call.get();
    } catch (IllegalStateException | UnsupportedOperationException e) {
      throw new EvaluationException(
          EvaluationException.Reason.UNAVAILABLE, MODEL + " could not run: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new EvaluationException(
          EvaluationException.Reason.UNAVAILABLE, MODEL + " failed while embedding: " + e, e);
    }
  }

  private static boolean isProse(EvaluationTask task) {
    String format = task.deliverable().format();
    boolean notProse =
        (format != null && NOT_PROSE.contains(format.toLowerCase(Locale.ROOT)))
            || task.deliverableType().equals("code")
            || task.deliverableType().equals("data");
    return !notProse;
  }

  /**
   * The answer read again without its sentences off the request's topic.
   *
   * @param removed how many sentences were left out
   */
  private record OnTopic(String content, Similarities similarities, int removed) {}

  /** What was measured once, for all dimensions. */
  private record Measured(
      String content,
      boolean prose,
      Writing writing,
      Citations citations,
      Similarities similarities,
      Translation translation,
      Closeness closeness,
      OwnContent own,
      OnTopic onTopic,
      String request,
      String delivered) {
    boolean hasRequest() {
      return !request.isBlank();
    }

    /** The same answer read without its sentences off the request's topic. */
    Measured onTopicOnly() {
      return new Measured(
          onTopic.content(),
          prose,
          Writing.of(onTopic.content()),
          Citations.of(onTopic.content()),
          onTopic.similarities(),
          translation,
          closeness,
          own,
          null,
          request,
          delivered);
    }
  }

  private static DimensionInput input(Dimension d, Measured m) {
    String name = d.name();
    boolean percent = d.metric() == MetricType.PERCENTAGE || d.metric() == MetricType.SCORE;
    if (SOURCES.contains(name) && (percent || d.metric() == MetricType.COUNT)) {
      return m.prose ? shadow(d, sources(d, m.citations), m) : notProse(name);
    }
    boolean known =
        RELEVANCE.contains(name) || COMPLETENESS.contains(name) || WRITING.contains(name);
    if (known && !percent) {
      return DimensionInput.notEvaluated(
          name,
          "the offline embedding evaluator scores "
              + name
              + " only as a percentage or score, not as a "
              + d.metric().wireName());
    }
    if (RELEVANCE.contains(name) || COMPLETENESS.contains(name)) {
      if (!m.hasRequest()) {
        return DimensionInput.notEvaluated(
            name, "the request text is empty, so there is nothing to compare the deliverable with");
      }
      return shadow(
          d,
          RELEVANCE.contains(name)
              ? owned(relevance(m), m.own)
              : reached(owned(completeness(name, m), m.own), m),
          m);
    }
    if (WRITING.contains(name)) {
      return m.prose ? shadow(d, owned(writing(name, m), m.own), m) : notProse(name);
    }
    return cannotJudge(name);
  }

  // ------------------------------------------------------------------ relevance and coverage

  private static DimensionInput relevance(Measured m) {
    DimensionInput whole = relevance(m.similarities, m.translation != null);
    return m.onTopic == null
        ? whole
        : lower(whole, relevance(m.onTopic.similarities(), false), m.onTopic);
  }

  private static DimensionInput relevance(Similarities s, boolean translation) {
    double top = s.topMean();
    int on = s.onTopic();
    int n = s.passageCount();
    double mapped = Calibration.relevance(top);
    double share = 100.0 * on / n;
    double score = 0.7 * mapped + 0.3 * share;
    StringBuilder e = new StringBuilder();
    e.append(
        String.format(
            Locale.ROOT,
            "mean similarity of the %s to the request %.2f (on topic from about %.2f); ",
            s.topK() == 1 ? "best-matching passage" : s.topK() + " best-matching passages",
            top,
            Calibration.ON_TOPIC));
    e.append(on)
        .append(" of ")
        .append(n)
        .append(n == 1 ? " passage" : " passages")
        .append(
            String.format(
                Locale.ROOT, " on topic (similarity at least %.2f)", Calibration.PASSAGE_ON_TOPIC));
    if (on < n) {
      int w = s.weakest();
      e.append(
          String.format(
              Locale.ROOT,
              "; least related: \"%s\" (%.2f)",
              snippet(s.passages().passages().get(w)),
              s.toRequest()[w]));
    }
    e.append(
        String.format(
            Locale.ROOT,
            "; score 0.7 x %.0f (similarity %.2f->0, %.2f->50, %.2f->100) + 0.3 x %.0f%% on topic",
            mapped,
            Calibration.RELEVANCE_ZERO,
            Calibration.ON_TOPIC,
            Calibration.RELEVANCE_FULL,
            share));
    sampled(e, s.passages());
    double confidence = Calibration.marginConfidence(top, Calibration.ON_TOPIC, 0.2);
    if (translation) {
      // The source is in another language, which the English-only model reads poorly.
      e.append(
          "; the request is mostly source text in another language, which the model reads poorly");
      confidence = Math.min(confidence, 0.6);
    }
    return scored("relevance", score, e.toString(), confidence);
  }

  /**
   * Coverage of the request's asks. Each ask earns credit from the similarity of its best passage
   * (asks for citations: full credit when any citation is found); the request's key terms found in
   * the deliverable ({@link KeyTerms}) make 30% of the score when there are at least two; and an
   * ask cannot be answered in a handful of words, so below {@value #WORDS_PER_ASK} words an ask the
   * score shrinks in proportion.
   */
  private static DimensionInput completeness(String name, Measured m) {
    DimensionInput whole = coverage(name, m);
    return m.onTopic == null ? whole : lower(whole, coverage(name, m.onTopicOnly()), m.onTopic);
  }

  private static DimensionInput coverage(String name, Measured m) {
    if (m.translation != null) {
      return translationCompleteness(name, m);
    }
    Similarities s = m.similarities;
    RequestParts asks = s.parts();
    List<String> parts = asks.content();
    double[] best = s.partBest();
    double credit = 0;
    double confidence = 0;
    List<String> covered = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      credit += Calibration.partCredit(best[p]);
      confidence += Calibration.marginConfidence(best[p], Calibration.partCovered(), 0.15);
      String quoted = String.format(Locale.ROOT, "\"%s\" (%.2f)", snippet(parts.get(p)), best[p]);
      (best[p] >= Calibration.partCovered() ? covered : missing).add(quoted);
    }
    int sources = m.citations.sources();
    for (String c : asks.citation()) {
      credit += sources > 0 ? 1 : 0;
      confidence += 0.9; // counting citations is sure; whether they are apt is another matter
      (sources > 0 ? covered : missing)
          .add(
              "\""
                  + snippet(c)
                  + "\" ("
                  + sources
                  + (sources == 1 ? " citation" : " citations")
                  + " found)");
    }
    double semantic = credit / asks.asks();
    KeyTerms terms = KeyTerms.of(parts, m.content);
    boolean useTerms = terms.total() >= 2;
    double base = useTerms ? 0.7 * semantic + 0.3 * terms.share() : semantic;
    int words = Sentences.wordCount(m.content);
    double needed = WORDS_PER_ASK * asks.asks();
    double lengthFactor = Math.min(1, words / needed);
    // The text a request hands over is not instructions: "a 400-word landing page" in a search
    // result it quotes asks for nothing.
    Constraints instructions = Constraints.of(s.material(), m.content, m.delivered);
    double instructionFactor =
        instructions.any() ? 1 - INSTRUCTIONS_WEIGHT * (1 - instructions.share()) : 1;
    // A single-part question still calls for parts of an answer ("how": steps; "list": items).
    Facets facets =
        asks.single() && m.prose
            ? Facets.of(s.material().instruction(), m.content, m.closeness).orElse(null)
            : null;
    double facetFactor = facets != null ? 1 - FACETS_WEIGHT * (1 - facets.share()) : 1;
    Substance substance = Substance.of(m.content, RequestWords.ofInstruction(m.request));
    double substanceFactor =
        m.prose && substance.measurable() ? 1 - VAGUENESS_WEIGHT * substance.vagueShare() : 1;
    Arithmetic arithmetic = Arithmetic.of(m.content, m.request);
    double arithmeticFactor =
        m.prose ? 1 - WRONG_SUM_COST * Math.min(arithmetic.wrong().size(), WRONG_SUMS_COUNTED) : 1;
    double score =
        100
            * base
            * facetFactor
            * lengthFactor
            * instructionFactor
            * substanceFactor
            * arithmeticFactor;

    StringBuilder e = new StringBuilder();
    if (asks.single()) {
      e.append(
          String.format(
              Locale.ROOT,
              "the request is a single part; %s",
              covered.isEmpty()
                  ? "not covered: " + missing.getFirst()
                  : "covered: " + covered.getFirst()));
      e.append(
          facets != null
              ? String.format(Locale.ROOT, "; %s; scaled by %.2f", facets.describe(), facetFactor)
              : "; its form (neither \"how\" nor \"list\") calls for no parts that can be counted");
    } else {
      e.append(
          String.format(
              Locale.ROOT, "%d of %d parts of the request covered", covered.size(), asks.asks()));
      e.append(missing.isEmpty() ? "" : "; not covered: " + String.join(", ", missing));
    }
    e.append(
        String.format(
            Locale.ROOT,
            "; a part is covered when its best passage, list item or sentence of %d words or more has similarity at least %.2f, and earns credit from %.2f (none) to %.2f (full)",
            Passages.STATEMENT_WORDS,
            Calibration.partCovered(),
            Calibration.PART_ZERO,
            Calibration.PART_FULL));
    if (useTerms) {
      e.append("; ")
          .append(terms.found().size())
          .append(" of ")
          .append(terms.total())
          .append(" key terms of the request found");
      List<String> notes = new ArrayList<>();
      if (!terms.spelledOut().isEmpty()) {
        notes.add(terms.describeSpelledOut());
      }
      if (!terms.missing().isEmpty()) {
        notes.add("missing: " + String.join(", ", terms.missing()));
      }
      e.append(notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
    }
    if (lengthFactor < 1) {
      e.append(
          String.format(
              Locale.ROOT,
              "; %d words for %d asks, under %d an ask: scaled by %.2f",
              words,
              asks.asks(),
              WORDS_PER_ASK,
              lengthFactor));
    }
    if (instructions.any()) {
      e.append(
          String.format(
              Locale.ROOT,
              "; instructions: %d of %d followed: %s; scaled by %.2f",
              instructions.met(),
              instructions.checks().size(),
              instructions.describe(),
              instructionFactor));
    }
    if (m.prose && substance.measurable()) {
      e.append(
          String.format(
              Locale.ROOT,
              "; substance: %s; scaled by %.2f",
              substance.describe(),
              substanceFactor));
    }
    if (m.prose && arithmetic.checked() > 0) {
      e.append(
          String.format(
              Locale.ROOT,
              "; arithmetic: %s; scaled by %.2f",
              arithmetic.describe(),
              arithmeticFactor));
    }
    String factors =
        (facets != null ? " x parts called for" : "")
            + (lengthFactor < 1 ? " x length" : "")
            + (instructions.any() ? " x instructions" : "")
            + (m.prose && substance.measurable() ? " x substance" : "")
            + (arithmeticFactor < 1 ? " x arithmetic" : "");
    e.append(
        useTerms
            ? String.format(
                Locale.ROOT,
                "; score %.0f = (0.7 x %.0f%% coverage + 0.3 x %.0f%% terms)%s",
                score,
                100 * semantic,
                100 * terms.share(),
                factors)
            : String.format(
                Locale.ROOT, "; score %.0f = %.0f%% coverage%s", score, 100 * semantic, factors));
    if (!asks.form().isEmpty()) {
      e.append("; not checked by similarity (about form, not content; see instructions): ")
          .append(
              String.join(", ", asks.form().stream().map(f -> "\"" + snippet(f) + "\"").toList()));
    }
    sampled(e, s.passages());
    return scored(name, score, e.toString(), confidence / asks.asks());
  }

  /**
   * See {@link Translation}: length against the source, and the source's numbers and names kept.
   */
  private static DimensionInput translationCompleteness(String name, Measured m) {
    Translation t = m.translation;
    double ratio = t.lengthRatio(m.content);
    // A text of the right length about something else is not a translation: length earns credit
    // only as far as the text is on topic (the relevance ramp from RELEVANCE_ZERO to ON_TOPIC).
    double topic =
        Calibration.ramp(
            m.similarities.topMean(), Calibration.RELEVANCE_ZERO, Calibration.ON_TOPIC);
    double lengthCredit = t.lengthCredit(m.content) * topic;
    KeyTerms terms = t.terms(m.content);
    boolean useTerms = terms.total() >= 2;
    double score = 100 * (useTerms ? 0.5 * lengthCredit + 0.5 * terms.share() : lengthCredit);
    StringBuilder e =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "translation of %d source words in %d words, a ratio of %.2f (full credit from %.2f)",
                Sentences.wordCount(t.source()),
                Sentences.wordCount(m.content),
                ratio,
                Translation.FULL_LENGTH_RATIO));
    if (useTerms) {
      e.append("; ")
          .append(terms.found().size())
          .append(" of ")
          .append(terms.total())
          .append(" numbers and names of the source kept")
          .append(
              terms.missing().isEmpty()
                  ? ""
                  : " (missing: " + String.join(", ", terms.missing()) + ")")
          .append(
              String.format(
                  Locale.ROOT,
                  "; score 0.5 x %.0f%% length + 0.5 x %.0f%% terms",
                  100 * lengthCredit,
                  100 * terms.share()));
    }
    if (topic < 1) {
      e.append(
          String.format(
              Locale.ROOT,
              "; length credit scaled by %.2f: the text's similarity to the request (%.2f) is below the on-topic line %.2f",
              topic,
              m.similarities.topMean(),
              Calibration.ON_TOPIC));
    }
    e.append(
        "; the English-only embedding model cannot match source sentences to their translations, so coverage is measured this way");
    double confidence =
        0.9 * Calibration.marginConfidence(ratio, Translation.FULL_LENGTH_RATIO, 0.5);
    return scored(name, score, e.toString(), confidence);
  }

  private static void sampled(StringBuilder e, Passages p) {
    if (p.sampled()) {
      e.append("; sampled ")
          .append(p.passages().size())
          .append(" of ")
          .append(p.total())
          .append(" passages, evenly spread");
    }
  }

  // ------------------------------------------------------------------ counted signals

  private static DimensionInput sources(Dimension d, Citations c) {
    int n = c.sources();
    String counted = n + (n == 1 ? " source" : " sources") + " cited (" + c.describe() + ")";
    String caveat =
        "; counted, not checked: whether they exist, are reputable and support the text needs a judge";
    // Each certain kind of citation (a link, a DOI, a list entry) makes the count surer;
    // author-year
    // patterns alone can be dates or names that are not citations.
    int certain = c.urls() + c.dois() + c.referenceEntries() + c.numbered();
    double confidence = n == 0 ? 0.9 : 0.7 + 0.2 * Math.min(1, (double) certain / Math.max(1, n));
    if (d.metric() == MetricType.COUNT) {
      return DimensionInput.scored(
          d.name(), BigDecimal.valueOf(n), counted + caveat, decimal(confidence, 2), TYPE);
    }
    int score =
        Math.min(
            100, POINTS_PER_SOURCE * n + (c.hasReferenceSection() ? REFERENCE_LIST_POINTS : 0));
    String rule =
        "; score "
            + POINTS_PER_SOURCE
            + " a source"
            + (c.hasReferenceSection()
                ? " + " + REFERENCE_LIST_POINTS + " for the reference list"
                : "")
            + ", at most 100";
    return scored(d.name(), score, counted + rule + caveat, confidence);
  }

  /** Writing, read with and without the sentences off the request's topic: see {@link #lower}. */
  private static DimensionInput writing(String name, Measured m) {
    DimensionInput whole = writing(name, m.writing);
    return m.onTopic == null
        ? whole
        : lower(whole, writing(name, m.onTopicOnly().writing), m.onTopic);
  }

  /**
   * The lower of a score read on the whole answer and on the answer without its sentences off the
   * request's topic (relevance, completeness and writing are read both ways): such a sentence can
   * lower a score and never raise it. Appended to a short answer, generic sentences ("As mentioned
   * above, this matters a great deal.") would otherwise raise its reading ease and sentence length
   * into their bands, and, read by the model with it, even its paragraph's similarity to the
   * request.
   */
  private static DimensionInput lower(DimensionInput whole, DimensionInput without, OnTopic on) {
    if (without.score().compareTo(whole.score()) >= 0) {
      return whole;
    }
    return withScore(
        without,
        without.score(),
        String.format(
            Locale.ROOT,
            "; scored without %d %s off the request's topic (%s with them), the lower taken",
            on.removed(),
            on.removed() == 1 ? "sentence" : "sentences",
            whole.score().toPlainString()));
  }

  private static DimensionInput writing(String name, Writing w) {
    int words = w.words();
    // Surface signals are a weak proxy for good writing, and weaker still on a short text.
    double confidence = 0.35 + 0.4 * Math.min(1, words / 400.0);
    String evidence =
        "text signals over "
            + words
            + " words: "
            + w.describe()
            + "; score 0.25 ease + 0.25 sentence length + 0.2 layout + 0.3 repetition; whether the prose is correct, apt and well argued needs a judge";
    return scored(name, w.score(), evidence, confidence);
  }

  /** Fills the dimension's shadow metric when it is one this evaluator measures. */
  private static DimensionInput shadow(Dimension d, DimensionInput input, Measured m) {
    if (!input.isEvaluated() || d.shadowMetric() == null) {
      return input;
    }
    Repetition r = m.writing.repetition();
    int words = m.writing.words();
    return switch (d.shadowMetric()) {
      case "word_count" -> input.withShadow(BigDecimal.valueOf(words), "words in the deliverable");
      case "repetition_rate", "repetition" ->
          input.withShadow(
              decimal(r.ratePercent(), 1),
              String.format(
                  Locale.ROOT,
                  "%d of %d sentences repeated; %.1f%% of word three-grams seen before",
                  r.repeatedSentences(),
                  r.sentences(),
                  100 * r.repeatedTrigramShare()));
      case "verbosity" -> verbosity(input, m, words);
      default -> input;
    };
  }

  /**
   * Verbosity as the research template defines it, the percentage of padded or redundant content:
   * words in passages below the on-topic line, plus the repeated share of the rest.
   */
  private static DimensionInput verbosity(DimensionInput input, Measured m, int words) {
    double repeated = m.writing.repetition().ratePercent() / 100;
    if (m.similarities == null) {
      return input.withShadow(
          decimal(100 * repeated, 1),
          String.format(
              Locale.ROOT,
              "repetition only (no request to judge padding against): %.1f%% of %d words repeated",
              100 * repeated,
              words));
    }
    double off = m.similarities.offTopicWordShare();
    double v = 100 * (off + (1 - off) * repeated);
    return input.withShadow(
        decimal(v, 1),
        String.format(
            Locale.ROOT,
            "%.1f%% of %d words in off-topic passages, %.1f%% of the rest repeated",
            100 * off,
            words,
            100 * repeated));
  }

  /**
   * Scales a prose dimension by how much the answer says of its own ({@link OwnContent}): an answer
   * with nothing beyond the request's words keeps 1 - {@link #OWN_WEIGHT} of its score, one with
   * {@value OwnContent#FULL} words of its own keeps all of that part, and depth beyond them earns
   * the last {@link #DEPTH_WEIGHT} up to {@value OwnContent#DEPTH_FULL} words for a direct
   * question, the last {@link #EXTENDED_DEPTH_WEIGHT} up to {@value OwnContent#EXTENDED_DEPTH_FULL}
   * for a request that calls for an extended answer.
   */
  private static DimensionInput owned(DimensionInput input, OwnContent own) {
    if (own == null || !input.isEvaluated()) {
      return input;
    }
    if (own.exemptBecause() != null) {
      return withScore(
          input,
          input.score(),
          "; " + own.exemptBecause() + ", so how much the answer adds of its own is not counted");
    }
    double thin = 1 - OWN_WEIGHT * (1 - own.share());
    double depthWeight = depthWeight(own);
    // Relative to the depth expected of it (OwnContent.EXTENDED_DEPTH_PAR): an answer that says
    // more than that earns, never past 100.
    double factor =
        thin * (1 - depthWeight * (1 - own.depth())) / (1 - depthWeight * (1 - own.parDepth()));
    boolean earns = factor > 1; // only past the par, so never with thin < 1
    String note =
        String.format(
            Locale.ROOT,
            "; %s: %s; %sscaled by %.2f%s",
            thin < 1 ? "says little of its own" : "how much it says of its own",
            own.describe(),
            earns ? "more than expected, " : "",
            factor,
            earns ? " (at most 100)" : "");
    return earns
        ? withScore(input, decimal(Math.min(100, input.score().doubleValue() * factor), 1), note)
        : scaled(input, factor, note);
  }

  /**
   * Scales completeness by how far an answer close to the request reaches ({@link #REACH_WEIGHT}):
   * of two answers on the request's topic, the one that says more of its own is the more complete.
   * Not applied where the request exempts the answer from saying much of its own.
   */
  private static DimensionInput reached(DimensionInput input, Measured m) {
    if (m.own == null || m.own.exemptBecause() != null || !input.isEvaluated()) {
      return input;
    }
    DimensionInput relevance = owned(relevance(m), m.own);
    double close = relevance.isEvaluated() ? relevance.score().doubleValue() : 0;
    double counted = Calibration.ramp(close, REACH_NONE, REACH_FROM);
    double factor = 1 - REACH_WEIGHT * (1 - counted * m.own.reach());
    return scaled(
        input,
        factor,
        String.format(
            Locale.ROOT,
            "; how far it reaches: %.0f%% of full reach (%.1f weighted words of its own, full from"
                + " %d), counted %.0f%% at relevance %.1f (none below %.0f, in full from %.0f);"
                + " scaled by %.2f",
            100 * m.own.reach(),
            m.own.words(),
            OwnContent.REACH_FULL,
            100 * counted,
            close,
            REACH_NONE,
            REACH_FROM,
            factor));
  }

  /** The input's score times a factor below 1, with a note saying why; at 1, as it was. */
  private static DimensionInput scaled(DimensionInput input, double factor, String note) {
    return factor >= 1
        ? input
        : withScore(input, decimal(input.score().doubleValue() * factor, 1), note);
  }

  private static DimensionInput withScore(DimensionInput input, BigDecimal score, String note) {
    return new DimensionInput(
        input.name(),
        score,
        input.evidence() + note,
        input.shadowValue(),
        input.shadowEvidence(),
        input.confidence(),
        input.source());
  }

  // ------------------------------------------------------------------ what it cannot judge

  /** The evidence of a measured dimension says what was taken out of the text before measuring. */
  private static DimensionInput noted(
      DimensionInput input, ScoredText scored, Closeness closeness, int hidden, String madeUpTurn) {
    int borrowed = closeness == null ? 0 : closeness.borrowed().size();
    if (!input.isEvaluated()
        || (!scored.changed() && borrowed == 0 && hidden == 0 && madeUpTurn == null)) {
      return input;
    }
    List<String> notes = new ArrayList<>();
    if (madeUpTurn != null) {
      notes.add(
          "a made-up next turn of the conversation not scored (\""
              + snippet(madeUpTurn)
              + "\" and all after it: a question the client did not ask, and its answer)");
    }
    if (hidden > 0) {
      notes.add(
          hidden
              + (hidden == 1 ? " hidden part" : " hidden parts")
              + " not scored (HTML comments, hidden elements, link definitions: a reader never"
              + " sees them)");
    }
    if (scored.changed()) {
      notes.add(scored.describe());
    }
    if (borrowed > 0) {
      notes.add(
          borrowed
              + (borrowed == 1 ? " sentence" : " sentences")
              + " on the request's topic only through the request's own words, read without them");
    }
    return withScore(input, input.score(), "; " + String.join("; ", notes));
  }

  private static DimensionInput empty(Dimension d, String why) {
    String name = d.name();
    boolean scoredHere =
        RELEVANCE.contains(name)
            || COMPLETENESS.contains(name)
            || SOURCES.contains(name)
            || WRITING.contains(name);
    if (!scoredHere) {
      return cannotJudge(name);
    }
    if (d.metric() == MetricType.BOOLEAN
        || d.metric() == MetricType.DURATION_SECONDS
        || (d.metric() == MetricType.COUNT && !SOURCES.contains(name))) {
      return DimensionInput.notEvaluated(
          name,
          why
              + "; the offline embedding evaluator does not score "
              + name
              + " as a "
              + d.metric().wireName());
    }
    // An empty deliverable (or one with nothing but words to the evaluator) is certainly irrelevant
    // and incomplete: nothing to be unsure about.
    return DimensionInput.scored(name, BigDecimal.ZERO, why, BigDecimal.ONE, TYPE);
  }

  private static DimensionInput notProse(String name) {
    return DimensionInput.notEvaluated(
        name,
        "the offline embedding evaluator measures "
            + name
            + " only on prose; this deliverable is code or data");
  }

  private static DimensionInput cannotJudge(String name) {
    return DimensionInput.notEvaluated(
        name, "the offline embedding evaluator cannot judge " + name + ": " + needs(name));
  }

  /** What judging the dimension would take, for the evidence. */
  static String needs(String name) {
    return switch (name) {
      case "accuracy", "hallucination_rate" ->
          "it needs a judge that can check claims against sources or the inputs";
      case "correctness", "test_coverage" ->
          "it needs the code run against tests, or a judge that reads it";
      case "security" -> "it needs a security review or a static analyser";
      case "performance" -> "it needs the code run and measured";
      case "methodology", "depth", "insight_quality", "thoroughness" ->
          "it needs a judge that can follow the reasoning";
      case "terminology" -> "it needs a bilingual judge or a glossary to check terms against";
      case "cultural_fit", "cultural_appropriateness", "tone" ->
          "it needs a judge who knows the audience and register";
      case "actionability" -> "it needs a judge that can tell whether the advice can be acted on";
      case "timeliness", "format_compliance" -> "the structural evaluator measures it";
      case "maintainability", "documentation" ->
          "it needs a judge that reads the code; similarity to the request says nothing about it";
      case "consistency", "metadata", "visualization" ->
          "it needs the data checked against its schema and itself, or a judge";
      default -> "it measures only similarity to the request and surface text signals";
    };
  }

  // ------------------------------------------------------------------ helpers

  private static DimensionInput scored(
      String name, double score, String evidence, double confidence) {
    return DimensionInput.scored(name, decimal(score, 1), evidence, decimal(confidence, 2), TYPE);
  }

  private static BigDecimal decimal(double value, int scale) {
    return BigDecimal.valueOf(value).setScale(scale, RoundingMode.HALF_EVEN);
  }

  /** The first words of a passage, for evidence. */
  private static String snippet(String text) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= 80 ? flat : flat.substring(0, 77).replaceAll("\\s+\\S*$", "") + "...";
  }
}
