/**
 * The offline semantic evaluator ({@link dev.asa.evaluators.offline.EmbeddingEvaluator}): the
 * request and the deliverable measured with the embedding model, and the text signals that score
 * them without an LLM (substance, repetition, readability, constraints, key terms, facets,
 * citations, arithmetic and the rest). It reads text with {@code dev.asa.evaluators.text} and
 * embeds it with {@code dev.asa.evaluators.embedding}.
 */
package dev.asa.evaluators.offline;
