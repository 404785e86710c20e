import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * ASA test harness for Java, compiled beside the deliverable inside the sandbox: runs the public
 * no-argument test* methods of the class named by args[0] and writes one line per event to args[1].
 */
public final class AsaTestMain {
  private AsaTestMain() {}

  public static void main(String[] args) throws Exception {
    try (PrintStream out =
        new PrintStream(new FileOutputStream(args[1]), true, StandardCharsets.UTF_8)) {
      Class<?> type;
      try {
        type = Class.forName(args[0]);
      } catch (Throwable e) {
        line(out, "PROBLEM", "test class " + args[0] + " did not load: " + trace(e));
        System.exit(3);
        return;
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
        String name = type.getSimpleName() + "." + m.getName();
        line(out, "START", name);
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
        line(out, outcome, name, Long.toString(ms), message);
      }
      if (found == 0) {
        line(out, "PROBLEM", "no public test* methods in " + args[0]);
        System.exit(4);
      }
    }
  }

  private static String trace(Throwable e) {
    StringBuilder b = new StringBuilder(String.valueOf(e));
    StackTraceElement[] frames = e.getStackTrace();
    for (int i = 0; i < Math.min(8, frames.length); i++) {
      b.append("\n\tat ").append(frames[i]);
    }
    return b.toString();
  }

  private static void line(PrintStream out, String... fields) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        b.append('\t');
      }
      b.append(fields[i].replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "")
          .replace("\n", "\\n"));
    }
    out.println(b);
  }
}
