package dev.quarantine.connect.rest.http;

import java.io.IOException;
import java.io.InputStream;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * Applies {@link RequestGuard} to every request of the monitor's endpoints (and only theirs: {@link Guarded}), before
 * the worker's authentication and before any of the body is read: a refusal is answered 403, 413 or 415 with the
 * monitor's error body; a served request's body is read through {@link BoundedEntity}. Every answer of these
 * endpoints, refusals and errors included, carries {@code Cache-Control: no-store}: they may hold what dead letters
 * hold. Public only because JAX-RS calls providers through public methods.
 */
@Guarded
public final class RequestGuardFilter implements ContainerRequestFilter, ContainerResponseFilter {

    /** Before authentication: a cross-site request is refused whatever credentials the browser sends along. */
    public static final int PRIORITY = Priorities.AUTHENTICATION - 100;
    static final String CACHE_CONTROL = "no-store";

    private final KnownHosts hosts;

    public RequestGuardFilter(KnownHosts hosts) {
        this.hosts = hosts;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        RequestGuard.Verdict verdict = RequestGuard.decide(new RequestGuard.Request(request.getMethod(),
                request.getHeaderString(HttpHeaders.HOST), request.getHeaderString("Origin"),
                request.getHeaderString("Sec-Fetch-Site"), request.getHeaderString("Sec-Fetch-Mode"),
                request.getHeaderString(HttpHeaders.CONTENT_TYPE), request.getHeaderString(HttpHeaders.CONTENT_LENGTH),
                request.getHeaderString("Transfer-Encoding") != null), hosts);
        if (!verdict.served()) {
            if (verdict.outcome() != RequestGuard.Outcome.TOO_LARGE) {
                discardBody(request.getEntityStream());
            }
            request.abortWith(Answers.refusal(verdict.outcome().status, verdict.outcome().category,
                    verdict.reason(), verdict.reason() + " (refused " + request.getMethod() + " /"
                            + request.getUriInfo().getPath() + ")"));
            return;
        }
        request.setEntityStream(new BoundedEntity(request.getEntityStream(), RequestGuard.MAX_BODY_BYTES));
    }

    /**
     * Reads what a refused request sent, at most {@link RequestGuard#MAX_BODY_BYTES}, and drops it: with its body left
     * unread, the worker would close the connection under a client that goes on using it (an HTTP/1.1 client's next
     * request on it then fails). A longer body is left, and the connection closed.
     */
    private static void discardBody(InputStream body) {
        byte[] buffer = new byte[8192];
        long left = RequestGuard.MAX_BODY_BYTES;
        try {
            int n = 0;
            while (left > 0 && n != -1) {
                n = body.read(buffer, 0, (int) Math.min(buffer.length, left));
                left -= Math.max(n, 0);
            }
        } catch (IOException e) {
            // the client went away or sent a broken body: nothing to keep the connection for
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        response.getHeaders().putSingle(HttpHeaders.CACHE_CONTROL, CACHE_CONTROL);
    }
}
