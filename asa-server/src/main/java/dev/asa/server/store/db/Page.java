package dev.asa.server.store.db;

import java.util.List;

/**
 * One page of a listing.
 *
 * @param nextCursor opaque; pass it back to get the next page. Null on the last page.
 */
public record Page<T>(List<T> items, String nextCursor) {

  public Page {
    items = List.copyOf(items);
  }
}
