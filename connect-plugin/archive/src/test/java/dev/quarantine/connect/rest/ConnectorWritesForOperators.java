package dev.quarantine.connect.rest;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.apache.kafka.connect.rest.ConnectRestExtension;
import org.apache.kafka.connect.rest.ConnectRestExtensionContext;

/**
 * An authorizer as a platform team puts beside authentication: only the user {@value #OPERATOR} may change
 * connectors ({@code POST}, {@code PUT}, {@code DELETE} under {@code /connectors}); every signed-in user may read them
 * and call {@code /dead-letters}. Test workers' classpath only (registered in src/test/resources/META-INF/services);
 * authentication stays Kafka's basic-auth extension's, which refuses a wrong password before or after this.
 */
public class ConnectorWritesForOperators implements ConnectRestExtension {

    public static final String OPERATOR = "operator";

    @Override
    public void register(ConnectRestExtensionContext context) {
        context.configurable().register((ContainerRequestFilter) ConnectorWritesForOperators::authorize);
    }

    private static void authorize(ContainerRequestContext request) {
        boolean write = !request.getMethod().equals("GET") && !request.getMethod().equals("HEAD");
        if (write && request.getUriInfo().getPath().startsWith("connectors") && !OPERATOR.equals(user(request))) {
            request.abortWith(Response.status(403).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity("{\"error_code\":403,\"message\":\"only " + OPERATOR + " may change connectors\"}")
                    .build());
        }
    }

    private static String user(ContainerRequestContext request) {
        String authorization = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (authorization == null || !authorization.startsWith("Basic ")) {
            return null;
        }
        String decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                StandardCharsets.UTF_8);
        return decoded.contains(":") ? decoded.substring(0, decoded.indexOf(':')) : null;
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }

    @Override
    public void close() {
    }

    @Override
    public String version() {
        return "test";
    }
}
