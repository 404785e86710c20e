package dev.asa.agreement;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects violations while a document is read, so that the sender learns every problem at once.
 */
final class Violations {
  private final List<Violation> list = new ArrayList<>();

  void add(String pointer, String message) {
    list.add(new Violation(pointer, message));
  }

  int size() {
    return list.size();
  }

  boolean isEmpty() {
    return list.isEmpty();
  }

  List<Violation> list() {
    return List.copyOf(list);
  }

  void throwIfAny() {
    if (!list.isEmpty()) {
      throw new InvalidDocumentException(list);
    }
  }
}
