package dev.asa.server.work;

import dev.asa.document.Agreement;
import dev.asa.server.store.agreements.AgreementRow;
import java.time.Instant;

/** The loaded agreement a decision is made on, with the time and who acts. */
public record Current(AgreementRow row, Agreement agreement, Instant now, Actor actor) {}
