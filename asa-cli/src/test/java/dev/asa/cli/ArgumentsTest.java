package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArgumentsTest {

  private static final Usage USAGE =
      Usage.of(
              "things do",
              "ID [NAME] --key FILE [--set P=V ...] [--limit N] [--accept]",
              "Does things.")
          .positional("ID")
          .positional("[NAME]")
          .option(Option.required("--key", "FILE", "a key"))
          .option(Option.repeated("--set", "P=V", "a change"))
          .option(Option.value("--limit", "N", "how many"))
          .option(Option.flag("--accept", "accept"))
          .server();

  private static Arguments parse(String... tokens) throws UsageException {
    return Arguments.parse(USAGE, List.of(tokens));
  }

  @Test
  void readsPositionalsOptionsFlagsAndRepeats() throws Exception {
    Arguments args =
        parse(
            "asa-1",
            "--key",
            "k.jwk",
            "--set",
            "a=1",
            "--accept",
            "--set=b=\"x\"",
            "named",
            "--json");

    assertThat(args.positional(0)).isEqualTo("asa-1");
    assertThat(args.positional(1)).isEqualTo("named");
    assertThat(args.value("--key")).isEqualTo("k.jwk");
    assertThat(args.values("--set")).containsExactly("a=1", "b=\"x\"");
    assertThat(args.flag("--accept")).isTrue();
    assertThat(args.flag("--json")).isTrue();
    assertThat(args.value("--limit")).isNull();
    assertThat(args.value("--limit", "7")).isEqualTo("7");
    assertThat(args.helpRequested()).isFalse();
  }

  @Test
  void aKeyThatStartsWithADashIsAnArgumentNotAnOption() throws Exception {
    // One base64url key in 64 starts with "-": it must still be taken as the argument it is.
    Arguments args = parse("-bk_WYDfSb_roIRj-PfGOKHyz-_ISa0klQ9QEgKxuUwk", "--key", "k");
    assertThat(args.positional(0)).isEqualTo("-bk_WYDfSb_roIRj-PfGOKHyz-_ISa0klQ9QEgKxuUwk");
    assertThatThrownBy(() -> parse("asa-1", "--key", "k", "--colour"))
        .isInstanceOf(UsageException.class)
        .hasMessage("unknown option --colour");
  }

  @Test
  void optionalPositionalsMayBeLeftOut() throws Exception {
    assertThat(parse("asa-1", "--key", "k").positional(1)).isNull();
  }

  @Test
  void anUnknownOptionIsNamed() {
    assertThatThrownBy(() -> parse("asa-1", "--key", "k", "--colour", "red"))
        .isInstanceOf(UsageException.class)
        .hasMessage("unknown option --colour");
  }

  @Test
  void aMissingValueNamesTheOptionAndWhatItWants() {
    assertThatThrownBy(() -> parse("asa-1", "--key"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--key needs a value: --key FILE");
    assertThatThrownBy(() -> parse("asa-1", "--key", "--json"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--key needs a value: --key FILE");
  }

  @Test
  void aMissingRequiredOptionOrPositionalIsNamed() {
    assertThatThrownBy(() -> parse("asa-1"))
        .isInstanceOf(UsageException.class)
        .hasMessage("missing --key FILE");
    assertThatThrownBy(() -> parse("--key", "k"))
        .isInstanceOf(UsageException.class)
        .hasMessage("missing ID");
  }

  @Test
  void extraArgumentsAndRepeatedSingleOptionsAreRefused() {
    assertThatThrownBy(() -> parse("a", "b", "c", "--key", "k"))
        .isInstanceOf(UsageException.class)
        .hasMessage("unexpected argument 'c'");
    assertThatThrownBy(() -> parse("a", "--key", "k", "--key", "l"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--key is given more than once");
  }

  @Test
  void aFlagTakesNoValue() {
    assertThatThrownBy(() -> parse("a", "--key", "k", "--accept=yes"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--accept is a flag and takes no value");
  }

  @Test
  void valuesMayStartWithADashAndDoubleDashEndsTheOptions() throws Exception {
    Arguments args =
        parse("--key", "-secret-", "--set", "--- front matter", "--", "--not-an-option");

    assertThat(args.value("--key")).isEqualTo("-secret-");
    assertThat(args.values("--set")).containsExactly("--- front matter");
    assertThat(args.positional(0)).isEqualTo("--not-an-option");
  }

  @Test
  void helpWinsOverEveryOtherMistake() throws Exception {
    assertThat(parse("--bogus", "-h").helpRequested()).isTrue();
    assertThat(parse("--help").helpRequested()).isTrue();
  }

  @Test
  void numbersAreCheckedAndNamed() throws Exception {
    assertThat(parse("a", "--key", "k", "--limit", "20").intValue("--limit", 50, 1, 200))
        .isEqualTo(20);
    assertThat(parse("a", "--key", "k").intValue("--limit", 50, 1, 200)).isEqualTo(50);
    assertThatThrownBy(
            () -> parse("a", "--key", "k", "--limit", "many").intValue("--limit", 50, 1, 200))
        .isInstanceOf(UsageException.class)
        .hasMessage("--limit must be a whole number from 1 to 200, not 'many'");
  }

  @Test
  void exclusiveOptionsNameBoth() throws Exception {
    Arguments args = parse("a", "--key", "k", "--limit", "1", "--accept");

    assertThatThrownBy(() -> args.exclusive("--limit", "--accept"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--limit and --accept cannot be used together");
  }

  @Test
  void theHelpListsTheCommandsOptionsThenTheCommonOnes() {
    String help = USAGE.help();

    assertThat(help).startsWith("usage: asa things do ID [NAME] --key FILE");
    assertThat(help.indexOf("--accept")).isLessThan(help.indexOf("--server URL"));
    assertThat(help).contains("  --set P=V     a change (repeatable)\n");
    assertThat(help).endsWith("  --help        show this help\n");
  }
}
