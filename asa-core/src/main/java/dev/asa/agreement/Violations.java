package dev.asa.agreement;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects violations while a document is read, so that the sender learns every problem at once.
 */
public final class Violations {
  private final List<Violation> list = new ArrayList<>();

  public void add(String pointer, String message) {
    list.add(new Violation(pointer, message));
  }

  int size() {
    return list.size();
  }

  public boolean isEmpty() {
    return list.isEmpty();
  }

  public List<Violation> list() {
    return List.copyOf(list);
  }

  public void throwIfAny() {
    if (!list.isEmpty()) {
      throw new InvalidDocumentException(list);
    }
  }
}
