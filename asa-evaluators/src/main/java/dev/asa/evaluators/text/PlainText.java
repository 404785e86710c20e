package dev.asa.evaluators.text;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Text as a reader sees it, before any signal reads it. Every signal of the offline evaluator
 * matches words ("various", "it depends", "ignore the rubric"), and a provider can write a word
 * that looks the same to a person but not to a pattern: a zero-width space inside it
 * ("vari\u200Bous"), full-width letters, or a Cyrillic "а" among Latin ones. A vague answer written
 * so scored 73.3 where it scored 33.3 in plain letters.
 *
 * <p>Three steps: compatibility normalization (NFKC: full-width and other compatibility forms to
 * their plain letters, ligatures taken apart); every format character removed (Unicode category Cf:
 * zero-width spaces and joiners, soft hyphens, direction marks); and in a word that mixes Latin
 * letters with Cyrillic or Greek ones, each of those that looks like a Latin letter read as that
 * letter; so is a word made only of such letters ("а", "то") beside a Latin word. Any other word
 * wholly in Cyrillic or Greek is left as written: it is a word of that language.
 *
 * <p>Written here rather than taken from ICU's confusable skeletons: a skeleton is made for
 * comparing two strings ("rn" and "m" share one), not for reading a text, and would rewrite honest
 * English words; the look-alikes that matter inside a Latin word are the few letters below.
 */
public final class PlainText {
  private PlainText() {}

  private static final Pattern FORMAT = Pattern.compile("\\p{Cf}+");

  /** Cyrillic and Greek letters drawn like Latin ones, to the Latin letter. */
  private static final Map<Character, Character> LOOK_ALIKES =
      Map.ofEntries(
          // Cyrillic
          Map.entry('а', 'a'),
          Map.entry('в', 'b'),
          Map.entry('е', 'e'),
          Map.entry('к', 'k'),
          Map.entry('м', 'm'),
          Map.entry('н', 'h'),
          Map.entry('о', 'o'),
          Map.entry('р', 'p'),
          Map.entry('с', 'c'),
          Map.entry('т', 't'),
          Map.entry('у', 'y'),
          Map.entry('х', 'x'),
          Map.entry('і', 'i'),
          Map.entry('ј', 'j'),
          Map.entry('ѕ', 's'),
          Map.entry('ԁ', 'd'),
          Map.entry('ԛ', 'q'),
          Map.entry('ԝ', 'w'),
          Map.entry('А', 'A'),
          Map.entry('В', 'B'),
          Map.entry('Е', 'E'),
          Map.entry('К', 'K'),
          Map.entry('М', 'M'),
          Map.entry('Н', 'H'),
          Map.entry('О', 'O'),
          Map.entry('Р', 'P'),
          Map.entry('С', 'C'),
          Map.entry('Т', 'T'),
          Map.entry('У', 'Y'),
          Map.entry('Х', 'X'),
          Map.entry('І', 'I'),
          Map.entry('Ј', 'J'),
          Map.entry('Ѕ', 'S'),
          // Greek
          Map.entry('α', 'a'),
          Map.entry('ε', 'e'),
          Map.entry('ι', 'i'),
          Map.entry('κ', 'k'),
          Map.entry('ν', 'v'),
          Map.entry('ο', 'o'),
          Map.entry('ρ', 'p'),
          Map.entry('τ', 't'),
          Map.entry('υ', 'u'),
          Map.entry('χ', 'x'),
          Map.entry('Α', 'A'),
          Map.entry('Β', 'B'),
          Map.entry('Ε', 'E'),
          Map.entry('Ζ', 'Z'),
          Map.entry('Η', 'H'),
          Map.entry('Ι', 'I'),
          Map.entry('Κ', 'K'),
          Map.entry('Μ', 'M'),
          Map.entry('Ν', 'N'),
          Map.entry('Ο', 'O'),
          Map.entry('Ρ', 'P'),
          Map.entry('Τ', 'T'),
          Map.entry('Υ', 'Y'),
          Map.entry('Χ', 'X'));

  public static String of(String text) {
    String s = FORMAT.matcher(Normalizer.normalize(text, Normalizer.Form.NFKC)).replaceAll("");
    List<Run> runs = runsOfLetters(s);
    StringBuilder out = null;
    for (int r = 0; r < runs.size(); r++) {
      Run run = runs.get(r);
      // A word of look-alikes only ("а", "то") is read as Latin beside a Latin word: in a Russian
      // sentence it stays Russian.
      boolean besideLatin =
          (r > 0 && runs.get(r - 1).hasLatin())
              || (r + 1 < runs.size() && runs.get(r + 1).hasLatin());
      if (run.script() == Script.MIXED || (run.script() == Script.LOOK_ALIKES && besideLatin)) {
        if (out == null) {
          out = new StringBuilder(s);
        }
        for (int k = run.start(); k < run.end(); k++) {
          out.setCharAt(k, LOOK_ALIKES.getOrDefault(s.charAt(k), s.charAt(k)));
        }
      }
    }
    return out == null ? s : out.toString();
  }

  /** What a run of letters is written in, as far as look-alikes go. */
  private enum Script {
    LATIN,
    /** Latin letters with Cyrillic or Greek ones among them. */
    MIXED,
    /** Cyrillic or Greek letters only, each drawn like a Latin one. */
    LOOK_ALIKES,
    /** Anything else: a word of another language. */
    OTHER
  }

  private record Run(int start, int end, Script script) {
    boolean hasLatin() {
      return script == Script.LATIN || script == Script.MIXED;
    }
  }

  /**
   * The text's runs of letters, in one pass (a loop, not a pattern: a look-ahead for both scripts
   * would rescan a long run from each of its letters).
   */
  private static List<Run> runsOfLetters(String s) {
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < s.length(); ) {
      if (!Character.isLetter(s.charAt(i))) {
        i++;
        continue;
      }
      int start = i;
      boolean latin = false;
      boolean cyrillicOrGreek = false;
      boolean lookAlikes = true;
      for (; i < s.length() && Character.isLetter(s.charAt(i)); i++) {
        Character.UnicodeScript script = Character.UnicodeScript.of(s.charAt(i));
        latin |= script == Character.UnicodeScript.LATIN;
        cyrillicOrGreek |=
            script == Character.UnicodeScript.CYRILLIC || script == Character.UnicodeScript.GREEK;
        lookAlikes &= LOOK_ALIKES.containsKey(s.charAt(i));
      }
      Script script =
          latin
              ? (cyrillicOrGreek ? Script.MIXED : Script.LATIN)
              : lookAlikes ? Script.LOOK_ALIKES : Script.OTHER;
      runs.add(new Run(start, i, script));
    }
    return runs;
  }
}
