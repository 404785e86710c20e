package dev.asa.evaluators.judgeeval;

/**
 * One answer to verify standalone, as a {@code POST /verifications} request would carry it.
 *
 * @param request what was asked ({@code original_request.description})
 * @param content the answer ({@code deliverable.content})
 * @param type the section 5.4 deliverable type whose default dimensions score it
 * @param format the deliverable's format, or null when the record does not say
 */
public record Answer(String request, String content, String type, String format) {}
