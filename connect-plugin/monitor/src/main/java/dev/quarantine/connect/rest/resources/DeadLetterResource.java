package dev.quarantine.connect.rest.resources;

import java.time.Clock;
import java.util.Set;
import java.util.TreeSet;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.quarantine.txn.TopicNames;
import dev.quarantine.connect.rest.http.Answers;
import dev.quarantine.connect.rest.DeadLetterRestExtension;
import dev.quarantine.connect.rest.http.Guarded;
import dev.quarantine.connect.rest.aggregation.Monitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;

/**
 * The monitor's endpoints on the worker's REST API. Public only because JAX-RS instantiates nothing here but calls
 * public methods; users configure {@link DeadLetterRestExtension}, never this class.
 */
@Guarded
@Path("/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
public final class DeadLetterResource {

    static final int DEFAULT_LIMIT = 20;

    private final Monitor monitor;
    private final ClusterReader reader;
    private final Clock clock;
    private final RecentFigures recent;
    private final Answers answers;

    public DeadLetterResource(Monitor monitor, ClusterReader reader, Answers answers, Clock clock) {
        this.monitor = monitor;
        this.reader = reader;
        this.answers = answers;
        this.clock = clock;
        this.recent = new RecentFigures(monitor.config().cache(), clock);
    }

    @GET
    public Response topics() {
        return answers.json(() -> {
            PartitionFigures figures = recent.get("", () -> reader.readCluster(new PartitionFigures.Query(null, 0)));
            return FiguresJson.catchingUp(FiguresJson.summary(reader.knownTopics(), figures, clock.millis()),
                    monitor.recordsBehind());
        });
    }

    @GET
    @Path("/{topic}")
    public Response topic(@PathParam("topic") String topic) {
        return answers.json(() -> {
            checkTopic(topic);
            PartitionFigures figures = recent.get(topic,
                    () -> reader.readCluster(new PartitionFigures.Query(topic, 0)));
            return FiguresJson.catchingUp(FiguresJson.detail(topic, figures, clock.millis()), monitor.recordsBehind());
        });
    }

    @GET
    @Path("/{topic}/records")
    public Response records(@PathParam("topic") String topic, @QueryParam("limit") String limit) {
        return answers.json(() -> {
            int max = monitor.config().recentRecords();
            int records = intParam("limit", limit, Math.min(DEFAULT_LIMIT, max), 1, max);
            checkTopic(topic);
            // one read of every kept record serves every limit until the cache expires
            PartitionFigures figures = recent.get("records " + topic,
                    () -> reader.readCluster(new PartitionFigures.Query(topic, max)));
            return FiguresJson.records(topic, figures, monitor.config().exposePayload(), records);
        });
    }

    /** The partitions a peer asks for: {@code 0,1,2}. */
    static Set<Integer> partitionList(String partitions) {
        Set<Integer> wanted = new TreeSet<>();
        for (String partition : (partitions == null ? "" : partitions).split(",")) {
            if (!partition.isBlank()) {
                wanted.add(intParam("partitions", partition.trim(), 0, 0, Integer.MAX_VALUE));
            }
        }
        return wanted;
    }

    private void checkTopic(String topic) {
        checkTopic(monitor, reader, topic);
    }

    /** A legal topic name the monitor reads. @throws MonitorException 400 or 404 */
    static void checkTopic(Monitor monitor, ClusterReader reader, String topic) {
        if (!TopicNames.isLegal(topic)) {
            throw MonitorException.badRequest("'" + abbreviate(topic) + "' is not a legal topic name ("
                    + TopicNames.RULE + ")");
        }
        if (!monitor.topics().matches(topic) && !reader.knownTopics().contains(topic)) {
            throw MonitorException.notFound("topic " + topic + " is not a monitored dead-letter topic; GET"
                    + " /dead-letters lists them (add topics with " + MonitorConfig.TOPICS_CONFIG + ")");
        }
    }

    static int intParam(String name, String value, int defaultValue, int min, int max) {
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

    private static String abbreviate(String value) {
        return value.length() <= 60 ? value : value.substring(0, 60) + "...";
    }
}
