package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.FaultSuite.LANDED;
import static dev.quarantine.connect.sink.FaultSuite.assertExactlyOnce;
import static dev.quarantine.connect.sink.FaultSuite.connectorConfig;
import static dev.quarantine.connect.sink.FaultSuite.produce;
import static dev.quarantine.connect.sink.FaultSuite.value;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.LocalCluster;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * Two Connect workers in one group; one is stopped with SIGSTOP for longer than its session timeout (its tasks and
 * partitions move to the other), then resumed as a zombie: whatever it was writing is fenced, nothing is written
 * twice, and both tasks run again.
 */
class SinkZombieWorkerIT {

    private static final Map<String, String> ONE_GROUP = Map.of(
            "group.id", "zombie-workers",
            "config.storage.topic", "zombie-workers-configs",
            "offset.storage.topic", "zombie-workers-offsets",
            "status.storage.topic", "zombie-workers-status");

    @RegisterExtension
    static final LocalCluster cluster = LocalCluster.ownBroker(Map.of())
            .withWorkers(2, kafka -> FaultSuite.worker(kafka, ONE_GROUP));

    @Test
    void aWorkerStoppedPastItsSessionTimeoutWritesNothingTwiceOnceResumed() {
        LocalKafka kafka = cluster.kafka();
        LocalConnect first = cluster.worker(0);
        LocalConnect second = cluster.worker(1);
        FaultSuite.Topics topics = FaultSuite.Topics.create(kafka, "zombie");
        produce(kafka, topics.source(), 0, 2000, i -> value("id=" + i));
        first.createConnector(topics.name(), connectorConfig(kafka, topics));
        first.awaitRunning(topics.name(), 2, Duration.ofSeconds(90));

        try (TopicReader target = TopicReader.open(kafka, List.of(topics.target()));
             TopicReader dlq = TopicReader.open(kafka, List.of(topics.dlq()))) {
            target.awaitAtLeast(300, LANDED);
            second.pause();
            try {
                produce(kafka, topics.source(), 2000, 4000, i -> value("id=" + i));
                // every partition, the stopped worker's too, is written by the other worker now
                target.awaitAtLeast(4000, LANDED);
            } finally {
                second.resume();
            }
            produce(kafka, topics.source(), 4000, 5000, i -> value("id=" + i));
            target.awaitAtLeast(5000, LANDED);
            first.awaitRunning(topics.name(), 2, Duration.ofSeconds(90));
            assertExactlyOnce(target.drain(Duration.ofSeconds(5)), dlq.drain(Duration.ZERO),
                    IntStream.range(0, 5000).boxed().collect(Collectors.toSet()), Set.of());
        }
        first.deleteConnector(topics.name());
    }
}
