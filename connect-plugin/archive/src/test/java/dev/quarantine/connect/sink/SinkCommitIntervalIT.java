package dev.quarantine.connect.sink;

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
 * On a real worker whose idle polls block until its next offset flush (offset.flush.interval.ms, 10 minutes here,
 * 60 s by default), the records a task collects are written once commit.interval.ms has passed: the task asks the
 * worker back (SinkTaskContext.timeout), and the worker's next poll returns, without records, in time to put them.
 */
class SinkCommitIntervalIT {

    /** Far below the 10 minutes an idle poll would block without the task's timeout. */
    private static final Duration WELL_BEFORE_THE_NEXT_FLUSH = Duration.ofSeconds(120);

    @RegisterExtension
    static final LocalCluster cluster = LocalCluster.sharedBroker().withWorkers(1,
            kafka -> FaultSuite.worker(kafka, Map.of("offset.flush.interval.ms", "600000")));

    @Test
    void writesTheRecordsOfTheLastPollOnceTheIntervalHasPassedWhileTheWorkersPollsAreIdle() {
        LocalKafka kafka = cluster.kafka();
        LocalConnect worker = cluster.worker();
        FaultSuite.Topics topics = FaultSuite.Topics.create(kafka, "interval");
        worker.createConnector(topics.name(), connectorConfig(kafka, topics, "commit.interval.ms", "1000"));
        worker.awaitRunning(topics.name(), 2, Duration.ofSeconds(90));

        produce(kafka, topics.source(), 0, 30, i -> value("id=" + i));

        try (TopicReader target = TopicReader.open(kafka, List.of(topics.target()));
             TopicReader dlq = TopicReader.open(kafka, List.of(topics.dlq()))) {
            target.awaitAtLeast(30, WELL_BEFORE_THE_NEXT_FLUSH);
            assertExactlyOnce(target.drain(Duration.ofSeconds(2)), dlq.drain(Duration.ZERO),
                    IntStream.range(0, 30).boxed().collect(Collectors.toSet()), Set.of());
        }
        worker.deleteConnector(topics.name());
    }
}
