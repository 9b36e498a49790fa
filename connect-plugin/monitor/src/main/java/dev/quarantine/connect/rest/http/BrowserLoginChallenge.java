package dev.quarantine.connect.rest.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * Lets a browser sign in to the dashboard: Kafka's {@code BasicAuthSecurityRestExtension} refuses a request without
 * credentials with a bare 401, and a browser asks for a user name and password only when the 401 carries a
 * {@code WWW-Authenticate} challenge. So a 401 to a {@code /dead-letters} request that sent no credentials, or Basic
 * ones, and has no challenge yet gets {@link #CHALLENGE}. Nothing else changes: the worker's own filter still decides
 * who gets in. Public only because JAX-RS instantiates registered providers through public methods.
 */
public final class BrowserLoginChallenge implements ContainerResponseFilter {

    public static final String CHALLENGE = "Basic realm=\"Kafka Connect\", charset=\"UTF-8\"";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (challenges(response.getStatus(), response.getHeaders().containsKey(HttpHeaders.WWW_AUTHENTICATE),
                request.getUriInfo().getPath(), request.getHeaderString(HttpHeaders.AUTHORIZATION))) {
            response.getHeaders().putSingle(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE);
        }
    }

    /**
     * Whether an answer gets the challenge: a 401 without one, to a monitor path ({@code path} as JAX-RS gives it,
     * relative to the REST root), for a request with no credentials or Basic ones (a client using another scheme
     * knows how to sign in).
     */
    static boolean challenges(int status, boolean hasChallenge, String path, String authorization) {
        if (status != 401 || hasChallenge) {
            return false;
        }
        String relative = path.startsWith("/") ? path.substring(1) : path;
        boolean monitorPath = relative.equals("dead-letters") || relative.startsWith("dead-letters/");
        boolean basicOrNone = authorization == null || authorization.regionMatches(true, 0, "Basic ", 0, 6);
        return monitorPath && basicOrNone;
    }
}
