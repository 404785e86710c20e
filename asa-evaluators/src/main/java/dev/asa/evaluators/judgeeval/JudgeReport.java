package dev.asa.evaluators.judgeeval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** What a judge evaluation found: agreement for pairwise files, rank correlation for pointwise. */
public sealed interface JudgeReport permits PairwiseReport, PointwiseReport {

  /** The number of records. */
  int size();

  /** The bootstrap the intervals come from. */
  Bootstrap bootstrap();

  /** Whether the length baseline was computed beside the judge. */
  boolean withBaseline();

  /** The whole report as one JSON document, each record's scores included. */
  ObjectNode toJson();

  /** The report of scored records of a file. */
  static JudgeReport of(
      LabelledFile file, List<List<Scored>> scores, Bootstrap bootstrap, boolean baseline) {
    return switch (file.kind()) {
      case PAIRWISE ->
          PairwiseReport.of(
              file.records().stream().map(r -> (LabelledRecord.Pairwise) r).toList(),
              scores,
              bootstrap,
              baseline);
      case POINTWISE ->
          PointwiseReport.of(
              file.records().stream().map(r -> (LabelledRecord.Pointwise) r).toList(),
              scores,
              bootstrap,
              baseline);
    };
  }
}
