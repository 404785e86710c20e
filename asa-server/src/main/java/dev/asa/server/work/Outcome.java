package dev.asa.server.work;

import com.fasterxml.jackson.databind.JsonNode;

/** What a mutating call answers: an HTTP status and a JSON body (stored for idempotent replays). */
public record Outcome(int status, JsonNode body) {}
