package dev.asa.server.http;

/**
 * One row of {@link Routes}' table as it was registered: the method, the path as Javalin matches it
 * ({@code /agreements/{id}}) and who may call it. The drift test compares this list with the
 * OpenAPI document, so a route cannot be added without being documented.
 */
public record RouteInfo(String method, String path, Access access) {}
