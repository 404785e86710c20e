package dev.asa.server.agreements;

/**
 * A POST that carried an {@code Idempotency-Key}: its response is stored in the same transaction as
 * the change it made, so a retry gets the same answer and changes nothing.
 */
public record IdempotencyTicket(String scope, String key, String requestHash) {}
