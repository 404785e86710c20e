package dev.asa.cli;

/**
 * One {@code --name} a command accepts.
 *
 * @param valueName what the value looks like in the usage line (FILE, N, URL...); null for a flag
 * @param repeatable may be given several times; each value is kept
 * @param required the command cannot run without it
 */
record Option(String name, String valueName, String help, boolean repeatable, boolean required) {

  static Option flag(String name, String help) {
    return new Option(name, null, help, false, false);
  }

  static Option value(String name, String valueName, String help) {
    return new Option(name, valueName, help, false, false);
  }

  static Option required(String name, String valueName, String help) {
    return new Option(name, valueName, help, false, true);
  }

  static Option repeated(String name, String valueName, String help) {
    return new Option(name, valueName, help, true, false);
  }

  boolean takesValue() {
    return valueName != null;
  }

  /** {@code --file FILE}, or {@code --json} for a flag. */
  String spelled() {
    return takesValue() ? name + " " + valueName : name;
  }
}
