package dev.asa.bench;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The lifecycle benchmark's arguments, each {@code --name value}.
 *
 * @param server null to start the server as a child process, else the URL of one running
 * @param nodes how many server processes to start on the one store (more than one: PostgreSQL only)
 * @param serverCores empty for no pinning, else one CPU list for {@code taskset -c} per node (e.g.
 *     0 or 0,2-3), in node order
 * @param serverJavaOpts the child JVM's options (default {@code -XX:+UseSerialGC}, as {@code ./asa
 *     serve})
 * @param serverLogLevel the child's {@code --log-level} (default info, as {@code asa serve}: one
 *     access-log line per request, into the run's server.log)
 * @param keepStore keep the run's SQLite file or PostgreSQL schema afterwards, to look inside
 * @param scenario what one unit of work is: a whole agreement lifecycle (default), or one
 *     structural standalone verification
 * @param stickyAgreements with several nodes, every call of one agreement to the same node (as a
 *     load balancer with affinity by agreement id) instead of each call to the next node
 * @param settleJit after the warm-up, at most this many seconds more of it, in steps of {@link
 *     #SETTLE_STEP}, until the servers' compiler threads took less than {@link #SETTLED_JIT_SHARE}
 *     of their CPU in the last step (0: the warm-up is exactly {@code warmup} seconds). A server
 *     runs for days; what it costs once its JIT has compiled the code a lifecycle runs is the
 *     figure that lasts, while one core takes minutes to compile it.
 */
record BenchOptions(
    int seconds,
    int warmup,
    int clients,
    List<String> stores,
    String pg,
    String server,
    int nodes,
    List<String> serverCores,
    List<String> serverJavaOpts,
    String serverLogLevel,
    boolean keepStore,
    Scenario scenario,
    boolean stickyAgreements,
    int settleJit) {

  /** The warm-up's steps while the JIT settles. */
  static final int SETTLE_STEP = 10;

  /** The compiler threads' share of the servers' CPU in a step under which the JIT has settled. */
  static final double SETTLED_JIT_SHARE = 0.05;

  /** What the clients repeat, and the calls it is made of. */
  enum Scenario {
    /** create, sign twice, fund, deliver, verify: six calls, the agreement CLOSED at the end. */
    LIFECYCLE(
        "lifecycle",
        List.of("create", "sign_client", "sign_provider", "fund", "deliver", "verify")),
    /** One signed POST /verifications at structural depth, with no agreement. */
    STRUCTURAL("verification", List.of("verify_structural"));

    final String unit;
    final List<String> calls;

    Scenario(String unit, List<String> calls) {
      this.unit = unit;
      this.calls = calls;
    }
  }

  static final String USAGE =
      "usage: ./asa bench [--seconds N] [--warmup N] [--clients N] [--stores sqlite,postgresql]"
          + " [--pg postgresql://user@host:port/db] [--nodes N] [--route call|agreement]"
          + " [--server-cores LIST[/LIST...]] [--server-java-opts 'OPTS'] [--server-log-level LEVEL]"
          + " [--server URL] [--keep-store true] [--scenario lifecycle|structural]"
          + " [--settle-jit SECONDS]"
          + "\n  --nodes N: N servers on one PostgreSQL schema (needs --stores postgresql)"
          + "\n  --route call: call k of lifecycle i to node (k + i) mod N (default); agreement: every"
          + " call of lifecycle i to node i mod N"
          + "\n  --server-cores: one taskset -c list for every node (0 or 0,2-3), or one list per node"
          + " separated by '/' (0/1: node 1 on core 0, node 2 on core 1)"
          + "\n  --settle-jit: after the warm-up, up to that many seconds more until the servers' JIT"
          + " took under 5% of their CPU for 10 s (default 300; 0: the warm-up alone)";

  private static final Set<String> NAMES =
      Set.of(
          "seconds",
          "warmup",
          "clients",
          "stores",
          "pg",
          "server",
          "nodes",
          "server-cores",
          "server-java-opts",
          "server-log-level",
          "keep-store",
          "scenario",
          "route",
          "settle-jit");

  /** What taskset -c accepts: CPU numbers and ranges, comma-separated (0, 1-3, 0,2). */
  private static final Pattern CPU_LIST = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");

  static BenchOptions parse(String... args) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException(USAGE + "\nbad: " + Arrays.toString(args));
      }
      String name = args[i].substring(2);
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException(USAGE + "\nunknown option: " + args[i]);
      }
      m.put(name, args[++i]);
    }
    List<String> stores = List.of(m.getOrDefault("stores", "sqlite,postgresql").split(","));
    for (String s : stores) {
      if (!s.equals("sqlite") && !s.equals("postgresql")) {
        throw new IllegalArgumentException(
            "--stores takes sqlite, postgresql or both (comma-separated), not '" + s + "'");
      }
    }
    int nodes = wholeNumber(m, "nodes", 1);
    if (nodes < 1) {
      throw new IllegalArgumentException("--nodes takes 1 or more, not " + nodes);
    }
    if (nodes > 1 && stores.contains("sqlite")) {
      throw new IllegalArgumentException(
          "--nodes "
              + nodes
              + " needs --stores postgresql: SQLite is one node's file, only PostgreSQL is shared");
    }
    if (nodes > 1 && m.containsKey("server")) {
      throw new IllegalArgumentException(
          "--nodes starts that many servers; with --server URL the benchmark starts none");
    }
    List<String> cores = serverCores(m.get("server-cores"), nodes);
    if (!cores.isEmpty() && m.containsKey("server")) {
      throw new IllegalArgumentException(
          "--server-cores pins the server the benchmark starts; with --server URL pin that server"
              + " yourself (taskset -c LIST ./asa serve ...)");
    }
    String javaOpts = m.getOrDefault("server-java-opts", "-XX:+UseSerialGC").strip();
    return new BenchOptions(
        wholeNumber(m, "seconds", 20),
        wholeNumber(m, "warmup", 60),
        wholeNumber(m, "clients", 16),
        stores,
        m.getOrDefault(
            "pg",
            System.getenv()
                .getOrDefault("ASA_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")),
        m.get("server"),
        nodes,
        cores,
        javaOpts.isEmpty() ? List.of() : List.of(javaOpts.split("\\s+")),
        m.getOrDefault("server-log-level", "info"),
        yesNo(m, "keep-store"),
        scenario(m.getOrDefault("scenario", "lifecycle")),
        stickyAgreements(m.getOrDefault("route", "call")),
        wholeNumber(m, "settle-jit", 300));
  }

  /** Node {@code node}'s CPU list (0 is the first node), or null when the nodes are not pinned. */
  String coresOf(int node) {
    return serverCores.isEmpty() ? null : serverCores.get(node);
  }

  /**
   * One CPU list per node: a single list pins every node to the same CPUs (as with one node); lists
   * separated by '/' pin each node to its own, and there must be one per node.
   */
  private static List<String> serverCores(String v, int nodes) {
    if (v == null) {
      return List.of();
    }
    List<String> lists = List.of(v.split("/", -1));
    for (String list : lists) {
      if (!CPU_LIST.matcher(list).matches()) {
        throw new IllegalArgumentException(
            "--server-cores takes a CPU list as taskset -c does, such as 0 or 0,2-3, or one such"
                + " list per node separated by '/' (0/1), not '"
                + v
                + "'");
      }
    }
    if (lists.size() == 1) {
      return Collections.nCopies(nodes, v);
    }
    if (lists.size() != nodes) {
      throw new IllegalArgumentException(
          "--server-cores "
              + v
              + " names "
              + lists.size()
              + " CPU lists for --nodes "
              + nodes
              + ": give one list for all nodes, or exactly one per node");
    }
    return lists;
  }

  private static boolean stickyAgreements(String v) {
    return switch (v) {
      case "call" -> false;
      case "agreement" -> true;
      default ->
          throw new IllegalArgumentException(
              "--route takes call (each call of a lifecycle to the next node) or agreement (all"
                  + " of a lifecycle's calls to one node), not '"
                  + v
                  + "'");
    };
  }

  private static Scenario scenario(String v) {
    return switch (v) {
      case "lifecycle" -> Scenario.LIFECYCLE;
      case "structural" -> Scenario.STRUCTURAL;
      default ->
          throw new IllegalArgumentException(
              "--scenario takes lifecycle or structural, not '" + v + "'");
    };
  }

  private static boolean yesNo(Map<String, String> m, String name) {
    String v = m.getOrDefault(name, "false");
    if (v.equals("true") || v.equals("false")) {
      return v.equals("true");
    }
    throw new IllegalArgumentException("--" + name + " takes true or false, not '" + v + "'");
  }

  private static int wholeNumber(Map<String, String> m, String name, int dflt) {
    String v = m.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("--" + name + " takes a whole number, not '" + v + "'");
  }
}
