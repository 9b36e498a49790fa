package dev.quarantine.connect.sink.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkTask;

import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;
import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig.Tolerance;
import dev.quarantine.connect.sink.write.BatchCommitter;
import dev.quarantine.connect.sink.write.RunningRedo;

/**
 * Rules between settings, written once: {@link TransactionalKafkaSinkConnector#validate} reports them on the
 * offending key, {@link TransactionalSinkConfig#parse} (at start) throws the first as a ConfigException.
 */
public final class ConfigRules {

    /** Connect's per-connector override of the worker consumer's cluster: the source cluster, when given. */
    public static final String CONSUMER_OVERRIDE_PREFIX = "consumer.override.";
    public static final String SOURCE_BOOTSTRAP_OVERRIDE = CONSUMER_OVERRIDE_PREFIX + "bootstrap.servers";
    /** The worker consumer's isolation level for this connector: it must read committed source records only. */
    public static final String SOURCE_ISOLATION_OVERRIDE = CONSUMER_OVERRIDE_PREFIX
            + ConsumerConfig.ISOLATION_LEVEL_CONFIG;
    static final String READ_COMMITTED = IsolationLevel.READ_COMMITTED.toString();

    private ConfigRules() {
    }

    /** Problems that need no cluster, by setting (the target clients' own settings first). */
    public static Map<String, List<String>> problems(TransactionalSinkConfig config) {
        Map<String, List<String>> problems = new LinkedHashMap<>(TargetClientSettings.problems(config.originals()));
        if (config.tolerance() == Tolerance.ALL && config.dlqTopic().isEmpty()) {
            add(problems, TransactionalSinkConfig.DLQ_TOPIC_NAME_CONFIG, "is required with "
                    + TransactionalSinkConfig.SEND_ERRORS_TOLERANCE_CONFIG + "=all: name the dead-letter topic on"
                    + " the target cluster, or set " + TransactionalSinkConfig.SEND_ERRORS_TOLERANCE_CONFIG + "=none");
        }
        if (config.dlqTopic().filter(config.progressTopic()::equals).isPresent()) {
            add(problems, TransactionalSinkConfig.PROGRESS_TOPIC_NAME_CONFIG, "is the dead-letter topic: the"
                    + " progress is written as records of the progress topic, which must not go to the dead-letter"
                    + " topic. Leave " + TransactionalSinkConfig.PROGRESS_TOPIC_NAME_CONFIG + " empty (the connector's"
                    + " own topic) or name another compacted topic");
        }
        payloadLimitProblems(config).forEach((key, messages) -> messages.forEach(m -> add(problems, key, m)));
        commitIntervalProblem(config).ifPresent(m -> add(problems, TransactionalSinkConfig.COMMIT_INTERVAL_MS_CONFIG,
                m));
        timeoutProblems(config).forEach((key, messages) -> messages.forEach(m -> add(problems, key, m)));
        return problems;
    }

    static final String MAX_POLL_INTERVAL_OVERRIDE = CONSUMER_OVERRIDE_PREFIX
            + ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG;
    static final String ADMIN_REQUEST_TIMEOUT = TransactionalSinkConfig.TARGET_ADMIN_PREFIX
            + AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG;

