package dev.asa.packagecycles.second;

import dev.asa.packagecycles.first.First;

/** The other half of the cycle {@link First} begins. */
public final class Second {
  public First next() {
    return new First();
  }
}
