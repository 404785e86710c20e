package dev.asa.server.store.db;

import java.util.Objects;

/**
 * A JSON text as a row holds it: given as text (a row about to be written), or as the stored bytes
 * read from a column ({@link PackedText}), unpacked the first time it is read. Most rows read are
 * of agreements the server has parsed already (its agreement cache keeps them by version), so most
 * stored documents and facts are never unpacked at all.
 *
 * <p>Two are equal when their texts are: the same text packed at two levels is one text. A row that
 * reuses another's value ({@code Views.rowAfter}) holds the same instance, which {@link #equals}
 * tells without unpacking anything.
 */
public final class StoredText {
  private final byte[] stored; // null when made from text
  // Racy on purpose: every thread that unpacks computes the same String, which is immutable and so
  // safely shared however it was published.
  private String text;

  private StoredText(byte[] stored, String text) {
    this.stored = stored;
    this.text = text;
  }

  /** A text about to be written. */
  public static StoredText of(String text) {
    return new StoredText(null, Objects.requireNonNull(text, "text"));
  }

  /** A column's bytes, unpacked when first read (null stays null). */
  public static StoredText stored(byte[] stored) {
    return stored == null ? null : new StoredText(stored.clone(), null);
  }

  /** The text. */
  public String text() {
    String t = text;
    if (t == null) {
      t = PackedText.unpack(stored);
      text = t;
    }
    return t;
  }

  /**
   * Whether this is {@code other}'s very value (a row that reuses the one before it), told without
   * unpacking either; equal texts made apart answer false.
   */
  @SuppressWarnings("ReferenceEquality") // identity is the question
  public boolean isSameValueAs(StoredText other) {
    return this == other;
  }

  /** Equal texts; the very same value (a row's, reused by the next) without unpacking it. */
  @Override
  public boolean equals(Object o) {
    return o instanceof StoredText other && (this == other || text().equals(other.text()));
  }

  @Override
  public int hashCode() {
    return text().hashCode();
  }

  @Override
  public String toString() {
    return text();
  }
}
