package dev.asa.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where {@link Routes} registers its routes: method, path, {@link Access} and handler, none of them
 * optional (Javalin's own {@code get(path, handler, roles...)} would take a route without roles).
 * It remembers each row, in order, so that the routes can be listed ({@link #rows()}).
 */
final class RouteTable {
  private final RoutesConfig routes;
  private final List<RouteInfo> rows = new ArrayList<>();

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
    rows.add(new RouteInfo(method.name(), path, access));
    return this;
  }

  /** The routes registered so far, in the order of the table. */
  List<RouteInfo> rows() {
    return List.copyOf(rows);
  }
}
