/**
 * Reading a deliverable as its reader sees it: plain letters ({@link
 * dev.asa.evaluators.text.PlainText}), what a renderer shows ({@link
 * dev.asa.evaluators.text.Rendered}), code fences, sentences, passages and layout. Nothing here
 * scores; the offline evaluator's signals read the text through these classes.
 */
package dev.asa.evaluators.text;
