package dev.asa.cli;

import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * How {@code asa} help reads: {@code usage: asa agreements get ID}, a one-sentence header, the
 * description, then the options written as they are typed ({@code --key FILE}, a repeatable one
 * with {@code ...}). Group help lists each command by its full name ({@code agreements sign}).
 */
final class HelpLayout extends Help {

  HelpLayout(CommandSpec spec, ColorScheme colors) {
    super(spec, colors);
  }

  /** Options as typed: {@code --key FILE}, not picocli's {@code --key=FILE}. */
  @Override
  public IParamLabelRenderer parameterLabelRenderer() {
    return new IParamLabelRenderer() {
      @Override
      public Ansi.Text renderParameterLabel(ArgSpec arg, Ansi ansi, List<Ansi.IStyle> styles) {
        return ansi.new Text(label(arg), colorScheme());
      }

      @Override
      public String separator() {
        return " ";
      }
    };
  }

  /** {@code " FILE"} for an option, {@code " P=V ..."} when repeatable, {@code ""} for a flag. */
  private static String label(ArgSpec arg) {
    if (!arg.isOption()) {
      return arg.paramLabel();
    }
    if (arg.arity().max() == 0) {
      return "";
    }
    return " " + arg.paramLabel() + (arg.isMultiValue() ? " ..." : "");
  }

  /** {@code --key FILE}, as messages name an option. */
  static String spelled(OptionSpec o) {
    return o.longestName() + (o.arity().max() == 0 ? "" : " " + o.paramLabel());
  }

  /** The usage line without its heading: {@code asa agreements get ID}. */
  static String synopsis(CommandLine command) {
    String[] custom = command.getCommandSpec().usageMessage().customSynopsis();
    if (custom.length > 0) {
      return String.join(" ", custom).strip();
    }
    return command.getHelp().synopsis(0).strip();
  }

  /** Sets up every command of the tree alike, and gives each its {@code --help}. */
  static void apply(CommandLine command) {
    CommandSpec spec = command.getCommandSpec();
    UsageMessageSpec usage = spec.usageMessage();
    usage
        .synopsisHeading("usage: ")
        .headerHeading("")
        .descriptionHeading("%n")
        .parameterListHeading("%narguments:%n")
        .optionListHeading("%noptions:%n")
        .commandListHeading("%ncommands:%n")
        .sortOptions(false)
        .abbreviateSynopsis(true);
    // the header, then the usage line (picocli puts the header first by default)
    usage.sectionKeys(
        List.of(
            UsageMessageSpec.SECTION_KEY_SYNOPSIS_HEADING,
            UsageMessageSpec.SECTION_KEY_SYNOPSIS,
            UsageMessageSpec.SECTION_KEY_HEADER_HEADING,
            UsageMessageSpec.SECTION_KEY_HEADER,
            UsageMessageSpec.SECTION_KEY_DESCRIPTION_HEADING,
            UsageMessageSpec.SECTION_KEY_DESCRIPTION,
            UsageMessageSpec.SECTION_KEY_PARAMETER_LIST_HEADING,
            UsageMessageSpec.SECTION_KEY_PARAMETER_LIST,
            UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING,
            UsageMessageSpec.SECTION_KEY_OPTION_LIST,
            UsageMessageSpec.SECTION_KEY_COMMAND_LIST_HEADING,
            UsageMessageSpec.SECTION_KEY_COMMAND_LIST,
            UsageMessageSpec.SECTION_KEY_FOOTER_HEADING,
            UsageMessageSpec.SECTION_KEY_FOOTER));
    // the header sits on the line after the usage line, set off by a blank line
    if (usage.header().length > 0) {
      usage.headerHeading("%n");
    }
    if (usage.description().length == 0) {
      usage.descriptionHeading("");
    }
    command
        .getHelpSectionMap()
        .put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, HelpLayout::commands);
    if (spec.findOption("--help") == null) {
      spec.addOption(
          OptionSpec.builder("-h", "--help")
              .usageHelp(true)
              .order(Order.HELP)
              .description("show this help")
              .build());
    }
    for (CommandLine sub : command.getSubcommands().values()) {
      if (sub.getCommandSpec().parent() == spec) {
        apply(sub);
      }
    }
  }

  /** Every command under this one by its full name, with its header: one line each. */
  private static String commands(Help help) {
    StringBuilder s = new StringBuilder();
    Table table = Table.plain();
    String words = help.commandSpec().qualifiedName().replaceFirst("^asa ?", "");
    addCommands(table, help.commandSpec(), words.isEmpty() ? "" : words + " ");
    return s.append(table.render()).toString();
  }

  private static void addCommands(Table table, CommandSpec spec, String prefix) {
    for (Map.Entry<String, CommandLine> e : spec.subcommands().entrySet()) {
      CommandSpec sub = e.getValue().getCommandSpec();
      if (!sub.name().equals(e.getKey())) {
        continue; // an alias
      }
      String name = prefix + e.getKey();
      if (sub.subcommands().isEmpty()) {
        String[] header = sub.usageMessage().header();
        table.row("  " + name, header.length > 0 ? header[0] : "");
      } else {
        addCommands(table, sub, name + " ");
      }
    }
  }
}
