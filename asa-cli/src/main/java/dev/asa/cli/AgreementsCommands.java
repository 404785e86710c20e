package dev.asa.cli;

import picocli.CommandLine.Command;

/** {@code asa agreements ...}: one agreement's life, from proposal to payment. */
@Command(
    name = "agreements",
    header = "Creates agreements and takes them through their life.",
    customSynopsis = "asa agreements COMMAND ...",
    subcommands = {
      CreateCommand.class,
      GetCommand.class,
      StatusCommand.class,
      ListCommand.class,
      CountsCommand.class,
      EventsCommand.class,
      SignCommand.class,
      NegotiateCommand.class,
      NegotiationCommand.class,
      FundCommand.class,
      StakeCommand.class,
      DeliverCommand.class,
      VerifyCommand.class,
      VerificationCommand.class,
      ChallengeCommand.class,
      CloseCommand.class,
      RulingCommand.class,
      EscrowCommand.class,
      SealCommands.Seal.class,
      SealCommands.Sealed.class,
      SealCommands.Hardening.class
    })
final class AgreementsCommands extends Group {}
