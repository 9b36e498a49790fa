package dev.quarantine.connect.rest;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.connect.rest.aggregation.Codec;
import dev.quarantine.connect.rest.aggregation.DeadLetterRecord;
import dev.quarantine.connect.rest.aggregation.MonitorTopology;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.aggregation.TopicStats;

/**
 * An attacker who can join the monitor's Kafka Streams group: a Streams client with the monitor's application.id and
 * topology, whose application.server is a small HTTP server of its own. The server keeps the headers of every
 * request workers send it and answers with fabricated figures ({@link #FABRICATED_TOTAL} dead letters).
 */
final class ForgedPeer implements AutoCloseable {

    static final long FABRICATED_TOTAL = 100_000;

    private final HttpServer server;
    private final KafkaStreams streams;
    private final Path stateDir;
    private final List<Map<String, List<String>>> requests = new CopyOnWriteArrayList<>();

    private ForgedPeer(LocalKafka kafka, String applicationId, MonitoredTopics topics, String fabricatedTopic)
            throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> answer(exchange, fabricatedTopic));
        server.start();
        stateDir = Files.createTempDirectory("forged-peer-");
        Properties props = new Properties();
        props.putAll(kafka.clientProps());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + server.getAddress().getPort());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put("session.timeout.ms", 6000);
        props.put("heartbeat.interval.ms", 2000);
        streams = new KafkaStreams(MonitorTopology.build(topics, new MonitorTopology.Limits(10, false, 0, 100),
                () -> topics), props);
        streams.start();
    }

    /** Joins the aggregation {@code applicationId} reading {@code topics}; fabricates figures of one topic. */
    static ForgedPeer join(LocalKafka kafka, String applicationId, MonitoredTopics topics, String fabricatedTopic)
            throws IOException {
        return new ForgedPeer(kafka, applicationId, topics, fabricatedTopic);
    }

    /** The headers of every request a worker sent to the forged address. */
    List<Map<String, List<String>>> requests() {
        return requests;
    }

    private void answer(HttpExchange exchange, String fabricatedTopic) throws IOException {
        requests.add(new TreeMap<>(exchange.getRequestHeaders()));
        PartitionFigures fabricated = new PartitionFigures();
        String query = exchange.getRequestURI().getQuery() == null ? "" : exchange.getRequestURI().getQuery();
        for (String param : query.split("&")) {
            if (param.startsWith("partitions=")) {
                for (String partition : param.substring("partitions=".length()).split("%2C|,")) {
                    fabricated.partitions().add(Integer.parseInt(partition));
                }
            }
        }
        TopicStats stats = new TopicStats();
        DeadLetterRecord letter = DeadLetterRecord.parse(fabricatedTopic, 0, 0, System.currentTimeMillis(), null,
                null, new RecordHeaders(), null, false, 0);
        for (long i = 0; i < FABRICATED_TOTAL; i++) {
            stats.add(letter);
        }
        fabricated.addStats(fabricatedTopic, stats);
        byte[] body = Codec.encode(fabricated, PartitionFigures::write);
        exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        try {
            streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                    .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        } finally {
            server.stop(0);
            stateDir.toFile().deleteOnExit();
        }
    }
}