    /**
     * Timeouts that must agree with each other (the commit interval's rule is {@link #commitIntervalProblem}):
     * <ul>
     * <li>a put that opens a partition waits for its producer's initTransactions (at most
     *     {@code target.producer.max.block.ms}) and then reads its progress (at most {@code progress.read.timeout.ms});
     *     both must end before the worker's consumer is dropped from its group
     *     ({@code consumer.override.max.poll.interval.ms}, Kafka's default when not set here);</li>
     * <li>an open that fails transiently is retried until {@code transient.errors.timeout.ms}, which must outlast
     *     {@code target.producer.transaction.timeout.ms}: the longest a transaction of another task of the connector
     *     can hold a progress read back before the broker aborts it;</li>
     * <li>one transaction attempt may wait {@link #attemptWaitMs}, which must end before the worker's consumer is
     *     dropped from its group too (a put always makes one).</li>
     * </ul>
     */
    static Map<String, List<String>> timeoutProblems(TransactionalSinkConfig config) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        String maxBlock = TransactionalSinkConfig.TARGET_PRODUCER_PREFIX + ProducerConfig.MAX_BLOCK_MS_CONFIG;
        String transactionTimeout = TransactionalSinkConfig.TARGET_PRODUCER_PREFIX
                + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG;
        OptionalLong blockMs = longSetting(config, maxBlock, ProducerConfig.configDef(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG);
        OptionalLong pollMs = longSetting(config, MAX_POLL_INTERVAL_OVERRIDE, ConsumerConfig.configDef(),
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG);
        OptionalLong timeoutMs = longSetting(config, transactionTimeout, ProducerConfig.configDef(),
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        long readMs = config.progressReadTimeout().toMillis();
        if (blockMs.isPresent() && pollMs.isPresent() && readMs + blockMs.getAsLong() >= pollMs.getAsLong()) {
            add(problems, TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG, "is " + readMs + ": with "
                    + maxBlock + "=" + blockMs.getAsLong() + " (initTransactions) a put that opens a partition can"
                    + " take " + (readMs + blockMs.getAsLong()) + " ms, not below " + MAX_POLL_INTERVAL_OVERRIDE + "="
                    + pollMs.getAsLong() + ", and the worker's consumer would be dropped from its group; lower "
                    + TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG + " or " + maxBlock + ", or raise "
                    + MAX_POLL_INTERVAL_OVERRIDE);
        }
        long attemptMs = attemptWaitMs(config);
        if (pollMs.isPresent() && attemptMs >= pollMs.getAsLong()) {
            add(problems, maxBlock, "is " + blockMs.orElse(DEFAULT_MAX_BLOCK_MS) + ": one transaction attempt can wait"
                    + " four times as long (a send, the commit, the abort and an intent to redo after it) plus "
                    + ADMIN_REQUEST_TIMEOUT + "=" + ClusterAdmins.requestTimeout(config.adminConfigs()).toMillis()
                    + " (the look before the abort), " + attemptMs + " ms, not below " + MAX_POLL_INTERVAL_OVERRIDE
                    + "=" + pollMs.getAsLong() + ", and the worker's consumer would be dropped from its group; lower "
                    + maxBlock + " or " + ADMIN_REQUEST_TIMEOUT + ", or raise " + MAX_POLL_INTERVAL_OVERRIDE);
        }
        long transientMs = config.transientErrorsTimeout().toMillis();
        if (timeoutMs.isPresent() && transientMs <= timeoutMs.getAsLong()) {
            add(problems, TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG, "is " + transientMs + ", not"
                    + " above " + transactionTimeout + "=" + timeoutMs.getAsLong() + ": a transaction of another task"
                    + " can hold the progress read of a partition being opened back that long before the broker"
                    + " aborts it, and the task would fail first; raise "
                    + TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG + " above " + timeoutMs.getAsLong()
                    + " or lower " + transactionTimeout);
        }
        return problems;
    }

    /**
     * How long one put may go on starting transaction attempts (see {@link BatchCommitter}): the worker consumer's
     * {@code max.poll.interval.ms} less what the attempt started last may still wait ({@link #attemptWaitMs}), at
     * least 0 (one attempt). Settings that do not parse (reported on their keys) count as the clients' defaults.
     */
    public static Duration writeBound(TransactionalSinkConfig config) {
        long pollMs = longSetting(config, MAX_POLL_INTERVAL_OVERRIDE, ConsumerConfig.configDef(),
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG).orElse(DEFAULT_MAX_POLL_INTERVAL_MS);
        return Duration.ofMillis(Math.max(0, pollMs - attemptWaitMs(config)));
    }

    /**
     * The longest one transaction attempt may wait for the target cluster: four times
     * {@code target.producer.max.block.ms} (a send waiting for metadata or buffer memory, the commit, the abort, and
     * the intent to redo committed after it, see {@link RunningRedo}) and, once, {@code target.admin.request.timeout.ms}
     * (the look before the abort and the repair after it share that budget, {@link HangingTransactionCheck#lookBudget}).
     */
    static long attemptWaitMs(TransactionalSinkConfig config) {
        long blockMs = longSetting(config, TransactionalSinkConfig.TARGET_PRODUCER_PREFIX
                + ProducerConfig.MAX_BLOCK_MS_CONFIG, ProducerConfig.configDef(), ProducerConfig.MAX_BLOCK_MS_CONFIG)
                .orElse(DEFAULT_MAX_BLOCK_MS);
        return 4 * blockMs + ClusterAdmins.requestTimeout(config.adminConfigs()).toMillis();
    }

    /** Kafka's consumer default of max.poll.interval.ms and producer default of max.block.ms. */
    private static final long DEFAULT_MAX_POLL_INTERVAL_MS = 300_000;
    private static final long DEFAULT_MAX_BLOCK_MS = 60_000;

    /** A numeric setting, or the client's default when it is not set; empty when it does not parse. */
    private static OptionalLong longSetting(TransactionalSinkConfig config, String key, ConfigDef clientDef,
                                            String clientKey) {
        Object set = config.originals().get(key);
        try {
            return OptionalLong.of(set == null ? ((Number) clientDef.configKeys().get(clientKey).defaultValue)
                    .longValue() : Long.parseLong(String.valueOf(set).trim()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty(); // reported on its own key
        }
    }

    /**
     * A connector whose worker consumer may read records of aborted (or still open) source transactions: Connect's
     * sink consumer is read_uncommitted unless the worker or the connector says otherwise, and a connector cannot see
     * the worker's consumer settings, nor ask its records whether their transaction committed (the markers never
     * reach a sink). So the connector insists on its own override. Checked by the connector (validate, start), not by
     * its tasks: the consumer is Connect's, configured before a task exists.
     */
    public static Optional<String> sourceIsolationProblem(Map<String, String> props) {
        String level = props.get(SOURCE_ISOLATION_OVERRIDE);
        if (level != null && READ_COMMITTED.equals(level.trim())) {
            return Optional.empty();
        }
        return Optional.of("is " + (level == null ? "not set" : level) + ", so the worker's consumer would hand"
                + " this connector records of aborted source transactions (Connect's default is read_uncommitted),"
                + " and they would be committed into the target. Set " + SOURCE_ISOLATION_OVERRIDE + "="
                + READ_COMMITTED + "; the worker's connector.client.config.override.policy must allow it (All, the"
                + " default of Connect 3.9 to 4.4, does)");
    }

    /**
     * A commit.interval.ms at or above the target producers' transaction.timeout.ms (set, or Kafka's default): the
     * records a task collects would wait longer than a transaction may last.
     */
    static Optional<String> commitIntervalProblem(TransactionalSinkConfig config) {
        String key = TransactionalSinkConfig.TARGET_PRODUCER_PREFIX + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG;
        Object set = config.originals().get(key);
        long timeoutMs;
        try {
            timeoutMs = set == null
                    ? ((Number) ProducerConfig.configDef().configKeys().get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)
                            .defaultValue).longValue()
                    : Long.parseLong(String.valueOf(set).trim());
        } catch (NumberFormatException e) {
            return Optional.empty(); // TargetClientSettings reports it on its key
        }
        long intervalMs = config.commitTrigger().interval().toMillis();
        if (intervalMs < timeoutMs) {
            return Optional.empty();
        }
        return Optional.of("is " + intervalMs + ", not below " + key + "=" + timeoutMs + ": collected records"
                + " would wait longer than a transaction may last; set " + TransactionalSinkConfig
                .COMMIT_INTERVAL_MS_CONFIG + " below " + timeoutMs + " or raise " + key);
    }

    /**
     * A dlq.payload.max.bytes set larger than a limit of the target producers (max.request.size, buffer.memory):
     * no dead letter could ever be that large. Only when it is set: its default yields to smaller limits silently.
     */
    static Map<String, List<String>> payloadLimitProblems(TransactionalSinkConfig config) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        if (!config.originals().containsKey(TransactionalSinkConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG)) {
            return problems;
        }
        for (String limit : List.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, ProducerConfig.BUFFER_MEMORY_CONFIG)) {
            String key = TransactionalSinkConfig.TARGET_PRODUCER_PREFIX + limit;
            Object value = config.originals().get(key);
            if (value == null) {
                continue;
            }
            try {
                long bytes = Long.parseLong(String.valueOf(value).trim());
                if (config.dlqPayloadMaxBytes() > bytes) {
                    add(problems, TransactionalSinkConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG, "is "
                            + config.dlqPayloadMaxBytes() + ", larger than " + key + "=" + bytes + ": a dead letter"
                            + " can be at most " + bytes + " bytes; set it to " + bytes + " or less");
                }
            } catch (NumberFormatException e) {
                // TargetClientSettings reports it on its key
            }
        }
        return problems;
    }

