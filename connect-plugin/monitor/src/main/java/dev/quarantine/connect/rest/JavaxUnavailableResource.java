package dev.quarantine.connect.rest;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * {@link UnavailableResource} for a Kafka Connect 3.x worker, whose REST API is javax.ws.rs: every request to
 * {@code /dead-letters} is answered 501 with the reason and the fix. Compiled against javax.ws.rs (the worker
 * provides it), loaded only on such a worker ({@link RefusalEndpoint}). Public only because JAX-RS calls public
 * methods.
 */
@Path("/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
public final class JavaxUnavailableResource {

    private final String body;

    JavaxUnavailableResource(String reason) {
        this.body = RefusalEndpoint.body(reason);
    }

    @GET
    public Response topics() {
        return unsupported();
    }

    @GET
    @Path("/{any: .+}")
    public Response anyPath() {
        return unsupported();
    }

    private Response unsupported() {
        return Response.status(501).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }
}
