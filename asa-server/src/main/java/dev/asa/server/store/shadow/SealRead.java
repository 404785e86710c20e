package dev.asa.server.store.shadow;

import java.time.Instant;

/** One read of a seal's criteria: who (the caller's description), by which route, when. */
public record SealRead(String sealId, String caller, String route, Instant at) {}
