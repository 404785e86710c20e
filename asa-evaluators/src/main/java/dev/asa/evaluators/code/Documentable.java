package dev.asa.evaluators.code;

/**
 * A public function, method or class, which documentation coverage counts.
 *
 * @param kind function, method or class
 * @param documented whether it has a docstring, Javadoc or JSDoc
 */
public record Documentable(String file, int line, String kind, String name, boolean documented) {}
