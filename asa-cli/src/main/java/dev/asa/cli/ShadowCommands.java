package dev.asa.cli;

import picocli.CommandLine.Command;

/**
 * {@code asa shadow ...}: the Shadow Score Spec's tools, offline. Their exit statuses are the
 * spec's CLI contract: 1 is the answer (the score is above the threshold, the seal does not hold),
 * 2 an input that cannot be used.
 */
@Command(
    name = "shadow",
    header = "Scores sealed test results and checks revealed seals, offline.",
    customSynopsis = "asa shadow COMMAND ...",
    subcommands = {ShadowCommand.class, VerifySealCommand.class})
final class ShadowCommands extends Group {}
