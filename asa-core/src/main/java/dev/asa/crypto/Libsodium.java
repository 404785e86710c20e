package dev.asa.crypto;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Ed25519 verification by the machine's libsodium (Debian's {@code libsodium23}), called through
 * the JDK's foreign function interface: about a third faster than BouncyCastle in a tight loop, and
 * twice as fast inside a busy server, where BouncyCastle's large compiled methods and tables are
 * cold by the time the next request comes.
 *
 * <p>Nothing is unpacked: the library is the system's own, found by the dynamic linker, and without
 * it (or on a JDK without the final foreign function API, Java 21) {@link #available} is false and
 * {@link Ed25519PublicKey} verifies with BouncyCastle as before. {@code -Dasa.ed25519=bouncycastle}
 * turns it off.
 *
 * <p>Why reflection: the project compiles for Java 21, where {@code java.lang.foreign} is a preview
 * API that plain class files cannot name; from Java 22 on it is final. The handles are looked up
 * once, reflectively, and adapted to take {@code byte[]} arguments, so the call site is an ordinary
 * {@code invokeExact} that the JIT compiles like any other. The downcall is "critical" (Java 22):
 * it reads the Java arrays in place, and the verification (about 50 us) holds the garbage collector
 * off no longer than the arrays' copies would cost.
 *
 * <p>What it accepts: {@code crypto_sign_verify_detached} refuses a non-canonical S, a key or an R
 * of small order and a key not canonically encoded. BouncyCastle, as called here, answers the same
 * on RFC 8032's vectors, on seeded random keys and messages and on every tampered signature tried,
 * but takes an R of small order (which only the key's owner can make verify): libsodium is the
 * stricter ({@code LibsodiumTest}). The key is still decoded by BouncyCastle first ({@link
 * DecodedPoints}), so a key either refuses is refused. A self-test at load must verify RFC 8032's
 * first vector and refuse it tampered, or libsodium is not used.
 */
final class Libsodium {
  private Libsodium() {}

  /** The sonames tried, newest first (1.0.19 and later are .26; Debian 12 has 1.0.18, .23). */
  private static final List<String> LIBRARIES =
      List.of("libsodium.so.26", "libsodium.so.23", "libsodium.so", "libsodium.dylib");

  private static final HexFormat HEX = HexFormat.of();

  /** RFC 8032, 7.1, TEST 1 (the empty message), for the self-test; before the loading below. */
  private static final byte[] TEST_KEY =
      HEX.parseHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");

  private static final byte[] TEST_SIGNATURE =
      HEX.parseHex(
          "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");

  /** (byte[] signature, byte[] message, long length, byte[] key) -> 0 when it verifies. */
  private static final MethodHandle VERIFY;

  /** Why libsodium is not used, or null when it is. */
  private static final String UNAVAILABLE;

  static {
    MethodHandle verify = null;
    String why;
    if ("bouncycastle".equals(System.getProperty("asa.ed25519"))) {
      why = "turned off (-Dasa.ed25519=bouncycastle)";
    } else {
      try {
        verify = load();
        why = selfTest(verify);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        why =
            e instanceof java.lang.reflect.InvocationTargetException t && t.getCause() != null
                ? t.getCause().toString()
                : e.toString();
      }
    }
    VERIFY = why == null ? verify : null;
    UNAVAILABLE = why;
  }

  /** Whether verifications go to libsodium. */
  static boolean available() {
    return VERIFY != null;
  }

  /** What verifies Ed25519 signatures here, for the server's start-up line. */
  static String description() {
    return available()
        ? "libsodium (native)"
        : "BouncyCastle (libsodium not used: " + UNAVAILABLE + ")";
  }

  /**
   * Whether {@code signature} (64 bytes) is {@code key}'s (32 bytes) signature of {@code message}.
   */
  static boolean verify(byte[] signature, byte[] message, byte[] key) {
    try {
      return (int) VERIFY.invokeExact(signature, message, (long) message.length, key) == 0;
    } catch (Throwable t) {
      throw new IllegalStateException("libsodium's crypto_sign_verify_detached failed", t);
    }
  }

  private static MethodHandle load() throws ReflectiveOperationException {
    Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
    Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
    Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
    Class<?> arenaType = Class.forName("java.lang.foreign.Arena");
    Class<?> lookupType = Class.forName("java.lang.foreign.SymbolLookup");
    Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
    Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
    Class<?> valueLayoutType = Class.forName("java.lang.foreign.ValueLayout");

    Object linker = linkerType.getMethod("nativeLinker").invoke(null);
    Object arena = arenaType.getMethod("global").invoke(null);
    Object library = null;
    IllegalArgumentException notFound = null;
    for (String name : LIBRARIES) {
      try {
        library =
            lookupType
                .getMethod("libraryLookup", String.class, arenaType)
                .invoke(null, name, arena);
        break;
      } catch (java.lang.reflect.InvocationTargetException e) {
        if (!(e.getCause() instanceof IllegalArgumentException missing)) {
          throw e;
        }
        notFound = missing;
      }
    }
    if (library == null) {
      throw new IllegalArgumentException("no libsodium on this machine (" + notFound + ")");
    }
    var find = lookupType.getMethod("find", String.class);
    var downcall =
        linkerType.getMethod("downcallHandle", segmentType, descriptorType, optionType.arrayType());
    Object intLayout = valueLayoutType.getField("JAVA_INT").get(null);
    Object longLayout = valueLayoutType.getField("JAVA_LONG").get(null);
    Object address = valueLayoutType.getField("ADDRESS").get(null);
    var describe = descriptorType.getMethod("of", layoutType, layoutType.arrayType());

    // sodium_init: 0 done now, 1 done before, -1 failed.
    MethodHandle init =
        (MethodHandle)
            downcall.invoke(
                linker,
                symbol(find, library, "sodium_init"),
                describe.invoke(null, intLayout, Array.newInstance(layoutType, 0)),
                Array.newInstance(optionType, 0));
    int initialised;
    try {
      initialised = (int) init.invoke();
    } catch (Throwable t) {
      throw new IllegalStateException("sodium_init failed", t);
    }
    if (initialised < 0) {
      throw new IllegalStateException("sodium_init returned " + initialised);
    }

    Object layouts = Array.newInstance(layoutType, 4);
    Array.set(layouts, 0, address);
    Array.set(layouts, 1, address);
    Array.set(layouts, 2, longLayout);
    Array.set(layouts, 3, address);
    Object options = Array.newInstance(optionType, 1);
    Array.set(options, 0, optionType.getMethod("critical", boolean.class).invoke(null, true));
    MethodHandle verify =
        (MethodHandle)
            downcall.invoke(
                linker,
                symbol(find, library, "crypto_sign_verify_detached"),
                describe.invoke(null, intLayout, layouts),
                options);
    MethodHandle ofArray =
        MethodHandles.publicLookup()
            .findStatic(segmentType, "ofArray", MethodType.methodType(segmentType, byte[].class));
    verify = MethodHandles.filterArguments(verify, 0, ofArray, ofArray);
    verify = MethodHandles.filterArguments(verify, 3, ofArray);
    return verify.asType(
        MethodType.methodType(int.class, byte[].class, byte[].class, long.class, byte[].class));
  }

  private static Object symbol(java.lang.reflect.Method find, Object library, String name)
      throws ReflectiveOperationException {
    return ((Optional<?>) find.invoke(library, name))
        .orElseThrow(() -> new IllegalArgumentException("libsodium has no " + name));
  }

  /** Null when the loaded function verifies a known signature and refuses it tampered. */
  private static String selfTest(MethodHandle verify) {
    try {
      byte[] tampered = TEST_SIGNATURE.clone();
      tampered[5] ^= 1;
      int good =
          (int) verify.invokeExact(TEST_SIGNATURE.clone(), new byte[0], 0L, TEST_KEY.clone());
      int bad = (int) verify.invokeExact(tampered, new byte[0], 0L, TEST_KEY.clone());
      return good == 0 && bad != 0
          ? null
          : "its self-test failed (RFC 8032 TEST 1: " + good + ", tampered: " + bad + ")";
    } catch (Throwable t) {
      return "its self-test threw " + t;
    }
  }
}
