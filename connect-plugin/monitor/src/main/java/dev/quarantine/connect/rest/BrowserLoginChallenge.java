package dev.quarantine.connect.rest;

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

    static final String CHALLENGE = "Basic realm=\"Kafka Connect\", charset=\"UTF-8\"";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getStatus() != 401 || response.getHeaders().containsKey(HttpHeaders.WWW_AUTHENTICATE)) {
            return;
        }
        String path = request.getUriInfo().getPath();
        String credentials = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        boolean basicOrNone = credentials == null || credentials.regionMatches(true, 0, "Basic ", 0, 6);
        if (basicOrNone && (path.equals("dead-letters") || path.startsWith("dead-letters/")
                || path.startsWith("/dead-letters"))) {
            response.getHeaders().putSingle(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE);
        }
    }
}
