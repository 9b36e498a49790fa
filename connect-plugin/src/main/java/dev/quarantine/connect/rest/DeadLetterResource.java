package dev.quarantine.connect.rest;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The monitor's endpoints on the worker's REST API. Public only because JAX-RS instantiates nothing here but calls
 * public methods; users configure {@link DeadLetterRestExtension}, never this class.
 */
@Path("/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
public final class DeadLetterResource {

    static final int DEFAULT_LIMIT = 20;
    private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final Logger log = LoggerFactory.getLogger(DeadLetterResource.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Monitor monitor;
    private final ClusterReader reader;
    private final Clock clock;
    private final RecentFigures recent;

    DeadLetterResource(Monitor monitor, ClusterReader reader, Clock clock) {
        this.monitor = monitor;
        this.reader = reader;
        this.clock = clock;
        this.recent = new RecentFigures(monitor.config().cache(), clock);
    }

    @GET
    public Response topics(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return answer(() -> {
            Partial figures = recent.get("", () -> reader.readCluster(new Partial.Query(null, 0), authorization));
            return Views.summary(reader.knownTopics(), figures, clock.millis());
        });
    }

    @GET
    @Path("/{topic}")
    public Response topic(@PathParam("topic") String topic,
                          @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return answer(() -> {
            checkTopic(topic);
            Partial figures = recent.get(topic, () -> reader.readCluster(new Partial.Query(topic, 0), authorization));
            return Views.detail(topic, figures, clock.millis());
        });
    }

    @GET
    @Path("/{topic}/records")
    public Response records(@PathParam("topic") String topic, @QueryParam("limit") String limit,
                            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return answer(() -> {
            int max = monitor.config().recentRecords();
            int records = intParam("limit", limit, Math.min(DEFAULT_LIMIT, max), 1, max);
            checkTopic(topic);
            Partial figures = reader.readCluster(new Partial.Query(topic, records), authorization);
            return Views.records(topic, figures, monitor.config().exposePayload());
        });
    }

    /** A peer's request for this worker's share: {@link Codec} form, from local stores only. */
    @GET
    @Path("/" + Peers.PARTIALS_PATH)
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public Response partials(@QueryParam("partitions") String partitions, @QueryParam("topic") String topic,
                             @QueryParam("records") String records) {
        try {
            Set<Integer> wanted = new TreeSet<>();
            for (String partition : (partitions == null ? "" : partitions).split(",")) {
                if (!partition.isBlank()) {
                    wanted.add(intParam("partitions", partition.trim(), 0, 0, Integer.MAX_VALUE));
                }
            }
            if (topic != null && !TOPIC_NAME.matcher(topic).matches()) {
                throw MonitorException.badRequest("malformed topic name");
            }
            Partial.Query query = new Partial.Query(topic, intParam("records", records, 0, 0, 1000));
            byte[] body = Codec.encode(reader.readLocal(wanted, query), Partial::write);
            return Response.ok(body, MediaType.APPLICATION_OCTET_STREAM_TYPE).build();
        } catch (MonitorException e) {
            return error(e);
        } catch (RuntimeException e) {
            return unexpected(e);
        }
    }

    private void checkTopic(String topic) {
        if (!TOPIC_NAME.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw MonitorException.badRequest("'" + abbreviate(topic) + "' is not a legal topic name (at most 249 of"
                    + " a-z, A-Z, 0-9, '.', '_', '-')");
        }
        if (!monitor.topics().matches(topic) && !reader.knownTopics().contains(topic)) {
            throw MonitorException.notFound("topic " + topic + " is not a monitored dead-letter topic; GET"
                    + " /dead-letters lists them (add topics with " + MonitorConfig.TOPICS_CONFIG + ")");
        }
    }

    private static int intParam(String name, String value, int defaultValue, int min, int max) {
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below, with the legal range
        }
        throw MonitorException.badRequest(name + " must be a whole number from " + min + " to " + max + ", was '"
                + abbreviate(value) + "'");
    }

    private Response answer(Supplier<Object> body) {
        try {
            return Response.ok(JSON.writeValueAsString(body.get()), MediaType.APPLICATION_JSON_TYPE).build();
        } catch (MonitorException e) {
            return error(e);
        } catch (JsonProcessingException | RuntimeException e) {
            return unexpected(e);
        }
    }

    private Response error(MonitorException e) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error_code", e.status());
        body.put("message", e.getMessage());
        body.put("category", e.category());
        if (e.owner() != null) {
            body.put("owner", e.owner());
        }
        Response.ResponseBuilder response = Response.status(e.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(toJson(body));
        if (e.status() == 503) {
            response.header(HttpHeaders.RETRY_AFTER, monitor.config().retryAfterSeconds());
        }
        return response.build();
    }

    private Response unexpected(Exception e) {
        log.error("Dead-letter monitor: unexpected error answering a request", e);
        return error(MonitorException.fatal("unexpected error (" + e.getClass().getSimpleName() + "); the worker"
                + " log has the details", e));
    }

    private static String toJson(Map<String, Object> body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            return "{\"error_code\":500,\"message\":\"could not write the error\",\"category\":\"FATAL\"}";
        }
    }

    private static String abbreviate(String value) {
        return value.length() <= 60 ? value : value.substring(0, 60) + "...";
    }
}
