package dev.quarantine.connect.sink.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkTask;

import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig.Tolerance;

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
    /**
     * How long a slot, after an abort of its own, looks whether the commits behind its partitions' progress still read
     * visible (waiting for the abort's markers) before it re-initialises instead (rule V (c),
     * docs/design/sink-ownership.md 2.7.1; {@code WrittenRepair.stillVisible}); counted in what one transaction
     * attempt may wait ({@link TimeoutRules#attemptWaitMs}).
     */
    public static final Duration AFTER_ABORT_BOUND = Duration.ofSeconds(5);
    /**
     * How long a transaction attempt readies the topics it writes before its first send
     * ({@code TxnSendProducer.prepareTopics}); what did not answer by then is left to the sends, bounded as before.
     */
    public static final Duration PREPARE_BOUND = Duration.ofSeconds(5);

    private ConfigRules() {
    }

    /**
     * Problems of a config a user creates or changes, beyond {@link #problems}: rules that a connector already running
     * on a config the previous version accepted must not fail on when it starts ({@link TimeoutRules#fenceProblems}).
     */
    public static Map<String, List<String>> problemsOfANewConfig(TransactionalSinkConfig config) {
        Map<String, List<String>> problems = new LinkedHashMap<>(problems(config));
        TimeoutRules.fenceProblems(config).forEach((key, messages) -> messages.forEach(m -> add(problems, key, m)));
        return problems;
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
        TimeoutRules.commitIntervalProblem(config).ifPresent(m -> add(problems,
                TransactionalSinkConfig.COMMIT_INTERVAL_MS_CONFIG, m));
        TimeoutRules.timeoutProblems(config).forEach((key, messages) -> messages.forEach(m -> add(problems, key, m)));
        return problems;
    }

    /**
     * How long one put may go on starting transaction attempts: the rule is {@link TimeoutRules#writeBound}, here
     * for the write path, which knows these rules by this class: an isolation of rejected records (TaskWriter) starts
     * no further transaction past it.
     */
    public static Duration writeBound(TransactionalSinkConfig config) {
        return TimeoutRules.writeBound(config);
    }

    /** Whether a task's transactions begin ahead of the commit trigger: the rule is {@link TimeoutRules#sendsAhead}. */
    public static boolean sendsAhead(TransactionalSinkConfig config) {
        return TimeoutRules.sendsAhead(config);
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
