package dev.asa.server.verification.engine;

import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.offline.EmbeddingEvaluator;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the offline model when the server starts, on a platform thread of its own, rather than in
 * the first semantic verification (issue 60, item 3). Loading reads 23 MB of weights, starts a
 * native runtime and initialises the tokenizer's classes; done in a request's or a job's virtual
 * thread, class initialisation and native loading pin its carrier, and with two carriers on a
 * two-core machine every HTTP request stalled behind it. The server listens only once the model is
 * loaded, so {@code GET /ready} never says 200 before (and a load balancer sends nothing to a node
 * that would stall); the load overlaps opening the store.
 *
 * <p>A model that cannot be loaded (a broken jar, no native runtime) does not keep the server from
 * serving: the failure is logged, and a semantic verification then fails with it as before.
 */
public final class ModelLoad {
  private static final Logger log = LoggerFactory.getLogger(ModelLoad.class);

  private final Thread loading;

  private ModelLoad(Thread loading) {
    this.loading = loading;
  }

  /** Nothing to load: evaluators without the embedding one, or the lean build. */
  private static final ModelLoad NONE = new ModelLoad(null);

  /**
   * Starts loading the model if the server offers the embedding evaluator and this build has it.
   */
  public static ModelLoad start(OfferedEvaluators offered) {
    if (offered == null
        || offered.evaluator(EmbeddingEvaluator.TYPE).isEmpty()
        || !EmbeddingEvaluator.modelInThisBuild()) {
      return NONE;
    }
    Thread t =
        Thread.ofPlatform()
            .name("asa-model-load")
            .daemon(true)
            .unstarted(() -> {
              long started = System.nanoTime();
              try {
                new EmbeddingEvaluator().warmUp();
                log.info(
                    "offline model {} loaded in {} ms",
                    EmbeddingEvaluator.MODEL,
                    Duration.ofNanos(System.nanoTime() - started).toMillis());
              } catch (EvaluationException | RuntimeException | LinkageError e) {
                log.error(
                    "the offline model {} could not be loaded; semantic verification with it"
                        + " will fail",
                    EmbeddingEvaluator.MODEL,
                    e);
              }
            });
    t.start();
    return new ModelLoad(t);
  }

  /**
   * Waits for the load to end, at most {@code atMost}: the server listens, and so answers {@code
   * /ready}, only after it. A load that takes longer goes on; the first semantic verification then
   * waits for it, on a platform thread ({@link JobRunner}).
   */
  public void await(Duration atMost) {
    if (loading == null) {
      return;
    }
    try {
      if (!loading.join(atMost)) {
        log.warn("the offline model is still loading after {}; serving meanwhile", atMost);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
