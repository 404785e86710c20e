import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * ASA test harness for Java, compiled beside the deliverable inside the sandbox: runs the public
 * no-argument test* methods of the class named by args[0] and writes one line per event to args[1].
 *
 * <p>Tripwires (see Tripwire.java): the per-run key and control names are read from __asa__/key
 * and the file truncated before the test class loads; the key lives only in a local Mac object
 * (no static field reflection could reach); every line carries an HMAC-SHA256 over a sequence
 * number and its content; controls that must fail and must pass run after the tests through the
 * same invocation path; an END line closes the run. Code in this JVM could still read the
 * process's memory (/proc/self/mem) for the key: that takes deliberate effort.
 */
public final class AsaTestMain {
  private AsaTestMain() {}

  /** Where the lines go, signed; held in main's locals only. */
  private static final class Out {
    private final PrintStream out;
    private final Mac mac;
    private long seq;
    private int results;

    Out(PrintStream out, Mac mac) {
      this.out = out;
      this.mac = mac;
    }

    void line(String... fields) {
      StringBuilder b = new StringBuilder(Long.toString(seq++));
      for (String field : fields) {
        b.append('\t').append(field.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "")
            .replace("\n", "\\n"));
      }
      if (fields[0].equals("PASS") || fields[0].equals("FAIL") || fields[0].equals("ERROR")) {
        results++;
      }
      String body = b.toString();
      out.println(HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)))
          + "\t" + body);
    }

    void end() {
      line("END", Integer.toString(results));
    }
  }

  public static void main(String[] args) throws Exception {
    Path keyFile = Path.of("__asa__/key");
    String[] seed = Files.readString(keyFile, StandardCharsets.UTF_8).split("\n");
    Files.writeString(keyFile, "");
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(HexFormat.of().parseHex(seed[0]), "HmacSHA256"));
    int status;
    try (PrintStream stream =
        new PrintStream(new FileOutputStream(args[1]), true, StandardCharsets.UTF_8)) {
      Out out = new Out(stream, mac);
      try {
        status = run(args[0], out, seed[1], seed[2], seed[3]);
      } finally {
        out.end();
      }
    }
    if (status != 0) {
      System.exit(status);
    }
  }

  private static int run(String className, Out out, String fail1, String fail2, String pass)
      throws Exception {
    Class<?> type;
    try {
      type = Class.forName(className);
    } catch (Throwable e) {
      out.line("PROBLEM", "test class " + className + " did not load: " + trace(e));
      return 3;
    }
    Method[] methods = type.getDeclaredMethods();
    Arrays.sort(methods, Comparator.comparing(Method::getName));
    int found = 0;
    for (Method m : methods) {
      if (!m.getName().startsWith("test") || m.getParameterCount() != 0
          || !Modifier.isPublic(m.getModifiers())) {
        continue;
      }
      found++;
      invoke(out, type.getSimpleName() + "." + m.getName(), type, m);
    }
    if (found == 0) {
      out.line("PROBLEM", "no public test* methods in " + className);
      return 4;
    }
    invoke(out, fail1, AsaTestMain.class, AsaTestMain.class.getDeclaredMethod("controlAssert"));
    invoke(out, fail2, AsaTestMain.class, AsaTestMain.class.getDeclaredMethod("controlThrow"));
    invoke(out, pass, AsaTestMain.class, AsaTestMain.class.getDeclaredMethod("controlPass"));
    return 0;
  }

  private static void invoke(Out out, String name, Class<?> type, Method m) {
    out.line("START", name);
    long began = System.nanoTime();
    String outcome = "PASS";
    String message = "";
    try {
      Object target =
          Modifier.isStatic(m.getModifiers()) ? null : type.getDeclaredConstructor().newInstance();
      m.invoke(target);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      outcome = cause instanceof AssertionError ? "FAIL" : "ERROR";
      message = trace(cause);
    } catch (Throwable e) {
      outcome = "ERROR";
      message = trace(e);
    }
    long ms = (System.nanoTime() - began) / 1_000_000;
    out.line(outcome, name, Long.toString(ms), message);
  }

  /** Must fail: a known-false assert statement (assertions must still be enabled). */
  private static void controlAssert() {
    long a = System.nanoTime();
    assert a != a : "control";
  }

  /** Must fail: a thrown AssertionError must reach the harness as one. */
  private static void controlThrow() {
    throw new AssertionError("control");
  }

  /** Must pass. */
  private static void controlPass() {}

  private static String trace(Throwable e) {
    StringBuilder b = new StringBuilder(String.valueOf(e));
    StackTraceElement[] frames = e.getStackTrace();
    for (int i = 0; i < Math.min(8, frames.length); i++) {
      b.append("\n\tat ").append(frames[i]);
    }
    return b.toString();
  }
}
