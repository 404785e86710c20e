/**
 * The all-MiniLM-L6-v2 sentence model run in process ({@link dev.asa.evaluators.embedding.Model}),
 * its tokenizer kept from calling home ({@link dev.asa.evaluators.embedding.NoCallHome}), and how
 * its cosine similarities become scores ({@link dev.asa.evaluators.embedding.Calibration}).
 */
package dev.asa.evaluators.embedding;
