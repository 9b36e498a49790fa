package dev.quarantine.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;


/**
 * Settings of a replay: one flat map drives {@code bin/quarantine replay} and the replay connector. Every key this
 * class does not define is a client setting ({@code security.protocol}, {@code sasl.*}, ...) handed to the replay's
 * consumer, producer and admin client, each taking the ones it knows.
 */
public final class ReplayConfig extends AbstractConfig {

    // Replay (the documentation of every setting: ReplayConfigDef)
    public static final String BOOTSTRAP_SERVERS_CONFIG = CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG;
    public static final String DLQ_TOPIC_CONFIG = "dlq.topic.name";
    public static final String REPLAY_ID_CONFIG = "replay.id";
    public static final String DESTINATION_CONFIG = "replay.destination";
    public static final String DESTINATION_DEFAULT = Destination.ORIGINAL;
    public static final String BATCH_SIZE_CONFIG = "replay.batch.size";
    public static final int BATCH_SIZE_DEFAULT = 500;
    public static final String PROGRESS_TOPIC_CONFIG = "replay.progress.topic.name";
    public static final String PROGRESS_TOPIC_DEFAULT = "quarantine-replay-progress";
    static final String PROGRESS_TOPIC_PREFIX = PROGRESS_TOPIC_DEFAULT;
    public static final String PROGRESS_READ_TIMEOUT_MS_CONFIG = "replay.progress.read.timeout.ms";
    public static final long PROGRESS_READ_TIMEOUT_MS_DEFAULT = 120_000L;
    public static final String WRITTEN_RANGES_MAX_CONFIG = "replay.written.ranges.max";
    public static final int WRITTEN_RANGES_MAX_DEFAULT = 100_000;

    // Filters
    public static final String FILTER_ERROR_CLASSES_CONFIG = "replay.filter.error.classes";
    public static final String FILTER_ORIGINAL_TOPICS_CONFIG = "replay.filter.original.topics";
    public static final String FILTER_APPS_OR_CONNECTORS_CONFIG = "replay.filter.apps.or.connectors";
    public static final String FILTER_TIME_FROM_CONFIG = "replay.filter.time.from";
    public static final String FILTER_TIME_TO_CONFIG = "replay.filter.time.to";
    public static final String FILTER_OFFSET_RANGES_CONFIG = "replay.filter.offset.ranges";
    public static final String FILTER_OFFSETS_CONFIG = "replay.filter.offsets";
    public static final String UNTIL_OFFSETS_CONFIG = "replay.until.offsets";
    public static final String FORCE_TRUNCATED_CONFIG = "replay.force.truncated";
    public static final boolean FORCE_TRUNCATED_DEFAULT = false;

    // Destinations and repeats
    public static final String DESTINATIONS_ALLOWED_CONFIG = "replay.destinations.allowed";
    public static final String DESTINATIONS_ALLOWED_DEFAULT = "";
    public static final String DESTINATIONS_DENIED_CONFIG = "replay.destinations.denied";
    public static final String DESTINATIONS_DENIED_DEFAULT = "";
    public static final String REPLAY_AGAIN_CONFIG = "replay.again";
    public static final boolean REPLAY_AGAIN_DEFAULT = false;

    // Speed limits
    public static final String MAX_RECORDS_PER_SECOND_CONFIG = "replay.max.records.per.second";
    public static final long MAX_RECORDS_PER_SECOND_DEFAULT = 0L;
    public static final String MAX_BYTES_PER_SECOND_CONFIG = "replay.max.bytes.per.second";
    public static final long MAX_BYTES_PER_SECOND_DEFAULT = 0L;

    // Loop guard
    public static final String MAX_ATTEMPTS_CONFIG = "replay.max.attempts";
    public static final int MAX_ATTEMPTS_DEFAULT = 3;
    public static final String PARKING_TOPIC_CONFIG = "replay.parking.topic.name";
    static final String PARKING_SUFFIX = ".parking";

    /** @throws ConfigException naming the setting, for a bad value or a rule across settings that is broken */
    public ReplayConfig(Map<String, ?> originals) {
        this(originals, true);
    }

    private ReplayConfig(Map<String, ?> originals, boolean checkAcrossFields) {
        super(configDef(), originals, false);
        if (checkAcrossFields) {
            ReplayConfigRules.acrossFields(this).entrySet().stream().findFirst().ifPresent(problem -> {
                throw new ConfigException(problem.getKey(), originals().get(problem.getKey()), problem.getValue());
            });
        }
    }

    /**
     * The broken rules that involve more than one setting (or the DLQ's name, as {@code replay.filter.offsets} does),
     * each by the setting to report it on, as {@code Connector.validate()} wants them; empty when there are none.
     * The constructor throws the first of them.
     *
     * @throws ConfigException for a setting whose own value is invalid ({@link ConfigDef#validate} reports those)
     */
    public static Map<String, String> problemsAcrossFields(Map<String, ?> settings) {
        return ReplayConfigRules.acrossFields(new ReplayConfig(settings, false));
    }

    /** The definition of every replay setting, with documentation ({@link ReplayConfigDef}). */
    public static ConfigDef configDef() {
        return ReplayConfigDef.configDef();
    }

