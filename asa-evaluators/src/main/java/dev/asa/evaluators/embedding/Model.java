package dev.asa.evaluators.embedding;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.output.Response;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one all-MiniLM-L6-v2 (quantized) model of this process, loaded on first use.
 *
 * <p>Loading reads 23 MB of ONNX weights and starts the runtime (about a second), so it happens
 * once, lazily, in the holder class's initialiser, which the JVM runs exactly once even when
 * several threads get there together. The model is safe to call from several threads: each call
 * runs its texts on the model's own pool of one thread per core, and the ONNX session is
 * thread-safe.
 */
public final class Model {
  private Model() {}

  private static final class Holder {
    static {
      NoCallHome.ensure(); // before the tokenizer library's class initialiser can run
    }

    static final EmbeddingModel MODEL = new AllMiniLmL6V2QuantizedEmbeddingModel();
  }

  /** The model's class, which the lean distribution leaves out with its runtime and weights. */
  private static final String MODEL_CLASS =
      "dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel";

  /**
   * Whether this build carries the model (the default distribution does, the lean one does not);
   * asks without loading it.
   */
  public static boolean inThisBuild() {
    return Model.class.getClassLoader().getResource(MODEL_CLASS.replace('.', '/') + ".class")
        != null;
  }

  /**
   * Unit vectors (the model normalises its output), one per text, and the word pieces read.
   *
   * @throws IllegalStateException if the model cannot be loaded (a broken jar, no native runtime)
   */
  public static Vectors embed(List<String> texts) {
    if (!inThisBuild()) {
      throw new IllegalStateException(
          "this is the lean build of asa, without the offline model; semantic verification needs"
              + " an LLM judge (asa serve --judge ...) or the default build");
    }
    EmbeddingModel model;
    try {
      model = Holder.MODEL;
    } catch (ExceptionInInitializerError | NoClassDefFoundError | UnsatisfiedLinkError e) {
      throw new IllegalStateException("the all-MiniLM-L6-v2 model could not be loaded: " + e, e);
    }
    Response<List<Embedding>> r = model.embedAll(texts.stream().map(TextSegment::from).toList());
    float[][] vectors = new float[texts.size()][];
    for (int i = 0; i < vectors.length; i++) {
      vectors[i] = r.content().get(i).vector();
    }
    Integer tokens = r.tokenUsage() == null ? null : r.tokenUsage().inputTokenCount();
    return new Vectors(vectors, tokens == null ? 0 : tokens);
  }

  /**
   * The texts of one evaluation, each embedded once. The request is read for each measure, and an
   * answer read again without a sentence off its topic gives back most of its passages unchanged; a
   * short answer's one passage is its one sentence. Kept for one evaluation only, never shared: a
   * score must not depend on what was evaluated before it. Not thread-safe; one evaluation runs on
   * one thread.
   */
  public static final class Memo {
    private final Map<String, float[]> vectors = new HashMap<>();

    /** As {@link Model#embed}, reading only the texts this evaluation has not embedded yet. */
    public Vectors embed(List<String> texts) {
      List<String> unseen = texts.stream().filter(t -> !vectors.containsKey(t)).distinct().toList();
      long tokens = 0;
      if (!unseen.isEmpty()) {
        Vectors read = Model.embed(unseen);
        for (int i = 0; i < unseen.size(); i++) {
          vectors.put(unseen.get(i), read.get(i));
        }
        tokens = read.tokens();
      }
      return new Vectors(texts.stream().map(vectors::get).toArray(float[][]::new), tokens);
    }
  }

  /** The vectors of one call, and how many word pieces the model read for them. */
  public record Vectors(float[][] vectors, long tokens) {

    public float[] get(int i) {
      return vectors[i];
    }
  }

  /**
   * Cosine similarity; the model's vectors are unit length, but dividing costs nothing and is safe.
   */
  public static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
  }
}
