package dev.quarantine.connect.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connect's offsets REST API (KIP-875) for this connector: its tasks resume from the progress records, not from
 * Connect's consumer group, so altering or resetting offsets has to change the progress records. Connect only allows
 * it while the connector is STOPPED, but a zombie task (a worker that lost contact) may still write: so each
 * partition's new progress is written as its owner writes it, by a producer of the partition's transactional id,
 * whose initTransactions fences any earlier one and completes its last transaction first. An altered offset keeps what
 * the last record says besides the offset (the source topic id, the target partition counts); a reset writes a
 * tombstone, so the partition starts as one never written: where Connect's consumer group says (which Connect resets
 * too), or per consumer.override.auto.offset.reset.
 */
final class ProgressReset {

    private static final Logger log = LoggerFactory.getLogger(ProgressReset.class);
    private static final Duration CLOSE = Duration.ofSeconds(5);

    private final TransactionalSinkConfig config;

    ProgressReset(TransactionalSinkConfig config) {
        this.config = config;
    }

    /** Writes the progress of each partition: its new next offset, or, for null, none (a tombstone). */
    void apply(Map<TopicPartition, Long> offsets) {
        if (offsets.isEmpty()) {
            return;
        }
        Map<String, TopicPartition> sources = new LinkedHashMap<>();
        offsets.keySet().forEach(p -> sources.put(WriterFactory.transactionalId(config.transactionalIdPrefix(), p),
                p));
        List<KafkaProducer<byte[], byte[]>> producers = new ArrayList<>();
        try (Admin admin = Admin.create(config.adminConfigs())) {
            Map<String, KafkaProducer<byte[], byte[]>> owners = new HashMap<>();
            for (String id : sources.keySet()) {
                KafkaProducer<byte[], byte[]> producer = producer(id);
                producers.add(producer);
                producer.initTransactions(); // fences a zombie of the partition, completes its last transaction
                owners.put(id, producer);
            }
            ProgressTarget target = new ProgressTarget(config.progressTopic());
            Uuid topicId = admin.describeTopics(List.of(target.topic())).allTopicNames()
                    .get(config.progressReadTimeout().toMillis(), TimeUnit.MILLISECONDS).get(target.topic()).topicId();
            Map<String, ProgressRecord> last;
            try (ProgressLog reader = new ProgressLog(admin, config.adminConfigs(), target)) {
                last = reader.read(sources.keySet(), topicId, sources.values(),
                        Instant.now().plus(config.progressReadTimeout()));
            }
            sources.forEach((id, source) -> write(owners.get(id), target, id, source, offsets.get(source),
                    Optional.ofNullable(last.get(id)), topicId));
        } catch (KafkaException | ExecutionException | TimeoutException e) {
            throw new ConnectException("Could not change the progress of " + offsets.keySet() + " in the progress"
                    + " topic " + config.progressTopic() + " on the target cluster: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while changing the progress", e);
        } finally {
            producers.forEach(p -> p.close(CLOSE));
        }
    }

    private static void write(KafkaProducer<byte[], byte[]> producer, ProgressTarget target, String id,
                              TopicPartition source, Long next, Optional<ProgressRecord> last, Uuid topicId) {
        ProducerRecord<byte[], byte[]> record = next == null
                ? new ProducerRecord<>(target.topic(), target.partition().partition(), ProgressLog.key(id), null)
                : new ProgressRecord(next, topicId, last.flatMap(ProgressRecord::sourceTopicId),
                        last.map(ProgressRecord::targetPartitions).orElse(Map.of()))
                        .toRecord(target.partition(), id, source);
        producer.beginTransaction();
        producer.send(record);
        producer.commitTransaction();
        log.info("{} the progress of {} ({}) through Connect's offsets API", next == null ? "Reset" : "Set to " + next,
                source, id);
    }

    private KafkaProducer<byte[], byte[]> producer(String transactionalId) {
        Map<String, Object> configs = new HashMap<>(config.producerConfigs());
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId + "-offsets");
        configs.keySet().retainAll(ProducerConfig.configNames());
        return new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