    public String replayId() {
        return getString(REPLAY_ID_CONFIG);
    }

    public String dlqTopic() {
        return getString(DLQ_TOPIC_CONFIG);
    }

    public Destination destination() {
        return Destination.parse(DESTINATION_CONFIG, getString(DESTINATION_CONFIG));
    }

    public String parkingTopic() {
        String topic = getString(PARKING_TOPIC_CONFIG).trim();
        return topic.isEmpty() ? dlqTopic() + PARKING_SUFFIX : topic;
    }

    public String progressTopic() {
        return getString(PROGRESS_TOPIC_CONFIG);
    }

    public int maxAttempts() {
        return getInt(MAX_ATTEMPTS_CONFIG);
    }

    /** {@code replay.written.ranges.max}. */
    public int writtenRangesMax() {
        return getInt(WRITTEN_RANGES_MAX_CONFIG);
    }

    public int batchSize() {
        return getInt(BATCH_SIZE_CONFIG);
    }

    /** {@code replay.max.records.per.second}; empty when it is 0, no limit. */
    public OptionalLong maxRecordsPerSecond() {
        return limit(MAX_RECORDS_PER_SECOND_CONFIG);
    }

    /** {@code replay.max.bytes.per.second}; empty when it is 0, no limit. */
    public OptionalLong maxBytesPerSecond() {
        return limit(MAX_BYTES_PER_SECOND_CONFIG);
    }

    private OptionalLong limit(String key) {
        long limit = getLong(key);
        return limit == 0 ? OptionalLong.empty() : OptionalLong.of(limit);
    }

    /** {@code replay.until.offsets}: per partition, the end of the range (exclusive); empty when not set. */
    public Optional<Map<Integer, Long>> untilOffsets() {
        List<String> until = getList(UNTIL_OFFSETS_CONFIG);
        return until.isEmpty() ? Optional.empty() : Optional.of(UntilOffsets.parse(until));
    }

    public boolean forceTruncated() {
        return getBoolean(FORCE_TRUNCATED_CONFIG);
    }

    /** {@code replay.destinations.allowed}, compiled; empty when it is empty. */
    public Optional<Pattern> destinationsAllowed() {
        String regex = getString(DESTINATIONS_ALLOWED_CONFIG);
        return regex.isEmpty() ? Optional.empty() : Optional.of(Pattern.compile(regex));
    }

    /** {@code replay.destinations.denied}, compiled (empty matches no topic): refused besides the built-in rows. */
    public Pattern destinationsDenied() {
        return Pattern.compile(getString(DESTINATIONS_DENIED_CONFIG));
    }

    public boolean replayAgain() {
        return getBoolean(REPLAY_AGAIN_CONFIG);
    }

    /**
     * The rules that apply only to a replay that writes (not a dry run), by the setting to report each on: a
     * destination chosen by headers ('original', 'source') needs {@code replay.destinations.allowed}. Empty when
     * there are none.
     */
    public Map<String, String> problemsForWriting() {
        return ReplayConfigRules.forWriting(this);
    }

    /** @throws ConfigException naming the setting when {@link #problemsForWriting()} has a problem */
    public void requireWritable() {
        problemsForWriting().entrySet().stream().findFirst().ifPresent(problem -> {
            throw new ConfigException(problem.getKey(), getString(problem.getKey()), problem.getValue());
        });
    }

    public Duration progressReadTimeout() {
        return Duration.ofMillis(getLong(PROGRESS_READ_TIMEOUT_MS_CONFIG));
    }

    /** The filters, parsed. */
    ReplayFilter filter() {
        return new ReplayFilter(Set.copyOf(getList(FILTER_ERROR_CLASSES_CONFIG)),
                Set.copyOf(getList(FILTER_ORIGINAL_TOPICS_CONFIG)),
                Set.copyOf(getList(FILTER_APPS_OR_CONNECTORS_CONFIG)),
                time(FILTER_TIME_FROM_CONFIG), time(FILTER_TIME_TO_CONFIG),
                getList(FILTER_OFFSET_RANGES_CONFIG).stream().map(Positions::range).toList(), offsets());
    }

    /** Every setting this class does not define, for the clients; {@code bootstrap.servers} included. */
    public Map<String, Object> clientConfigs() {
        Map<String, Object> clients = new HashMap<>(originals());
        clients.keySet().removeAll(configDef().names());
        clients.put(BOOTSTRAP_SERVERS_CONFIG, String.join(",", getList(BOOTSTRAP_SERVERS_CONFIG)));
        return clients;
    }

    private Set<Positions.Position> offsets() {
        Set<Positions.Position> positions = new HashSet<>();
        filterOffsets().forEach(text -> positions.add(Positions.position(text, dlqTopic())));
        return positions;
    }

    /** {@code replay.filter.offsets} as given, unparsed. */
    List<String> filterOffsets() {
        return getList(FILTER_OFFSETS_CONFIG);
    }

    /** {@code key} ({@code replay.filter.time.from} or {@code .to}), parsed; empty when it is empty. */
    Optional<Instant> time(String key) {
        String text = getString(key).trim();
        return text.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(text));
    }
}
