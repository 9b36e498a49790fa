package dev.quarantine.replay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the latest committed progress of a replay by its id, while it runs or after: what the monitor's
 * {@code GET /dead-letters/{topic}/replays/{id}} and the replay itself (when it resumes) read.
 *
 * <p>Reads the whole progress topic read_committed (it is compacted: one record per replay, plus the recent ones).
 * A read_committed reader stops at the first transaction still open on a partition, whichever replay it belongs to;
 * {@link #latest} answers at once from what lies before it. Not thread-safe; one reader per thread, closed by its
 * owner.
 */
public final class ReplayProgressReader implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Admin admin;
    private final String topic;
    private final Duration timeout;

    /**
     * @param clientConfigs consumer settings (at least {@code bootstrap.servers}); isolation, group and
     *                      deserializers are set here
     * @param progressTopic {@code replay.progress.topic.name}
     * @param timeout       how long one {@link #latest} may take
     */
    public ReplayProgressReader(Map<String, Object> clientConfigs, String progressTopic, Duration timeout) {
        Map<String, Object> configs = new HashMap<>(ReplayClients.known(clientConfigs, ConsumerConfig.configNames()));
        configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        configs.put(ConsumerConfig.CLIENT_ID_CONFIG, "quarantine-replay-progress-" + UUID.randomUUID());
        configs.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(configs, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.admin = Admin.create(ReplayClients.known(clientConfigs, AdminClientConfig.configNames()));
        this.topic = progressTopic;
        this.timeout = timeout;
    }

    /**
     * The latest progress of {@code replayId} committed before any transaction still open on the progress topic:
     * what can be read now, without waiting. It may lag behind (never run ahead of) a progress committed after a
     * transaction that another replay has left open; such a transaction ends within its {@code transaction.timeout.ms}
     * or when that replay restarts. Empty when the replay committed no progress (or the topic does not exist).
     */
    public Optional<ReplayProgress> latest(String replayId) {
        return read(replayId, IsolationLevel.READ_COMMITTED);
    }

    /**
     * The latest committed progress of {@code replayId}, after waiting (up to the timeout) for the transactions open
     * on the progress topic to end: what a replay resumes from, once its own older instance is fenced.
     *
     * @throws TimeoutException when a transaction stays open past the timeout
     */
    Optional<ReplayProgress> awaitLatest(String replayId) {
        return read(replayId, IsolationLevel.READ_UNCOMMITTED);
    }

    /** Reads read_committed up to the end offsets that a reader with {@code upTo} sees now. */
    private Optional<ReplayProgress> read(String replayId, IsolationLevel upTo) {
        Instant deadline = Instant.now().plus(timeout);
        List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        if (partitions.isEmpty()) {
            return Optional.empty();
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = ReplayClients.endOffsets(admin, partitions, upTo, timeout);
        byte[] key = replayId.getBytes(StandardCharsets.UTF_8);
        Optional<ReplayProgress> latest = Optional.empty();
        while (!reached(end)) {
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException("Could not read progress topic " + topic + " up to " + end + " within "
                        + timeout.toMillis() + " ms (" + ReplayConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG + "): a"
                        + " transaction on it is still open");
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (Arrays.equals(key, record.key()) && record.value() != null) {
                    latest = Optional.of(ProgressFormat.read(record.value()));
                }
            }
        }
        return latest;
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    @Override
    public void close() {
        consumer.close();
        admin.close();
    }
}
