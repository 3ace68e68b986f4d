import java.lang.reflect.Field;
import java.util.Arrays;

/**
 * Starts DynamoDB Local bound to one address (the first argument; the rest are DynamoDB Local's own
 * options). Its command line has no host option: its server is an embedded Jetty whose connector
 * listens on every interface, unauthenticated. This builds the server exactly as the jar's main class
 * does (ServerRunner.createServerFromCommandLineArgs), sets the host on its connectors before they
 * open, then starts it.
 *
 * Everything is reached by reflection so that this file compiles against the JDK alone; the jar's
 * classes come from the class path at run time. Any change in the jar that breaks this (a renamed
 * field, another connector type) ends the process with a message instead of listening everywhere.
 */
public final class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    if (args.length < 1) fail("usage: LoopbackDynamoDbLocal <host> [DynamoDB Local options]");
    String host = args[0];
    String[] options = Arrays.copyOfRange(args, 1, args.length);

    Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
    Object proxy = runner.getMethod("createServerFromCommandLineArgs", String[].class).invoke(null, (Object) options);
    Field field = proxy.getClass().getDeclaredField("server");
    field.setAccessible(true);
    Object server = field.get(proxy);

    Object[] connectors = (Object[]) server.getClass().getMethod("getConnectors").invoke(server);
    if (connectors.length == 0) fail("DynamoDB Local's server has no connector to bind");
    for (Object connector : connectors) {
      connector.getClass().getMethod("setHost", String.class).invoke(connector, host);
    }

    // start() reports a port in use on stderr and stops the server instead of throwing.
    proxy.getClass().getMethod("start").invoke(proxy);
    if (!(Boolean) server.getClass().getMethod("isStarted").invoke(server)) fail("DynamoDB Local did not start");
    for (Object connector : connectors) {
      Object bound = connector.getClass().getMethod("getHost").invoke(connector);
      if (!host.equals(bound)) fail("DynamoDB Local is bound to " + bound + ", not " + host);
    }
    server.getClass().getMethod("join").invoke(server);
  }

  private static void fail(String message) {
    System.err.println(message);
    System.exit(1);
  }
}
