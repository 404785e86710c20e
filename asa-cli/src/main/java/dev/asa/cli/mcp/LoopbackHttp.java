package dev.asa.cli.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.net.InetSocketAddress;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The SDK's Streamable HTTP transport, served by Jetty on 127.0.0.1 only. Whoever reaches the port
 * acts with the key, so it is never bound beyond loopback, and requests that carry an Origin (a
 * browser's page) or another Host (DNS rebinding) are refused by the SDK's validator.
 */
final class LoopbackHttp implements AutoCloseable {

  static final String PATH = "/mcp";

  private final Server jetty;
  private final HttpServletStreamableServerTransportProvider transport;

  LoopbackHttp(int port) throws Exception {
    transport =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(McpJsonDefaults.getMapper())
            .mcpEndpoint(PATH)
            .securityValidator(
                DefaultServerTransportSecurityValidator.builder()
                    .allowedHosts(List.of("127.0.0.1:*", "localhost:*"))
                    .build())
            .build();
    jetty = new Server(new InetSocketAddress("127.0.0.1", port));
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(transport), PATH);
    jetty.setHandler(context);
    jetty.start();
  }

  HttpServletStreamableServerTransportProvider transport() {
    return transport;
  }

  String url() {
    return "http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort() + PATH;
  }

  void join() throws InterruptedException {
    jetty.join();
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
  }
}
