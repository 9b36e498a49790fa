package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayListener;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * What {@code GET /dead-letters/{topic}/replays/{id}} answers while a replay started from the monitor runs, on a real
 * broker: its connector is created through a worker whose group then rebalances (as Connect's does right after a
 * connector is created, {@link RebalancingWorker}), and the replay's task is the engine run here on the config the
 * monitor created, as Connect would run it. Every answer is what is known, never an error: STARTING until the first
 * progress is committed, then the last committed progress (also while another writer holds a transaction open on
 * the progress topic), then DONE.
 */
@ExtendWith(LocalKafkaExtension.class)
class RunningReplayProgressIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int DEAD_LETTERS = 6;

    @Test
    void aReplayIsAnsweredStartingThenRunningThenDoneWhileTheWorkersGroupRebalances(LocalKafka kafka)
            throws Exception {
        String dlq = "running-" + Long.toHexString(System.nanoTime()) + "-dlq";
        String destination = dlq + "-replayed";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(destination, 1, Map.of());
        InProcessMonitor.produceDeadLetters(kafka, dlq, DEAD_LETTERS);
        try (RebalancingWorker worker = new RebalancingWorker(); Replays replays = replays(worker, kafka)) {
            String id = replays.start(dlq, Map.of(ReplayConfig.DESTINATION_CONFIG, destination,
                    ReplayConfig.BATCH_SIZE_CONFIG, "2"), Optional.empty(), Optional.empty()).id();

            assertThat(replays.progress(dlq, id, Optional.empty())).as("before the task committed anything")
                    .containsEntry("state", "STARTING");

            try (ReplayEngine task = new ReplayEngine(new ReplayConfig(worker.created(id)), ReplayEngine.Mode.WRITE,
                    ReplayListener.NONE)) {
                task.start();
                assertThat(replays.progress(dlq, id, Optional.empty())).as("after the first progress")
                        .containsEntry("state", "RUNNING").containsEntry("offsetsRead", 0L);

                try (KafkaProducer<byte[], byte[]> holder = progressTopicHolder(kafka, dlq)) {
                    ReplayProgress progress = task.progress();
                    while (!progress.finished()) {
                        progress = task.step();
                    }
                    assertThat(replays.progress(dlq, id, Optional.empty()))
                            .as("the last progress committed before another writer's open transaction")
                            .containsEntry("state", "RUNNING");
                    holder.abortTransaction();
                }
            }
            Map<String, Object> done = Await.value("replay " + id + " DONE", TIMEOUT, () -> {
                Map<String, Object> answer = replays.progress(dlq, id, Optional.empty());
                return "DONE".equals(answer.get("state")) ? answer : null;
            });
            assertThat(done.get("counts")).asInstanceOf(InstanceOfAssertFactories.map(String.class, Object.class))
                    .containsEntry("replayed", (long) DEAD_LETTERS);
        }
    }

    private static Replays replays(RebalancingWorker worker, LocalKafka kafka) {
        MonitorConfig config = new MonitorConfig(Map.of());
        return new Replays(new WorkerRestClient(worker.url(), TIMEOUT),
                Map.of(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), TIMEOUT,
                ReplayDestinations.of(config, Map.of(), "running-dead-letter-monitor"), TIMEOUT, new DryRunSlots(1));
    }

    /** Another writer's transaction left open on the replays' progress topic; closing the producer aborts it. */
    private static KafkaProducer<byte[], byte[]> progressTopicHolder(LocalKafka kafka, String name) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, name + "-progress-holder");
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer());
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(ReplayConfig.PROGRESS_TOPIC_DEFAULT,
                (name + "-holder").getBytes(StandardCharsets.UTF_8), null));
        producer.flush();
        return producer;
    }
}
