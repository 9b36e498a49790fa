package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;

import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.HoldingProxy;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.Utf8;

/**
 * An exactly_once_v2 app with our supplier and handler whose {@code commitTransaction} times out: a proxy holds the
 * producer's {@code EndTxn} request past its {@code max.block.ms} while the app works through a
 * backlog and more input arrives. The stream thread dies on the producer's pending commit and is replaced; the app
 * goes on and commits every output exactly once, and the thread that died ends. With a producer closed without a
 * timeout (Kafka Streams' own close) the dead thread never ended in one run of seven, and its consumer, still in the
 * group, held up the next rebalance for {@code max.poll.interval.ms} ({@link BoundedCloseClientSupplier}).
 */
class CommitTimeoutIT {

    private static final int BACKLOG = 5_000;
    private static final int LATER = 100;

    @Test
    void anAppWhoseCommitTimedOutGoesOnAndWritesEachOutputOnce(@TempDir Path stateDir) throws Exception {
        try (HoldingProxy proxy = HoldingProxy.listen();
             LocalKafka kafka = proxy.startBroker()) {
            kafka.createTopic("ct-input", 2, Map.of());
            kafka.createTopic("ct-output", 2, Map.of());
            kafka.createTopic("ct-dlq", 1, Map.of());
            List<String[]> backlog = new ArrayList<>();
            for (int i = 0; i < BACKLOG; i++) {
                backlog.add(new String[] {"a", String.valueOf(i)});
            }
            RunningApp.produce(kafka, "ct-input", backlog);
            Properties props = StreamsTestProps.quarantined(kafka, "ct-app", stateDir, "ct-dlq");
            props.put(StreamsConfig.producerPrefix("max.block.ms"), 1000);
            props.put(StreamsConfig.consumerPrefix("max.poll.records"), 5);
            // revived after the commit timed out, the tasks process input, and a send meets the pending commit, before
            // the next commit would (whose sendOffsetsToTransaction meets it too, but buffers nothing)
            props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 3_000);
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream("ct-input", Consumed.with(Serdes.String(), Serdes.String()))
                    .to("ct-output", Produced.with(Serdes.String(), Serdes.String()));
            RunningApp app = RunningApp.start(builder.build(), props, StreamThreadExceptionResponse.REPLACE_THREAD);
            try {
                Await.until("some output", Duration.ofSeconds(60), () -> sum(app, "process-total") > 20);
                proxy.hold(ApiKeys.END_TXN);
                proxy.awaitHeld(Duration.ofSeconds(60));
                List<String[]> later = new ArrayList<>();
                for (int i = BACKLOG; i < BACKLOG + LATER; i++) {
                    later.add(new String[] {"b" + i, String.valueOf(i)});
                }
                RunningApp.produce(kafka, "ct-input", later);
                RunningApp.await("the premise: a stream thread died on the producer's pending commit",
                        () -> !app.uncaught().isEmpty());
                assertThat(RunningApp.messages(app.uncaught().get(0))).contains("commitTransaction", "timed out");
                proxy.release();

                List<String> expected = IntStream.range(0, BACKLOG + LATER).mapToObj(String::valueOf).toList();
                RunningApp.await("every output committed", () -> RunningApp.committed(kafka, "ct-output").size()
                        >= expected.size());
                List<String> outputs = RunningApp.committed(kafka, "ct-output").stream()
                        .map(record -> Utf8.text(record.value())).toList();
                assertThat(outputs).as("each output once").containsExactlyInAnyOrderElementsOf(expected);
                assertThat(RunningApp.committed(kafka, "ct-dlq")).as("nothing dead-lettered").isEmpty();
                Thread.sleep(2_000);
                assertThat(RunningApp.committed(kafka, "ct-output")).as("nothing more later").hasSize(expected.size());
                Await.until("the stream thread that died to end (its producer closed)", Duration.ofSeconds(60),
                        () -> !alive("ct-app-", "-StreamThread-1"));
            } finally {
                app.close();
            }
        }
    }

    /** Whether a thread named {@code prefix...suffix} is alive in this JVM. */
    static boolean alive(String prefix, String suffix) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.getName().startsWith(prefix) && thread.getName().endsWith(suffix));
    }

    private static double sum(RunningApp app, String name) {
        return app.streams().metrics().values().stream().filter(m -> m.metricName().name().equals(name))
                .mapToDouble(m -> ((Number) m.metricValue()).doubleValue()).sum();
    }
}
