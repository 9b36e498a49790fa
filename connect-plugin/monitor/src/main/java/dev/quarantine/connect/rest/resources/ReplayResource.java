package dev.quarantine.connect.rest.resources;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarantine.connect.rest.http.Answers;
import dev.quarantine.connect.rest.DeadLetterRestExtension;
import dev.quarantine.connect.rest.http.Guarded;
import dev.quarantine.connect.rest.aggregation.Monitor;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.replays.ReplayIds;
import dev.quarantine.connect.rest.replays.ReplayRequest;
import dev.quarantine.connect.rest.replays.Replays;

/**
 * {@code POST /dead-letters/{topic}/replays} (202, the replay's id and Location; 200 and the replay an earlier request
 * with the same {@code Idempotency-Key} started; with {@code "dryRun": true}, 200 and what it would do), {@code GET
 * /dead-letters/{topic}/replays/{id}} (its progress and counts), {@code DELETE} of the same path (cancels it). Behind
 * the worker's REST authentication like every path of the worker; the calls it makes to the worker's own API carry
 * the caller's credentials. Public only for JAX-RS; users configure {@link DeadLetterRestExtension}.
 */
@Guarded
@Path("/dead-letters/{topic}/replays")
@Produces(MediaType.APPLICATION_JSON)
public final class ReplayResource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Monitor monitor;
    private final ClusterReader reader;
    private final Replays replays;
    private final Answers answers;

    public ReplayResource(Monitor monitor, ClusterReader reader, Replays replays, Answers answers) {
        this.monitor = monitor;
        this.reader = reader;
        this.replays = replays;
        this.answers = answers;
    }

    @POST
    @Consumes({MediaType.APPLICATION_JSON, MediaType.WILDCARD})
    public Response start(@PathParam("topic") String topic, String body,
                          @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
                          @HeaderParam(ReplayIds.IDEMPOTENCY_KEY_HEADER) String idempotencyKey) {
        return answers.respond(() -> {
            DeadLetterResource.checkTopic(monitor, reader, topic);
            ReplayRequest request = ReplayRequest.parse(body);
            if (request.dryRun()) {
                return Response.ok(json(replays.dryRun(topic, request.settings(),
                        Optional.ofNullable(authorization))), MediaType.APPLICATION_JSON_TYPE)
                        .build();
            }
            Replays.Started started = replays.start(topic, request.settings(),
                    Optional.ofNullable(idempotencyKey), Optional.ofNullable(authorization));
            URI location = URI.create("/dead-letters/" + topic + "/replays/" + started.id());
            Map<String, Object> answer = new LinkedHashMap<>(replays.answer(topic, started,
                    Optional.ofNullable(authorization)));
            answer.put("location", location.toString());
            return Response.status(started.created() ? 202 : 200).entity(json(answer)).location(location)
                    .type(MediaType.APPLICATION_JSON_TYPE).build();
        });
    }

    @GET
    @Path("/{id}")
    public Response progress(@PathParam("topic") String topic, @PathParam("id") String id,
                             @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return ofReplay(topic, () -> replays.progress(topic, id, Optional.ofNullable(authorization)));
    }

    @DELETE
    @Path("/{id}")
    public Response cancel(@PathParam("topic") String topic, @PathParam("id") String id,
                           @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return ofReplay(topic, () -> replays.cancel(topic, id, Optional.ofNullable(authorization)));
    }

    /** The answer of {@code call} about a replay of {@code topic}, a monitored topic. */
    private Response ofReplay(String topic, Supplier<Object> call) {
        return answers.json(() -> {
            DeadLetterResource.checkTopic(monitor, reader, topic);
            return call.get();
        });
    }

    private static String json(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw MonitorException.fatal("could not write the answer as JSON", e);
        }
    }
}
