package dev.asa.server.store.db;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The JSON the store keeps (documents, facts, verification results, an ended agreement's event
 * trail, evaluator tasks), packed: deflated against a preset dictionary of the protocol's own text,
 * so that a 3 KB agreement made from a template takes about 550 bytes and a 1.5 KB verification
 * result about 250.
 *
 * <p>Why a dictionary: most of an agreement is text every agreement shares (field names, the
 * template's dimensions and their descriptions), and a few hundred bytes are too short for deflate
 * to find that repetition on its own (it halves them; the dictionary gives 4-6x). A document is
 * packed against the built-in template of its service type, an ended agreement's event trail
 * against its own; everything else against the vocabulary of facts, results and events. The
 * dictionaries are frozen copies (a test pins their digests): a stored value names its dictionary
 * by number, so editing one would make stored values unreadable. A new dictionary is a new number.
 *
 * <p>The stored form: one byte, the dictionary's number (1 to 8, later 14 to 31: control characters
 * that no text the store kept begins with, unlike the tab, newline and carriage return a JSON text
 * may begin with); the text's UTF-8 length as an unsigned LEB128 varint; the raw deflate stream. A
 * value whose first byte is anything else is UTF-8 text written before values were packed, and is
 * read as it is: old rows need no rewriting.
 *
 * <p>Speed: deflate level 1 (the dictionary does the work; higher levels gain a few bytes for twice
 * the time); loading the dictionary costs about as much as compressing, which is why dictionaries
 * are a few KB each rather than one of all the templates. Deflaters and inflaters are pooled: each
 * holds native memory that is slow to set up.
 */
public final class PackedText {

  /** A preset dictionary: its number in the stored form and its text. */
  public enum Dictionary {
    VOCABULARY(1, null),
    GENERAL(2, "general"),
    RESEARCH(3, "research"),
    CODE_GENERATION(4, "code_generation"),
    DATA_ANALYSIS(5, "data_analysis"),
    REVIEW(6, "review"),
    TRANSLATION(7, "translation"),
    /**
     * An ended agreement's event trail: the members that wrap each event, which the vocabulary
     * (payloads only) lacks. Number 8 is the last below the tab; a next dictionary takes 14 to 31,
     * control characters a JSON text never begins with either.
     */
    TRAIL(8, null, "trail");

    private final int number;
    private final String serviceType;
    private final byte[] bytes;

    /** The vocabulary alone, or a service type's template (its resource named as the type). */
    Dictionary(int number, String serviceType) {
      this(number, serviceType, serviceType);
    }

    Dictionary(int number, String serviceType, String resourceName) {
      this.number = number;
      this.serviceType = serviceType;
      byte[] vocabulary = resource("vocabulary");
      if (resourceName == null) {
        this.bytes = vocabulary;
      } else if (serviceType != null) {
        // The template first and the vocabulary last: deflate finds near matches cheapest, and the
        // vocabulary is what every value shares.
        this.bytes = joined(resource(resourceName), vocabulary);
      } else {
        // A trail repeats its own wrappers in every event: nearest is cheapest (measured: 666
        // bytes per trail this way round, 689 the other).
        this.bytes = joined(vocabulary, resource(resourceName));
      }
    }

    private static byte[] joined(byte[] first, byte[] last) {
      byte[] both = Arrays.copyOf(first, first.length + last.length);
      System.arraycopy(last, 0, both, first.length, last.length);
      return both;
    }

    /** The dictionary for an agreement document of this service type (may be null). */
    public static Dictionary forDocument(String serviceType) {
      for (Dictionary d : values()) {
        if (d.serviceType != null && d.serviceType.equals(serviceType)) {
          return d;
        }
      }
      return VOCABULARY;
    }

    public int number() {
      return number;
    }

    /** The dictionary's bytes (a copy). */
    byte[] bytes() {
      return bytes.clone();
    }

    static Dictionary numbered(int number) {
      for (Dictionary d : values()) {
        if (d.number == number) {
          return d;
        }
      }
      return null;
    }

