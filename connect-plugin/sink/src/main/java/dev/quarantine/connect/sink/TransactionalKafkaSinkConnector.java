package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.cluster.TargetClusterChecks;
import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.ownership.ClaimHolders;
import dev.quarantine.connect.sink.ownership.LeftOpenCompletion;
import dev.quarantine.connect.sink.progress.OffsetsChange;
import dev.quarantine.connect.sink.progress.ProgressReset;
import dev.quarantine.connect.sink.progress.ProgressTopic;
import dev.quarantine.connect.sink.progress.SourceTopics;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.PluginVersion;
import dev.quarantine.txn.progress.CompactedTopicReader;

/**
 * An exactly-once Kafka-to-Kafka sink: each batch of a source partition is written to the target cluster in one
 * transaction, together with the dead letters of records the target would reject and the partition's progress.
 * Settings: {@link TransactionalSinkConfig}.
 */
public class TransactionalKafkaSinkConnector extends SinkConnector {

    private static final Duration VALIDATE_TIMEOUT = Duration.ofSeconds(15);
    /** For the offsets API's look-ups on the source cluster: well within Connect's 90 s for the whole request. */
    private static final Duration OFFSETS_TIMEOUT = Duration.ofSeconds(15);

    private final Consumer<TransactionalSinkConfig> progressTopic;
    private Map<String, String> props;

    public TransactionalKafkaSinkConnector() {
        this(ProgressTopic::createIfMissing);
    }

    /** For tests: {@code progressTopic} stands in for creating the progress topic on the target cluster. */
    TransactionalKafkaSinkConnector(Consumer<TransactionalSinkConfig> progressTopic) {
        this.progressTopic = progressTopic;
    }

    @Override
    public String version() {
        return PluginVersion.of(TransactionalKafkaSinkConnector.class);
    }

    /**
     * Checks the settings (and that the worker's consumer reads committed source records only) and creates the
     * progress topic on the target cluster if it is missing.
     */
    @Override
    public void start(Map<String, String> props) {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props);
        ConfigRules.sourceIsolationProblem(props).ifPresent(problem -> {
            throw new ConfigException("Invalid value for " + ConfigRules.SOURCE_ISOLATION_OVERRIDE + ": " + problem);
        });
        progressTopic.accept(config);
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return TransactionalKafkaSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int task = 0; task < maxTasks; task++) {
            Map<String, String> config = new HashMap<>(props);
            config.put(TransactionalSinkConfig.TASK_ID_CONFIG, String.valueOf(task));
            configs.add(config);
        }
        return configs;
    }

    @Override
    public void stop() {
        props = null;
    }

    /**
     * Connect's offsets API (KIP-875, {@code PATCH} and {@code DELETE /connectors/{name}/offsets}, only while the
     * connector is STOPPED): the tasks resume from the progress records, not from Connect's consumer group, so the
     * change is written there (see {@link ProgressReset}) before Connect changes its group. The source topics' ids and
     * the group's partitions (which tell a DELETE, see {@link OffsetsChange}) are read on the source cluster.
     */
    @Override
    public boolean alterOffsets(Map<String, String> connectorConfig, Map<TopicPartition, Long> offsets) {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(connectorConfig);
        try (Admin source = Admin.create(config.sourceAdminConfigs());
             Admin target = Admin.create(config.adminConfigs());
             Admin fencing = Admin.create(TaskSlots.adminOfProducer(config));
             CompactedTopicReader claims = new CompactedTopicReader(config.adminConfigs(), target)) {
            SourceTopics topics = new SourceTopics(() -> source, config.sourceOffsetReset(), OFFSETS_TIMEOUT,
                    config.unnamedSourceGroup());
            OffsetsChange change = OffsetsChange.of(offsets, topics.committedBy(config.sourceGroupId()));
            // a zombie task of the stopped connector still holding a partition: fenced before the change
            fenceHolders(config, claims, fencing, offsets.keySet(), change);
            // what a task's id left open on the progress partition would hold the change's read back (waits for
            // the fence's own aborts to end first)
            new LeftOpenCompletion(target, config.transactionalIdPrefix(), config.progressTopic(),
                    id -> WriterFactory.completionProducer(config, id)).complete(0, config.progressReadTimeout());
            new ProgressReset(config).apply(offsets, topics.ids(SourceTopics.topicsOf(offsets.keySet())), change);
        }
        return true;
    }

    /**
     * Fences the task ids holding claims of the changed partitions (a zombie of the stopped connector re-reads the
     * change), their last transactions described first and what an aborted one left hanging aborted after, as a task
     * does around its own init ({@link HangingTransactions}): the fence would otherwise hide that last transaction
     * from the task's next init, whose commit marker would then commit the hanging records.
     */
    private static void fenceHolders(TransactionalSinkConfig config, CompactedTopicReader claims, Admin fencing,
                                     Set<TopicPartition> changed, OffsetsChange change) {
        Set<String> holders = ClaimHolders.of(claims, config.progressTopic(), config.transactionalIdPrefix(),
                partition -> change == OffsetsChange.RESET_ALL || changed.contains(partition),
                config.progressReadTimeout());
        if (holders.isEmpty()) {
            return;
        }
        try (ClusterAdmins admins = new ClusterAdmins(config.adminConfigs(), config.sourceAdminConfigs())) {
            HangingTransactions hanging = new HangingTransactions(admins, config.progressReadTimeout(),
                    config.progressTopic());
            hanging.describeLastTransactions(holders).failed().values().stream().findFirst().ifPresent(failure -> {
                throw failure;
            });
            ClaimHolders.fence(fencing, holders, config.progressReadTimeout());
            Set<String> topics = new TreeSet<>();
            changed.forEach(partition -> topics.add(config.topicFormat().targetTopic(partition.topic())));
            config.dlqTopic().ifPresent(topics::add);
            topics.add(config.progressTopic());
            holders.forEach(id -> {
                hanging.abortBeforeWriting(id, topics);
                hanging.forget(id);
            });
        }
    }

    @Override
    public ConfigDef config() {
        return TransactionalSinkConfig.configDef();
    }

    /** Each setting's own validator, then the rules between settings and against the clusters, on their keys. */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config config = super.validate(connectorConfigs);
        boolean singleSettingsValid = config.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
        if (!singleSettingsValid) {
            return config;
        }
        TransactionalSinkConfig parsed = new TransactionalSinkConfig(connectorConfigs);
        Map<String, List<String>> problems = new HashMap<>(ConfigRules.problemsOfANewConfig(parsed));
        if (problems.isEmpty()) {
            new TargetClusterChecks(VALIDATE_TIMEOUT).problems(parsed, connectorConfigs)
                    .forEach((key, messages) -> problems.computeIfAbsent(key, k -> new ArrayList<>()).addAll(messages));
        }
        ConfigRules.sourceIsolationProblem(connectorConfigs)
                .ifPresent(m -> ConfigRules.add(problems, ConfigRules.SOURCE_ISOLATION_OVERRIDE, m));
        List<ConfigValue> values = new ArrayList<>(config.configValues());
        for (ConfigValue value : values) {
            List<String> messages = problems.remove(value.name());
            if (messages != null) {
                messages.forEach(value::addErrorMessage);
            }
        }
        // problems of settings outside the ConfigDef (target.producer.*, consumer.override.*) on their own keys
        problems.forEach((key, messages) -> {
            ConfigValue value = new ConfigValue(key, connectorConfigs.get(key), List.of(), new ArrayList<>());
            messages.forEach(value::addErrorMessage);
            values.add(value);
        });
        return new Config(values);
    }
}
