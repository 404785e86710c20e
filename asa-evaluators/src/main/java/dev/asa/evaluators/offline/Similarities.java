package dev.asa.evaluators.offline;

import dev.asa.evaluators.embedding.Calibration;
import dev.asa.evaluators.embedding.Model;
import dev.asa.evaluators.text.Passages;
import dev.asa.evaluators.text.Sentences;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The similarities the semantic dimensions rest on, from one call to the model: each passage of the
 * deliverable against the whole request, and each part of the request against its best passage or,
 * when there are several parts, statement (a list item or a long sentence, {@link Passages}).
 *
 * @param passages the deliverable's passages (possibly a sample)
 * @param toRequest for each passage, its cosine similarity to the whole request
 * @param material the request read as an instruction and the text it hands over ({@link Material}):
 *     the parts come from the instruction, each measured with that text
 * @param parts the request's parts
 * @param partBest for each content part, the similarity of its best-matching passage or statement
 * @param tokens word pieces the model read
 */
record Similarities(
    Passages passages,
    double[] toRequest,
    Material material,
    RequestParts parts,
    double[] partBest,
    long tokens) {

  static Similarities measure(String request, String content, Model.Memo memo) {
    Passages passages = Passages.of(content);
    Material material = Material.of(request);
    RequestParts parts = RequestParts.of(material.instruction());
    if (parts.asks() == 0) {
      // Only form instructions, or nothing splittable: the instruction as a whole is the one part.
      parts = new RequestParts(List.of(material.instruction()), List.of(), parts.form());
    }
    List<String> texts = new ArrayList<>(1 + parts.content().size() + passages.passages().size());
    texts.add(request);
    parts.content().forEach(part -> texts.add(material.withMaterial(part)));
    texts.addAll(passages.passages());
    // A part among others is often covered by one statement of the answer; a request of one part,
    // by the answer as a whole, which its passages already show.
    List<String> statements = parts.content().size() > 1 ? Passages.statements(content) : List.of();
    texts.addAll(statements);
    Model.Vectors v = memo.embed(texts);

    int first = 1 + parts.content().size();
    int n = passages.passages().size();
    int units = n + statements.size(); // the passages, then the statements
    double[] toRequest = new double[n];
    for (int i = 0; i < n; i++) {
      toRequest[i] = Model.cosine(v.get(0), v.get(first + i));
    }
    double[] partBest = new double[parts.content().size()];
    for (int p = 0; p < partBest.length; p++) {
      double best = -1;
      for (int i = 0; i < units; i++) {
        best = Math.max(best, Model.cosine(v.get(1 + p), v.get(first + i)));
      }
      partBest[p] = best;
    }
    return new Similarities(passages, toRequest, material, parts, partBest, v.tokens());
  }

  int passageCount() {
    return toRequest.length;
  }

  /** How many of the best passages the relevance score averages. */
  int topK() {
    return Math.min(5, toRequest.length);
  }

  /** Mean similarity to the request of the {@link #topK()} best-matching passages. */
  double topMean() {
    double[] sorted = toRequest.clone();
    Arrays.sort(sorted);
    double sum = 0;
    for (int i = 0; i < topK(); i++) {
      sum += sorted[sorted.length - 1 - i];
    }
    return sum / topK();
  }

  int onTopic() {
    return (int) Arrays.stream(toRequest).filter(s -> s >= Calibration.PASSAGE_ON_TOPIC).count();
  }

  /** Share of the deliverable's words that sit in passages below the on-topic line, 0 to 1. */
  double offTopicWordShare() {
    long all = 0;
    long off = 0;
    for (int i = 0; i < toRequest.length; i++) {
      int words = Sentences.wordCount(passages.passages().get(i));
      all += words;
      if (toRequest[i] < Calibration.PASSAGE_ON_TOPIC) {
        off += words;
      }
    }
    return all == 0 ? 0 : (double) off / all;
  }

  /** The index of the passage least like the request. */
  int weakest() {
    int w = 0;
    for (int i = 1; i < toRequest.length; i++) {
      if (toRequest[i] < toRequest[w]) {
        w = i;
      }
    }
    return w;
  }
}
