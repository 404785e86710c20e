package dev.asa.evaluators.text;

import java.util.regex.Pattern;

/**
 * The bullet or number that opens a list item ("- Flour", "2. Neural Networks"), one rule for every
 * reader that takes a list item apart from its marker.
 */
public final class ListMarkers {
  private ListMarkers() {}

  /** A bullet or a number leading a list item, with the white space after it. */
  public static final Pattern LIST_MARKER = Pattern.compile("^(?:[-*+•]|\\d{1,3}[.)])\\s");

  /** The line or sentence without the bullet or number that leads it ("1. Red Leicester"). */
  public static String withoutMarker(String item) {
    return LIST_MARKER.matcher(item).replaceFirst("");
  }
}
