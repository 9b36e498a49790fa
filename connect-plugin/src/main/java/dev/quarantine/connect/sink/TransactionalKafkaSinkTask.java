package dev.quarantine.connect.sink;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * The task of {@link TransactionalKafkaSinkConnector}: parses its config, builds its collaborators and hands every
 * call to {@link SinkTaskHandler}.
 */
public class TransactionalKafkaSinkTask extends SinkTask {

    private SinkTaskHandler handler;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props);
        ProgressStore progress = new ProgressStore(config.adminConfigs(), config.progressTopic(),
                config.legacyProgressTopic(), config.progressReadTimeout());
        TargetTopics targetTopics = new TargetTopics(config.topicFormat(), config.targetTopicSettings(),
                new ClusterAdmins(config.adminConfigs(), config.sourceAdminConfigs()), TargetTopics.ADMIN_TIMEOUT);
        Optional<DeadLetters> deadLetters = config.tolerance() == TransactionalSinkConfig.Tolerance.ALL
                ? Optional.of(new DeadLetters(config.dlqTopic().orElseThrow(), config.dlqPayloadMaxBytes(),
                        config.dlqContextHeaders(), config.connectorName(), config.taskId()))
                : Optional.empty();
        RecordConverter converter = new RecordConverter(config.topicFormat(), targetTopics, config.keyConverter(),
                config.valueConverter(), config.headerConverter());
        SinkMetrics metrics = new SinkMetrics(context.pluginMetrics());
        handler = new SinkTaskHandler(context,
                new WriterFactory(config, converter, deadLetters, metrics, progress), progress, targetTopics);
    }

    @Override
    public void open(Collection<TopicPartition> partitions) {
        handler.open(partitions);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        handler.put(records);
    }

    /** Everything is committed in put(); the worker's offsets follow the committed progress. */
    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        return handler.preCommit();
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        handler.close(partitions);
    }

    @Override
    public void stop() {
        if (handler != null) {
            handler.close();
        }
    }
}
