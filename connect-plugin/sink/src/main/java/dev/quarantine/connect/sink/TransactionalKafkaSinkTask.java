package dev.quarantine.connect.sink;

import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.HeaderConverter;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.cluster.TargetTopics;
import dev.quarantine.connect.sink.cluster.TopicIds;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.connect.sink.metrics.TaskMetrics;
import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.progress.SourceTopics;
import dev.quarantine.connect.sink.write.DeadLetters;
import dev.quarantine.connect.sink.write.RecordConverter;
import dev.quarantine.connect.sink.write.WriteSetup;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.DeadLetterBreaker;
import dev.quarantine.txn.PluginVersion;

/**
 * The task of {@link TransactionalKafkaSinkConnector}: parses its config, builds its collaborators and hands every
 * call to {@link SinkTaskHandler}.
 */
public class TransactionalKafkaSinkTask extends SinkTask {

    private SinkTaskHandler handler;
    private SinkMetrics metrics;

    @Override
    public String version() {
        return PluginVersion.of(TransactionalKafkaSinkTask.class);
    }

    /**
     * Builds the parts that can fail on bad settings (the converters) first, then the clients: a converter whose
     * configure() throws leaves no admin client or producer behind.
     */
    @Override
    public void start(Map<String, String> props) {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props);
        Converter keyConverter = config.keyConverter();
        Converter valueConverter = config.valueConverter();
        HeaderConverter headerConverter = config.headerConverter();
        Optional<DeadLetters> deadLetters = config.tolerance() == TransactionalSinkConfig.Tolerance.ALL
                ? Optional.of(new DeadLetters(config.dlqTopic().orElseThrow(), config.dlqPayloadMaxBytes(),
                        config.dlqContextHeaders(), config.connectorName(), config.taskId()))
                : Optional.empty();
        metrics = new SinkMetrics(TaskMetrics.of(context, config.connectorName(), config.taskId()));
        ClusterAdmins admins = new ClusterAdmins(config.adminConfigs(), config.sourceAdminConfigs());
        SourceTopics sources = new SourceTopics(admins::source, config.sourceOffsetReset(), TargetTopics.ADMIN_TIMEOUT,
                config.unnamedSourceGroup());
        ProgressStore progress = new ProgressStore(config.adminConfigs(), config.progressTopic(), sources,
                config.progressReadTimeout());
        TopicIds topicIds = new TopicIds(admins::target, config.dlqTopic().stream().toList());
        TargetTopics targetTopics = new TargetTopics(config.topicFormat(), config.targetTopicSettings(), admins,
                TargetTopics.ADMIN_TIMEOUT, topicIds, sources);
        RecordConverter converter = new RecordConverter(config.topicFormat(), targetTopics, keyConverter,
                valueConverter, headerConverter);
        WriteSetup setup = new WriteSetup(converter, deadLetters, metrics,
                new DeadLetterBreaker(config.dlqWindowRecords(), config.dlqMaxRatio()), progress.target(),
                new HangingTransactions(admins, TargetTopics.ADMIN_TIMEOUT,
                        config.progressTopic()), topicIds);
        handler = TaskSlots.handler(context, config, new WriterFactory(config, setup), progress, targetTopics,
                admins, Clock.systemUTC());
    }

    @Override
    public void open(Collection<TopicPartition> partitions) {
        handler.open(partitions);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        handler.put(records);
    }

    /**
     * Only what is committed (records still waiting for their transaction are not), and what Connect's transforms
     * and converters kept from the task: see {@link SinkTaskHandler#preCommit}.
     */
    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        return handler.preCommit(currentOffsets);
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
        if (metrics != null) {
            metrics.close();
        }
    }
}