    /** A dlq.payload.max.bytes set larger than the dead-letter topic's max.message.bytes. */
    public static Map<String, List<String>> deadLetterTopicLimitProblems(TransactionalSinkConfig config,
            String dlqTopic, OptionalInt maxMessageBytes) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        if (config.originals().containsKey(TransactionalSinkConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG)
                && maxMessageBytes.isPresent() && config.dlqPayloadMaxBytes() > maxMessageBytes.getAsInt()) {
            add(problems, TransactionalSinkConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG, "is " + config.dlqPayloadMaxBytes()
                    + ", larger than the max.message.bytes (" + maxMessageBytes.getAsInt() + ") of the dead-letter"
                    + " topic " + dlqTopic + ": set it to " + maxMessageBytes.getAsInt() + " or less, or raise the"
                    + " topic's max.message.bytes");
        }
        return problems;
    }

    /** The first problem that needs no cluster, as a message naming the setting. */
    static Optional<String> crossFieldProblem(TransactionalSinkConfig config) {
        return problems(config).entrySet().stream().findFirst()
                .map(e -> "Invalid value for " + e.getKey() + ": " + e.getValue().get(0));
    }

    /**
     * Problems of a configuration that would write a topic onto itself, when source and target are (or may be) the
     * same cluster: a target topic or the dead-letter topic equal to a source topic.
     */
    public static Map<String, List<String>> selfCopyProblems(TransactionalSinkConfig config,
            Map<String, String> props) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        List<String> topics = sourceTopics(props);
        Optional<Pattern> regex = sourceRegex(props);
        TopicFormat format = config.topicFormat();
        for (String topic : topics) {
            if (format.targetTopic(topic).equals(topic)) {
                add(problems, TransactionalSinkConfig.TARGET_TOPIC_FORMAT_CONFIG, "would copy topic " + topic
                        + " onto itself on the same cluster: change the format (for example copy." 
                        + TransactionalSinkConfig.TOPIC_PLACEHOLDER + "), or, when the target is another cluster,"
                        + " name the source cluster with " + SOURCE_BOOTSTRAP_OVERRIDE);
            }
        }
        if (regex.isPresent() && format.isIdentity()) {
            add(problems, TransactionalSinkConfig.TARGET_TOPIC_FORMAT_CONFIG, "would copy every topic matching "
                    + SinkTask.TOPICS_REGEX_CONFIG + " onto itself on the same cluster: change the format, or name"
                    + " the source cluster with " + SOURCE_BOOTSTRAP_OVERRIDE);
        }
        config.dlqTopic().ifPresent(dlq -> {
            if (topics.contains(dlq) || regex.map(r -> r.matcher(dlq).matches()).orElse(false)) {
                add(problems, TransactionalSinkConfig.DLQ_TOPIC_NAME_CONFIG, "is also a source topic of this"
                        + " connector on the same cluster: dead letters would be read back");
            }
        });
        return problems;
    }

    public static List<String> sourceTopics(Map<String, String> props) {
        String topics = props.getOrDefault(SinkConnector.TOPICS_CONFIG, "");
        List<String> list = new ArrayList<>();
        Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).forEach(list::add);
        return list;
    }

    private static Optional<Pattern> sourceRegex(Map<String, String> props) {
        String regex = props.getOrDefault(SinkTask.TOPICS_REGEX_CONFIG, "");
        if (regex.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Pattern.compile(regex.trim()));
        } catch (PatternSyntaxException e) {
            return Optional.empty(); // Connect's own validation reports it on topics.regex
        }
    }

    public static void add(Map<String, List<String>> problems, String key, String message) {
        problems.computeIfAbsent(key, k -> new ArrayList<>()).add(message);
    }
}
