package dev.quarantine.connect.sink.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The timeouts that must agree with each other, written once ({@link ConfigRules#problems} reports them on their
 * keys, naming every setting involved).
 */
final class TimeoutRules {

    static final String MAX_POLL_INTERVAL_OVERRIDE = ConfigRules.CONSUMER_OVERRIDE_PREFIX
            + ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG;
    /** The bound of an admin call of the target cluster's admin client, a fence among them. */
    static final String ADMIN_API_TIMEOUT = TransactionalSinkConfig.TARGET_ADMIN_PREFIX
            + AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG;
    private static final String MAX_BLOCK = TransactionalSinkConfig.TARGET_PRODUCER_PREFIX
            + ProducerConfig.MAX_BLOCK_MS_CONFIG;

    private TimeoutRules() {
    }

    /**
     * Timeouts that must agree with each other (the commit interval's rule is {@link #commitIntervalProblem}):
     * <ul>
     * <li>a put that opens a partition waits for its producer's initTransactions (at most
     *     {@code target.producer.max.block.ms}) and then reads its progress (at most {@code progress.read.timeout.ms});
     *     both must end before the worker's consumer is dropped from its group
     *     ({@code consumer.override.max.poll.interval.ms}, Kafka's default when not set here);</li>
     * <li>the same for a fence: {@link #fenceProblems}, checked on create and update only;</li>
     * <li>an open that fails transiently is retried until {@code transient.errors.timeout.ms}, which must outlast
     *     {@code target.producer.transaction.timeout.ms}: the longest a transaction of another task of the connector
     *     can hold a progress read back before the broker aborts it;</li>
     * <li>one transaction attempt may wait {@link #attemptWaitMs}, which must end before the worker's consumer is
     *     dropped from its group too (a put always makes one).</li>
     * </ul>
     */
    static Map<String, List<String>> timeoutProblems(TransactionalSinkConfig config) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        OptionalLong blockMs = maxBlockMs(config);
        OptionalLong pollMs = maxPollIntervalMs(config);
        if (blockMs.isPresent() && pollMs.isPresent()) {
            String read = TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG;
            stageProblem(read, config.progressReadTimeout().toMillis(), "the progress read after initTransactions",
                    blockMs.getAsLong(), pollMs.getAsLong()).ifPresent(m -> ConfigRules.add(problems, read, m));
        }
        long attemptMs = attemptWaitMs(config);
        if (pollMs.isPresent() && attemptMs >= pollMs.getAsLong()) {
            ConfigRules.add(problems, MAX_BLOCK, "is " + blockMs.orElse(DEFAULT_MAX_BLOCK_MS) + ": one transaction"
                    + " attempt can wait four times as long (a send, the wait for its acknowledgements, the commit and"
                    + " the abort) plus " + ConfigRules.AFTER_ABORT_BOUND.toMillis() + " ms (the look after the abort"
                    + " whether the commits before it still read visible) plus " + ConfigRules.PREPARE_BOUND.toMillis()
                    + " ms (readying the topics it writes), " + attemptMs + " ms, not below "
                    + MAX_POLL_INTERVAL_OVERRIDE + "=" + pollMs.getAsLong() + ", and the worker's consumer would be"
                    + " dropped from its group; lower " + MAX_BLOCK + ", or raise " + MAX_POLL_INTERVAL_OVERRIDE);
        }
        transientErrorsProblem(config).ifPresent(m -> ConfigRules.add(problems,
                TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG, m));
        return problems;
    }

    /**
     * The fence's bound (docs/design/sink-ownership.md 2.4): a stage of an open is started only when its bound fits the
     * put's budget, the poll interval less {@code target.producer.max.block.ms}, and an admin call such as
     * {@code Admin.fenceProducers} is bounded by {@code target.admin.default.api.timeout.ms}. Checked only where a user
     * creates or changes a connector ({@code validate}), never when an existing one starts: no fence runs yet (the
     * ownership of issue 23 is not wired), and a connector running on a config the previous version accepted must not
     * fail after an upgrade (a lowered poll interval with the admin client's default 60 s would).
     */
    static Map<String, List<String>> fenceProblems(TransactionalSinkConfig config) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        OptionalLong blockMs = maxBlockMs(config);
        OptionalLong pollMs = maxPollIntervalMs(config);
        OptionalLong fenceMs = longSetting(config, ADMIN_API_TIMEOUT, AdminClientConfig.configDef(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        if (blockMs.isPresent() && pollMs.isPresent() && fenceMs.isPresent()) {
            stageProblem(ADMIN_API_TIMEOUT, fenceMs.getAsLong(), "a fence of the ids that held a partition given"
                    + " to the task (Admin.fenceProducers)", blockMs.getAsLong(), pollMs.getAsLong())
                    .ifPresent(m -> ConfigRules.add(problems, ADMIN_API_TIMEOUT, m));
        }
        return problems;
    }

    private static OptionalLong maxBlockMs(TransactionalSinkConfig config) {
        return longSetting(config, MAX_BLOCK, ProducerConfig.configDef(), ProducerConfig.MAX_BLOCK_MS_CONFIG);
    }

    private static OptionalLong maxPollIntervalMs(TransactionalSinkConfig config) {
        return longSetting(config, MAX_POLL_INTERVAL_OVERRIDE, ConsumerConfig.configDef(),
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG);
    }

    /**
     * A stage of a put that opens partitions, bounded by {@code key}={@code stageMs}, that with
     * {@code target.producer.max.block.ms} (a commit in the same put) does not end before the poll interval does.
     */
    private static Optional<String> stageProblem(String key, long stageMs, String stage, long blockMs, long pollMs) {
        if (stageMs + blockMs < pollMs) {
            return Optional.empty();
        }
        return Optional.of("is " + stageMs + ": it bounds " + stage + ", and with " + MAX_BLOCK + "=" + blockMs
                + " a put that opens a partition can take " + (stageMs + blockMs) + " ms, not below "
                + MAX_POLL_INTERVAL_OVERRIDE + "=" + pollMs + ", and the worker's consumer would be dropped from its"
                + " group; lower " + key + " or " + MAX_BLOCK + ", or raise " + MAX_POLL_INTERVAL_OVERRIDE);
    }

    private static Optional<String> transientErrorsProblem(TransactionalSinkConfig config) {
        String transactionTimeout = TransactionalSinkConfig.TARGET_PRODUCER_PREFIX
                + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG;
        OptionalLong timeoutMs = longSetting(config, transactionTimeout, ProducerConfig.configDef(),
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        long transientMs = config.transientErrorsTimeout().toMillis();
        if (timeoutMs.isEmpty() || transientMs > timeoutMs.getAsLong()) {
            return Optional.empty();
        }
        return Optional.of("is " + transientMs + ", not above " + transactionTimeout + "=" + timeoutMs.getAsLong()
                + ": a transaction of another task can hold the progress read of a partition being opened back that"
                + " long before the broker aborts it, and the task would fail first; raise "
                + TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG + " above " + timeoutMs.getAsLong()
                + " or lower " + transactionTimeout);
    }

    /**
     * How long one put may go on starting transaction attempts (the retries of a write): the worker consumer's
     * {@code max.poll.interval.ms} less what the attempt started last may still wait ({@link #attemptWaitMs}), at
     * least 0 (one attempt). Settings that do not parse (reported on their keys) count as the clients' defaults.
     */
    static Duration writeBound(TransactionalSinkConfig config) {
        long pollMs = longSetting(config, MAX_POLL_INTERVAL_OVERRIDE, ConsumerConfig.configDef(),
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG).orElse(DEFAULT_MAX_POLL_INTERVAL_MS);
        return Duration.ofMillis(Math.max(0, pollMs - attemptWaitMs(config)));
    }

    /**
     * What one transaction attempt of a slot may wait for the target cluster: four times
     * {@code target.producer.max.block.ms} (a send waiting for metadata or buffer memory, the wait for the
     * acknowledgements before the progress records are sent, the commit and the abort) and, after an abort of the
     * slot's own, the look whether the commits behind its partitions' progress still read visible, which waits for the
     * abort's markers up to {@link ConfigRules#AFTER_ABORT_BOUND} before the slot re-initialises instead (rule V (c),
     * docs/design/sink-ownership.md 2.7.1). Not counted, so an attempt can wait longer: the flush before the wait for
     * the acknowledgements (each send is bounded by {@code target.producer.delivery.timeout.ms}, not by
     * {@code max.block.ms}); after an own abort, the repair of what that abort left open before the look (its admin
     * calls, each bounded by the task's fixed admin timeout, not by a setting); and the look started last before
     * that bound, which may run its own bound, {@code progress.read.timeout.ms}.
     */
    static long attemptWaitMs(TransactionalSinkConfig config) {
        long blockMs = longSetting(config, TransactionalSinkConfig.TARGET_PRODUCER_PREFIX
                + ProducerConfig.MAX_BLOCK_MS_CONFIG, ProducerConfig.configDef(), ProducerConfig.MAX_BLOCK_MS_CONFIG)
                .orElse(DEFAULT_MAX_BLOCK_MS);
        return 4 * blockMs + ConfigRules.AFTER_ABORT_BOUND.toMillis() + ConfigRules.PREPARE_BOUND.toMillis();
    }

    /**
     * The client settings that bound the stages of a put that opens partitions (docs/design/sink-ownership.md 2.4):
     * {@code consumer.override.max.poll.interval.ms}, {@code target.producer.max.block.ms},
     * {@code target.admin.default.api.timeout.ms} and {@code consumer.override.session.timeout.ms}, each as set or the
     * client's default; a setting that does not parse (reported on its key) counts as the default.
     */
    static Duration clientTimeout(TransactionalSinkConfig config, ClientTimeout which) {
        OptionalLong ms = switch (which) {
            case MAX_POLL_INTERVAL -> maxPollIntervalMs(config);
            case MAX_BLOCK -> maxBlockMs(config);
            case ADMIN_API -> longSetting(config, ADMIN_API_TIMEOUT, AdminClientConfig.configDef(),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
            case SESSION -> longSetting(config, ConfigRules.CONSUMER_OVERRIDE_PREFIX
                    + ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ConsumerConfig.configDef(),
                    ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
            case TRANSACTION -> longSetting(config, TransactionalSinkConfig.TARGET_PRODUCER_PREFIX
                    + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, ProducerConfig.configDef(),
                    ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        };
        return Duration.ofMillis(ms.orElse(which.fallbackMs));
    }

    /** The settings {@link #clientTimeout} reads, with the clients' defaults. */
    enum ClientTimeout {
        MAX_POLL_INTERVAL(DEFAULT_MAX_POLL_INTERVAL_MS), MAX_BLOCK(DEFAULT_MAX_BLOCK_MS), ADMIN_API(60_000),
        SESSION(45_000), TRANSACTION(60_000);

        private final long fallbackMs;

        ClientTimeout(long fallbackMs) {
            this.fallbackMs = fallbackMs;
        }
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
     * Whether a task begins each transaction ahead of its commit trigger, sending records as the puts deliver them
     * ({@code TaskWriter#sendAhead}): when {@code commit.interval.ms} is above 0 (at 0 every put is its own trigger)
     * and at most half of {@code target.producer.transaction.timeout.ms}, so a transaction begun at the first record
     * of an interval ends well inside the timeout.
     */
    static boolean sendsAhead(TransactionalSinkConfig config) {
        long intervalMs = config.commitTrigger().interval().toMillis();
        return intervalMs > 0 && 2 * intervalMs <= clientTimeout(config, ClientTimeout.TRANSACTION).toMillis();
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

}
