package dev.asa.evaluators.embedding;

/**
 * Keeps the tokenizer library of the offline model from calling home.
 *
 * <p>The model's tokenizer (DJL's Hugging Face binding) runs a telemetry "call home" in its class
 * initialiser: it asks the cloud instance-metadata address 169.254.169.254 for an instance id and
 * region and then reports them to the vendor's storage. Nobody running an ASA server configured
 * that connection, and on a host without that address it blocks the loading thread until its
 * connection times out. The library reads two switches before it calls: {@code OPT_OUT_TRACKING}
 * and its offline mode ({@code ai.djl.offline}, which also forbids it any download; everything the
 * model needs is in our jars). Both are set here, in code, before anything loads the library.
 *
 * <p>The library lets an environment variable of the same name win over the system property; an
 * operator who sets {@code OPT_OUT_TRACKING=false} and {@code DJL_OFFLINE=false} has configured the
 * call, and no one else can.
 */
final class NoCallHome {
  private NoCallHome() {}

  /** Sets the library's switches; idempotent, and cheap enough to call before every load. */
  static void ensure() {
    System.setProperty("OPT_OUT_TRACKING", "true");
    System.setProperty("ai.djl.offline", "true");
  }
}
