package dev.asa.packagecycles.first;

import dev.asa.packagecycles.second.Second;

/** Half of a package cycle, for {@code PackageCyclesTest} to catch (test code: never shipped). */
public final class First {
  public Second next() {
    return new Second();
  }
}
