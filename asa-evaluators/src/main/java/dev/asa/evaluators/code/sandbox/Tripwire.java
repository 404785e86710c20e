package dev.asa.evaluators.code.sandbox;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Tripwires against forged test results. The code under test runs in the harness's own process, so
 * it can patch the harness, the assertion library or the result file; these checks do not make that
 * impossible, they make it take deliberate effort and leave a trace, and they fail closed: a result
 * this side cannot verify never counts as a pass.
 *
 * <ul>
 *   <li><b>Authenticated lines.</b> A fresh 256-bit key per run reaches the harness in {@link
 *       #KEY_FILE}, a collected file (bound from outside the sandbox's input, so nowhere else in
 *       its files) that the harness reads and truncates before it loads the test file or the
 *       deliverable. Every result line carries an HMAC-SHA256 over a sequence number and its
 *       content; a line without a valid MAC, or out of sequence, marks the run tampered. The key
 *       stays in the harness's memory (Python: a closure; Java: a local; JavaScript: the parent
 *       test-runner process, of which the tests' child process has no copy), where code in the same
 *       process can in principle still find it (and a JavaScript child can read its parent's memory
 *       through {@code /proc} where the kernel's ptrace rules allow): this raises the bar, it is
 *       not a boundary.
 *   <li><b>An end line.</b> The harness ends with {@code END n}, the number of results it wrote; a
 *       different count, or a process that exited with status 0 without it (the {@code os._exit(0)}
 *       after fake lines), marks the run tampered.
 *   <li><b>Controls.</b> Two tests that must fail (a known-false assertion through the library the
 *       tests use) and one that must pass, named fresh per run from a secure random, run after the
 *       test file and the deliverable were loaded and after the tests ran, through the same path as
 *       the tests. A must-fail control reported as passing means the assertions were disarmed:
 *       tampered. Controls missing from a finished run: tampered. They are left out of the results.
 *   <li>A harness that sees its own assertion primitives replaced writes a {@code TAMPER} line.
 * </ul>
 *
 * <p>{@link TestNames} adds the count and name cross-check against the test file.
 */
final class Tripwire {
  /** Where the key and the control names are for the harness to read and erase. */
  static final String KEY_FILE = LanguagePlan.HARNESS_DIR + "/key";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HexFormat HEX = HexFormat.of();

  private final byte[] key;
  private final List<String> mustFail;
  private final String mustPass;

  private Tripwire(byte[] key, List<String> mustFail, String mustPass) {
    this.key = key.clone();
    this.mustFail = List.copyOf(mustFail);
    this.mustPass = mustPass;
  }

  static Tripwire fresh() {
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    return new Tripwire(key, List.of(name(), name()), name());
  }

  /** For tests: a tripwire with a known key. */
  static Tripwire of(byte[] key, List<String> mustFail, String mustPass) {
    return new Tripwire(key, mustFail, mustPass);
  }

  private static String name() {
    byte[] b = new byte[12];
    RANDOM.nextBytes(b);
    return "test_" + HEX.formatHex(b);
  }

  List<String> mustFail() {
    return mustFail;
  }

  String mustPass() {
    return mustPass;
  }

  /** What {@link #KEY_FILE} holds: the key in hex, the two must-fail names, the must-pass name. */
  String seed() {
    return HEX.formatHex(key)
        + "\n"
        + mustFail.get(0)
        + "\n"
        + mustFail.get(1)
        + "\n"
        + mustPass
        + "\n";
  }

  /** The harness's result text with the MACs checked and removed. */
  record Verified(String text, boolean ended, List<String> tampering) {
    Verified {
      tampering = List.copyOf(tampering);
    }
  }

  /**
   * Checks every line of {@code raw}. A last line without its newline, in a run that was killed, is
   * a write cut short and is dropped; anywhere else an unverifiable line is tampering.
   */
  Verified verify(String raw, boolean killed) {
    List<String> tampering = new ArrayList<>();
    StringBuilder out = new StringBuilder();
    String[] lines = raw.split("\n", -1);
    long seq = 0;
    int results = 0;
    boolean ended = false;
    int bad = 0;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      boolean last = i == lines.length - 1;
      if (line.isEmpty()) {
        continue;
      }
      int tab = line.indexOf('\t');
      String body = tab < 0 ? "" : line.substring(tab + 1);
      if (tab < 0 || !MessageDigest.isEqual(mac(body), bytes(line.substring(0, tab)))) {
        if (!(last && killed)) {
          bad++;
        }
        continue;
      }
      int tab2 = body.indexOf('\t');
      String content = tab2 < 0 ? "" : body.substring(tab2 + 1);
      if (tab2 < 0 || !body.substring(0, tab2).equals(Long.toString(seq))) {
        tampering.add("a result line was out of sequence (replayed, reordered or dropped)");
        continue;
      }
      seq++;
      if (ended) {
        tampering.add("a result line came after the harness's end line");
        continue;
      }
      String tag = content.contains("\t") ? content.substring(0, content.indexOf('\t')) : content;
      switch (tag) {
        case "PASS", "FAIL", "ERROR", "SKIP" -> results++;
        case "END" -> {
          ended = true;
          String count = content.substring(Math.min(content.length(), 4));
          if (!count.equals(Integer.toString(results))) {
            tampering.add(
                "the harness counted " + count + " results but " + results + " were written");
          }
          continue;
        }
        case "TAMPER" -> {
          tampering.add(content.substring(Math.min(content.length(), 7)).replace("\\n", " "));
          continue;
        }
        default -> {
          // Carried on to the report's parser.
        }
      }
      out.append(content).append('\n');
    }
    if (bad > 0) {
      tampering.add(
          bad
              + " result line"
              + (bad == 1 ? " was" : "s were")
              + " not written by the harness (no valid authentication)");
    }
    return new Verified(out.toString(), ended, tampering);
  }

  private byte[] mac(String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  private static byte[] bytes(String hex) {
    try {
      return HEX.parseHex(hex);
    } catch (IllegalArgumentException e) {
      return new byte[0];
    }
  }

  /** For tests: the MAC'd line a harness would write. */
  String sign(long seq, String content) {
    String body = seq + "\t" + content;
    return HEX.formatHex(mac(body)) + "\t" + body;
  }
}
