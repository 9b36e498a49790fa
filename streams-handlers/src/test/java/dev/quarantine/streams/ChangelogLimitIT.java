package dev.quarantine.streams;

import static dev.quarantine.sandbox.Utf8.text;
import static dev.quarantine.streams.RunningApp.await;
import static dev.quarantine.streams.RunningApp.committed;
import static dev.quarantine.streams.RunningApp.messages;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * An exactly_once_v2 aggregation whose changelog topic rejects the growing aggregate: the app fails cleanly instead
 * of parking a changelog record in the dead-letter topic, and after the setting is raised and local state wiped, the
 * restored state carries on where the committed outputs left off.
 */
@ExtendWith(LocalKafkaExtension.class)
class ChangelogLimitIT {

    private static final String APP = "growing-app";
    private static final String CHANGELOG = APP + "-growing-changelog";
    private static final int KEYS = 5;
    private static final int INPUTS_PER_KEY = 60;
    private static final int ELEMENT_CHARS = 50;

    @TempDir
    Path stateDir;

    @Test
    void failsNamingTheChangelogAndNeverRollsStateBackAfterARestore(LocalKafka kafka) throws Exception {
        kafka.createTopic("growing-input", 1, Map.of());
        kafka.createTopic("growing-output", 1, Map.of());
        kafka.createTopic("growing-dlq", 1, Map.of());
        RunningApp.produce(kafka, "growing-input", inputs());
        Properties props = RunningApp.exactlyOnceProps(kafka, APP, stateDir.resolve("first").toString(),
                "growing-dlq");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");

        RunningApp first = RunningApp.start(topology(), props, StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        Throwable error = first.awaitError();
        first.close();

        assertThat(messages(error)).as("the failure names the changelog and the cause").contains(CHANGELOG)
                .contains("RecordTooLargeException").doesNotContain("NullPointerException");
        assertThat(committed(kafka, "growing-dlq")).as("no changelog record is dead-lettered").isEmpty();
        Map<String, List<Integer>> before = countsByKey(committed(kafka, "growing-output"));
        assertThat(before.values()).allSatisfy(counts -> assertThat(counts).as("counts before the failure")
                .isEqualTo(IntStream.rangeClosed(1, counts.size()).boxed().toList())
                .hasSizeLessThan(INPUTS_PER_KEY));

        raiseChangelogLimit(kafka);
        Files.createDirectories(stateDir.resolve("second"));
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("second").toString());
        RunningApp second = RunningApp.start(topology(), props, StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        await("every input's output committed", () -> committed(kafka, "growing-output").size()
                >= KEYS * INPUTS_PER_KEY);
        second.assertRanWithoutFailures();
        second.close();

        Map<String, List<Integer>> after = countsByKey(committed(kafka, "growing-output"));
        assertThat(after).as("state restored from the changelog, never rolled back").hasSize(KEYS)
                .allSatisfy((key, counts) -> assertThat(counts)
                        .isEqualTo(IntStream.rangeClosed(1, INPUTS_PER_KEY).boxed().toList()));
        assertThat(committed(kafka, "growing-dlq")).isEmpty();
    }

    /** Each input appends 50 characters to its key's aggregate; the output is the aggregate's element count. */
    private static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("growing-input", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(() -> "", (key, value, aggregate) -> aggregate + value,
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("growing")
                                .withKeySerde(Serdes.String()).withValueSerde(Serdes.String())
                                .withLoggingEnabled(Map.of("max.message.bytes", "2000")))
                .toStream()
                .mapValues(aggregate -> String.valueOf(aggregate.length() / ELEMENT_CHARS))
                .to("growing-output", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    private static void raiseChangelogLimit(LocalKafka kafka) throws Exception {
        try (Admin admin = kafka.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, CHANGELOG),
                    List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes", "1000000"),
                            AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static Map<String, List<Integer>> countsByKey(List<ConsumerRecord<byte[], byte[]>> outputs) {
        Map<String, List<Integer>> counts = new TreeMap<>();
        outputs.forEach(r -> counts.computeIfAbsent(text(r.key()), k -> new ArrayList<>())
                .add(Integer.parseInt(text(r.value()))));
        return counts;
    }

    private static List<String[]> inputs() {
        List<String[]> inputs = new ArrayList<>();
        for (int i = 0; i < INPUTS_PER_KEY; i++) {
            for (int k = 0; k < KEYS; k++) {
                inputs.add(new String[] {"key-" + k, String.format("%0" + ELEMENT_CHARS + "d", i)});
            }
        }
        return inputs;
    }
}
