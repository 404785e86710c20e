package dev.asa.evaluators.code;

import dev.asa.evaluators.Deadline;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The text tests the parsers' findings rest on: what a secret's name and value look like, what SQL
 * looks like, and the naming conventions. Shared by every language so one rule means one thing.
 */
final class Smells {
  private Smells() {}

  /** A name that holds a secret, once camelCase is folded to snake_case. */
  private static final Pattern SECRET_NAME =
      Pattern.compile(
          "(?:^|_)(?:password|passwd|pwd|secret|secret_key|api_?key|apikey|access_?key|auth_?token|access_token|token|private_key|client_secret|credentials?)(?:$|_)");

  /** Names that mention a secret without holding one: its URL, its field name, its header... */
  private static final Pattern NOT_A_SECRET =
      Pattern.compile(
          "(?:_url|_uri|_type|_name|_field|_header|_prompt|_label|_length|_file|_path|_env|_var|_pattern|_regex)$");

  /** Values that are unmistakably credentials, whatever the variable is called. */
  private static final Pattern SECRET_VALUE =
      Pattern.compile(
          "AKIA[0-9A-Z]{16}|-----BEGIN (?:RSA |EC |DSA |OPENSSH )?PRIVATE KEY-----|gh[pousr]_[A-Za-z0-9]{36}|xox[abprs]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35}");

  /**
   * A statement of SQL whose verb and clause stand side by side: "insert into", "drop table".
   * Found, not matched whole: each start tries a few letters and one run of spaces.
   */
  private static final Pattern SQL_ADJACENT =
      Pattern.compile(
          "(?i)\\b(?:insert\\s+into|delete\\s+from|drop\\s+table|create\\s+table|alter\\s+table)\\b");

  /** Values that stand for a secret to be filled in, not a secret: YOUR_API_KEY, changeme, xxxx. */
  private static final Pattern PLACEHOLDER =
      Pattern.compile("^[A-Z_]+$|(?i:your|example|changeme|placeholder|dummy|x{4,}|\\*{4,})");

  private static final Pattern CAMEL = Pattern.compile("([a-z0-9])([A-Z])");

  /** Whether a variable, key or parameter of this name holding a literal is a hard-coded secret. */
  static boolean secretName(String name) {
    String snake =
        CAMEL
            .matcher(name.replaceAll("^[\"'`]|[\"'`]$", ""))
            .replaceAll("$1_$2")
            .toLowerCase(Locale.ROOT);
    CharSequence text = Deadline.interruptible(snake);
    return SECRET_NAME.matcher(text).find() && !NOT_A_SECRET.matcher(text).find();
  }

  /**
   * Whether a literal assigned to a secret's name is a real value: not empty, not a placeholder of
   * a few characters, not a reference to the environment.
   */
  static boolean secretLiteral(String value) {
    String v = value.strip();
    return v.length() >= 6
        && !v.contains("${")
        && !v.startsWith("<")
        && !v.contains(" ")
        && !PLACEHOLDER.matcher(v).find();
  }

  /** Whether a literal is a credential by its shape alone (cloud keys, tokens, private keys). */
  static boolean credentialShaped(String value) {
    return SECRET_VALUE.matcher(Deadline.interruptible(value)).find();
  }

  /** A clause beyond the verb's own, which prose ("select one option from...") rarely has. */
  private static final Pattern SQL_CLAUSE =
      Pattern.compile(
          "(?i)\\b(?:where|values|join|order\\s+by|group\\s+by|limit)\\b|\\*\\s+from\\b");

  private static final Pattern SQL_VERB_UPPER =
      Pattern.compile("\\b(?:SELECT|INSERT|UPDATE|DELETE|DROP|CREATE|ALTER)\\b");

  /**
   * Whether text is a SQL statement: a verb with its clause, and either the verb in capitals or a
   * further clause, so that a sentence such as "select one option from the list" is not SQL.
   */
  static boolean looksLikeSql(String text) {
    CharSequence read = Deadline.interruptible(text);
    return isStatement(text)
        && (SQL_VERB_UPPER.matcher(read).find() || SQL_CLAUSE.matcher(read).find());
  }

  /**
   * A verb and the clause that goes with it: "insert into" and its kind side by side, or "select"
   * with a "from" somewhere after it, "update" with a "set". In linear time: the pattern this
   * replaces, {@code .*\\b(?:select\\b.+\\bfrom|...)\\b.*}, ran to the end of the text from each
   * "select" it met, and a deliverable of 420 KB of built strings of "select " held a core for
   * minutes. The first verb and the last clause word decide it alone.
   */
  private static boolean isStatement(String text) {
    if (SQL_ADJACENT.matcher(Deadline.interruptible(text)).find()) {
      return true;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    return before(lower, "select", "from") || before(lower, "update", "set");
  }

  /**
   * Whether the word {@code verb} appears, and the word {@code clause} starts at least one
   * character after it ends (as {@code \\bverb\\b.+\\bclause\\b} would find).
   */
  private static boolean before(String lower, String verb, String clause) {
    int verbAt = wordAt(lower, verb, 0);
    if (verbAt < 0) {
      return false;
    }
    int clauseAt = lastWordAt(lower, clause);
    return clauseAt > verbAt + verb.length();
  }

  /** The first index from {@code from} where {@code word} stands as a whole word, or -1. */
  private static int wordAt(String text, String word, int from) {
    for (int i = text.indexOf(word, from); i >= 0; i = text.indexOf(word, i + 1)) {
      if (isWord(text, i, word.length())) {
        return i;
      }
    }
    return -1;
  }

  /** The last index where {@code word} stands as a whole word, or -1. */
  private static int lastWordAt(String text, String word) {
    for (int i = text.lastIndexOf(word); i >= 0; i = text.lastIndexOf(word, i - 1)) {
      if (isWord(text, i, word.length())) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isWord(String text, int at, int length) {
    int end = at + length;
    return (at == 0 || !isWordChar(text.charAt(at - 1)))
        && (end == text.length() || !isWordChar(text.charAt(end)));
  }

  /** A character of {@code \\w}, as {@link Pattern}'s {@code \\b} reads it. */
  private static boolean isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  /** A literal's text without its quotes and string prefixes (f, r, b, u...). */
  static String unquote(String literal) {
    String s = literal.strip().replaceFirst("^[A-Za-z]{0,2}(?=[\"'`])", "");
    for (String q : new String[] {"\"\"\"", "'''", "\"", "'", "`"}) {
      if (s.length() >= 2 * q.length() && s.startsWith(q) && s.endsWith(q)) {
        return s.substring(q.length(), s.length() - q.length());
      }
    }
    return s;
  }

  /** The convention a name breaks, or null: snake_case functions and CapWords classes in Python. */
  static String pythonName(String name, boolean isClass) {
    if (isClass) {
      return name.matches("_?[A-Z][A-Za-z0-9]*") ? null : "classes are CapWords";
    }
    if (name.length() == 1) {
      return "a one-letter function name says nothing";
    }
    return name.matches("_{0,2}[a-z][a-z0-9_]*") ? null : "functions are snake_case";
  }

  /** camelCase functions and PascalCase classes, as in Java, JavaScript and TypeScript. */
  static String camelName(String name, boolean isClass) {
    if (isClass) {
      return name.matches("[A-Z][A-Za-z0-9]*") ? null : "classes are PascalCase";
    }
    if (name.length() == 1) {
      return "a one-letter function name says nothing";
    }
    return name.matches("[_$#]?[a-z$][A-Za-z0-9$]*") ? null : "functions are camelCase";
  }
}
