package dev.asa.evaluators.text;

import java.lang.Character.UnicodeScript;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which language a text is written in, told by what no writer avoids: the function words of the
 * Latin-script languages ("the", "und", "les", "que"...) and the script of the others (Han,
 * Hiragana, Hangul, Cyrillic, Arabic, Greek). Enough to check "answer in French" against an answer
 * in English; no guess is made for a text too short to tell, so an answer is never marked down on a
 * guess.
 */
public final class Languages {
  private Languages() {}

  /** Function words a text must show at least this many of before its language is named. */
  static final int MIN_FUNCTION_WORDS = 4;

  private static final Map<String, Set<String>> FUNCTION_WORDS = new LinkedHashMap<>();

  static {
    FUNCTION_WORDS.put(
        "english",
        Set.of(
            "the", "and", "is", "are", "of", "to", "in", "that", "it", "with", "for", "this", "was",
            "be", "on", "not", "you", "they", "have", "which"));
    FUNCTION_WORDS.put(
        "french",
        Set.of(
            "le", "la", "les", "des", "est", "et", "une", "un", "du", "que", "qui", "dans", "pour",
            "pas", "sont", "avec", "sur", "au", "ce", "il", "nous", "vous"));
    FUNCTION_WORDS.put(
        "spanish",
        Set.of(
            "el", "los", "las", "es", "y", "una", "un", "del", "que", "en", "por", "para", "con",
            "son", "está", "como", "pero", "su", "al", "lo"));
    FUNCTION_WORDS.put(
        "german",
        Set.of(
            "der", "die", "das", "und", "ist", "nicht", "ein", "eine", "mit", "für", "auf", "den",
            "dem", "sich", "sind", "zu", "auch", "von", "es", "ich"));
    FUNCTION_WORDS.put(
        "italian",
        Set.of(
            "il", "della", "di", "che", "è", "e", "gli", "una", "per", "non", "sono", "con", "nel",
            "alla", "anche", "questo", "come", "più", "dei", "le"));
    FUNCTION_WORDS.put(
        "portuguese",
        Set.of(
            "o", "os", "as", "da", "do", "é", "não", "uma", "um", "que", "em", "para", "com", "são",
            "dos", "das", "mais", "como", "mas", "ao"));
    FUNCTION_WORDS.put(
        "dutch",
        Set.of(
            "de", "het", "een", "en", "is", "van", "niet", "dat", "zijn", "met", "voor", "op",
            "ook", "maar", "wordt", "er", "bij", "naar", "dit", "je"));
  }

  private static final Map<String, UnicodeScript> SCRIPTS =
      Map.of(
          "chinese", UnicodeScript.HAN,
          "japanese", UnicodeScript.HIRAGANA,
          "korean", UnicodeScript.HANGUL,
          "russian", UnicodeScript.CYRILLIC,
          "ukrainian", UnicodeScript.CYRILLIC,
          "arabic", UnicodeScript.ARABIC,
          "greek", UnicodeScript.GREEK,
          "hebrew", UnicodeScript.HEBREW,
          "hindi", UnicodeScript.DEVANAGARI);

  private static final Pattern WORD = Pattern.compile("[\\p{L}]+");

  /** The languages a request may name that this class can tell apart. */
  public static Set<String> known() {
    Set<String> all = new java.util.TreeSet<>(FUNCTION_WORDS.keySet());
    all.addAll(SCRIPTS.keySet());
    return all;
  }

  /**
   * Whether {@code text} is written in {@code language}: empty when the text is too short to tell
   * (or the language is not one this class knows).
   */
  public static Optional<Boolean> isWrittenIn(String text, String language) {
    String lang = language.toLowerCase(Locale.ROOT);
    UnicodeScript script = SCRIPTS.get(lang);
    if (script != null) {
      return scriptShare(text, script, lang);
    }
    if (!FUNCTION_WORDS.containsKey(lang)) {
      return Optional.empty();
    }
    Map<String, Integer> hits = new LinkedHashMap<>();
    FUNCTION_WORDS.keySet().forEach(k -> hits.put(k, 0));
    Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
    while (m.find()) {
      for (Map.Entry<String, Set<String>> e : FUNCTION_WORDS.entrySet()) {
        if (e.getValue().contains(m.group())) {
          hits.merge(e.getKey(), 1, Integer::sum);
        }
      }
    }
    int best = hits.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    if (best < MIN_FUNCTION_WORDS) {
      return Optional.empty();
    }
    // Written in the language asked for when no other shows more of its function words.
    return Optional.of(hits.get(lang) == best);
  }

  /** Written in a non-Latin script: at least half of its letters are in that script. */
  private static Optional<Boolean> scriptShare(String text, UnicodeScript script, String lang) {
    int letters = 0;
    int inScript = 0;
    boolean kanaSeen = false;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (!Character.isLetter(cp)) {
        continue;
      }
      letters++;
      UnicodeScript s = UnicodeScript.of(cp);
      boolean kana = s == UnicodeScript.HIRAGANA || s == UnicodeScript.KATAKANA;
      kanaSeen |= kana;
      // Japanese is written in kana and Han together; Chinese in Han without kana.
      if (s == script || lang.equals("japanese") && (kana || s == UnicodeScript.HAN)) {
        inScript++;
      }
    }
    if (letters < 2 * MIN_FUNCTION_WORDS) {
      return Optional.empty();
    }
    boolean kanaRight = !lang.equals("japanese") || kanaSeen;
    return Optional.of(inScript * 2 >= letters && kanaRight);
  }
}
