package dev.asa.facts;

/**
 * A fact with a typed record: the only things {@link FactCodec} writes and reads, so no other
 * object can end up in the facts column by mistake.
 */
public sealed interface TypedFact
    permits EscrowFact,
        DeliverableFact,
        VerificationFact,
        HardeningFact,
        DisputeFact,
        SettlementFact,
        CollateralFact,
        EvaluatorAssignmentFact,
        EvaluatorProposalsFact,
        ProvenanceFact {}
