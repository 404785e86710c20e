package dev.asa.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.Objects;

/**
 * Where {@link Routes} registers its routes: method, path, {@link Access} and handler, none of them
 * optional (Javalin's own {@code get(path, handler, roles...)} would take a route without roles).
 */
final class RouteTable {
  private final RoutesConfig routes;

  RouteTable(RoutesConfig routes) {
    this.routes = routes;
  }

  RouteTable get(String path, Access access, Handler handler) {
    return add(HandlerType.GET, path, access, handler);
  }

  RouteTable post(String path, Access access, Handler handler) {
    return add(HandlerType.POST, path, access, handler);
  }

  RouteTable put(String path, Access access, Handler handler) {
    return add(HandlerType.PUT, path, access, handler);
  }

  RouteTable patch(String path, Access access, Handler handler) {
    return add(HandlerType.PATCH, path, access, handler);
  }

  private RouteTable add(HandlerType method, String path, Access access, Handler handler) {
    Objects.requireNonNull(access, () -> method + " " + path + " needs an Access");
    routes.addHttpHandler(method, path, handler, access);
    return this;
  }
}