    private static byte[] resource(String name) {
      String path = "packing/" + name + ".txt";
      try (InputStream in = PackedText.class.getResourceAsStream(path)) {
        if (in == null) {
          throw new IllegalStateException("the packing dictionary " + path + " is missing");
        }
        return in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The first byte of a packed value is a dictionary number in this range; of text, never. */
  static final int FIRST_NUMBER = 1;

  static final int LAST_NUMBER = 8;

  /**
   * Whether a stored value's first byte names a dictionary rather than begins a text: this build's
   * (1 to 8) or a later build's (14 to 31, the other control characters no JSON text begins with),
   * so that a value packed by a newer server is refused by name, never read as text.
   */
  static boolean namesDictionary(int first) {
    return (first >= FIRST_NUMBER && first <= LAST_NUMBER) || (first >= 14 && first <= 31);
  }

  /** A stored value never unpacks to more than this (64 MiB): a corrupt length is refused. */
  private static final int MAX_TEXT_BYTES = 64 << 20;

  private static final ConcurrentLinkedQueue<Deflater> DEFLATERS = new ConcurrentLinkedQueue<>();
  // At deflate's default level, for values written once and kept (see packSmallest): a pool of its
  // own rather than changing the level of a shared deflater back and forth.
  private static final ConcurrentLinkedQueue<Deflater> KEPT_DEFLATERS =
      new ConcurrentLinkedQueue<>();
  private static final ConcurrentLinkedQueue<Inflater> INFLATERS = new ConcurrentLinkedQueue<>();

  /**
   * At most this many of each are kept for reuse (each holds a few hundred KB of native memory).
   */
  private static final int POOLED = 16;

  private PackedText() {}

  /** The stored form of {@code text} (null stays null). */
  public static byte[] pack(String text, Dictionary dictionary) {
    return pack(text, dictionary, DEFLATERS, Deflater.BEST_SPEED);
  }

  /**
   * The stored form of {@code text} left unpacked (null stays null), read by {@link #unpack} like
   * any other: for values that live briefly, an agreement's event rows above all (its whole log is
   * packed into one trail when it ends, and the rows go), where packing each value, the dictionary
   * loaded every time, cost more CPU than its bytes were worth. A text that begins with a byte
   * naming a dictionary (no JSON text does) is packed, so that it cannot be misread.
   */
  public static byte[] unpacked(String text) {
    if (text == null) {
      return null;
    }
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    return utf8.length > 0 && namesDictionary(utf8[0]) ? pack(text, Dictionary.VOCABULARY) : utf8;
  }

  /**
   * As {@link #pack}, compressed further (deflate's default level, not its fastest): for a value
   * written once and then kept (an ended agreement's whole log, its row's last write, a
   * verification's result), where the extra time is paid once and the bytes for good. Measured on
   * the benchmark's values, the default level saves 9% of a trail, 16% of a document, 21% of the
   * facts and 9% of a result over the fastest; the best level next to nothing more. Read by {@link
   * #unpack} like any other.
   */
  public static byte[] packSmallest(String text, Dictionary dictionary) {
    return pack(text, dictionary, KEPT_DEFLATERS, Deflater.DEFAULT_COMPRESSION);
  }

  /** Packs with a deflater of {@code pool} (each pool holds deflaters of one level). */
  private static byte[] pack(
      String text, Dictionary dictionary, ConcurrentLinkedQueue<Deflater> pool, int level) {
    if (text == null) {
      return null;
    }
    Deflater deflater = pool.poll();
    if (deflater == null) {
      deflater = new Deflater(level, true);
    }
    try {
      return packWith(deflater, text, dictionary);
    } finally {
      release(deflater, pool);
    }
  }

  private static byte[] packWith(Deflater deflater, String text, Dictionary dictionary) {
    Objects.requireNonNull(dictionary, "dictionary");
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream(utf8.length / 3 + 16);
    out.write(dictionary.number);
    writeVarint(out, utf8.length);
    deflater.setDictionary(dictionary.bytes);
    deflater.setInput(utf8);
    deflater.finish();
    byte[] buffer = new byte[Math.max(64, utf8.length / 2)];
    while (!deflater.finished()) {
      out.write(buffer, 0, deflater.deflate(buffer));
    }
    return out.toByteArray();
  }

  /**
   * The text of a stored value: unpacked if it was packed, as it is if it is text from before
   * packing (null stays null).
   *
   * @throws IllegalStateException if the value is packed but corrupt, or names a dictionary this
   *     build does not have (a newer server wrote it)
   */
  public static String unpack(byte[] stored) {
    if (stored == null) {
      return null;
    }
    if (stored.length == 0 || !namesDictionary(stored[0])) {
      return new String(stored, StandardCharsets.UTF_8);
    }
    Dictionary dictionary = Dictionary.numbered(stored[0]);
    if (dictionary == null) {
      throw new IllegalStateException(
          "a stored value is packed with dictionary "
              + stored[0]
              + ", which this build does not have: a newer server wrote it; run that version");
    }
    int[] at = {1};
    long length = readVarint(stored, at);
    if (length < 0 || length > MAX_TEXT_BYTES) {
      throw new IllegalStateException("a stored value is corrupt: its length reads " + length);
    }
    byte[] utf8 = new byte[(int) length];
    Inflater inflater = INFLATERS.poll();
    if (inflater == null) {
      inflater = new Inflater(true);
    }
    try {
      inflater.setDictionary(dictionary.bytes);
      inflater.setInput(stored, at[0], stored.length - at[0]);
      int n = 0;
      while (n < utf8.length) {
        int got = inflater.inflate(utf8, n, utf8.length - n);
        if (got == 0 && (inflater.finished() || inflater.needsInput())) {
          break;
        }
        n += got;
      }
      if (n != utf8.length) {
        throw new IllegalStateException(
            "a stored value is corrupt: it unpacks to " + n + " of its " + length + " bytes");
      }
    } catch (DataFormatException e) {
      throw new IllegalStateException("a stored value is corrupt: " + e.getMessage(), e);
    } finally {
      release(inflater);
    }
    return new String(utf8, StandardCharsets.UTF_8);
  }

  private static void release(Deflater deflater, ConcurrentLinkedQueue<Deflater> pool) {
    deflater.reset();
    if (pool.size() < POOLED) {
      pool.offer(deflater);
    } else {
      deflater.end();
    }
  }

  private static void release(Inflater inflater) {
    inflater.reset();
    if (INFLATERS.size() < POOLED) {
      INFLATERS.offer(inflater);
    } else {
      inflater.end();
    }
  }

  private static void writeVarint(ByteArrayOutputStream out, int value) {
    int v = value;
    while ((v & ~0x7f) != 0) {
      out.write((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write(v);
  }

  private static long readVarint(byte[] bytes, int[] at) {
    long value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (at[0] >= bytes.length) {
        return -1;
      }
      int b = bytes[at[0]++] & 0xff;
      value |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    return -1;
  }
}
