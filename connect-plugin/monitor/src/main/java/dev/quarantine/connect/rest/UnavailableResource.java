package dev.quarantine.connect.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import dev.quarantine.connect.rest.http.Answers;

/**
 * {@code /dead-letters} on a worker that cannot run the monitor ({@link MonitorRequirements}): every request is
 * answered 501 with the reason and the fix, the same words as the one ERROR line in the worker log. Public only
 * because JAX-RS calls public methods.
 */
@Path("/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
public final class UnavailableResource {

    private final String reason;

    UnavailableResource(String reason) {
        this.reason = reason;
    }

    @GET
    public Response topics() {
        return Answers.unsupported(reason);
    }

    @GET
    @Path("/{any: .+}")
    public Response anyPath() {
        return Answers.unsupported(reason);
    }
}
