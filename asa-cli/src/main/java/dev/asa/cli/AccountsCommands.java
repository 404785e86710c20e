package dev.asa.cli;

import picocli.CommandLine.Command;

/** {@code asa accounts ...}: the built-in ledger's accounts. */
@Command(
    name = "accounts",
    header = "Reads ledger accounts.",
    customSynopsis = "asa accounts COMMAND ...",
    subcommands = {AccountsCommand.class})
final class AccountsCommands extends Group {}
