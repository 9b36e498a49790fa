package dev.quarantine.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;


/**
 * Settings of a replay: one flat map drives {@code bin/quarantine replay} and the replay connector. Every key this
 * class does not define is a client setting ({@code security.protocol}, {@code sasl.*}, ...) handed to the replay's
 * consumer, producer and admin client, each taking the ones it knows.
 */
public final class ReplayConfig extends AbstractConfig {

    private static final String GROUP_REPLAY = "Replay";
    private static final String GROUP_FILTERS = "Filters";
    private static final String GROUP_GUARD = "Loop guard";
    private static final String GROUP_SAFETY = "Destinations and repeats";
    private static final String GROUP_SPEED = "Speed limits";

    public static final String BOOTSTRAP_SERVERS_CONFIG = CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG;
    public static final String BOOTSTRAP_SERVERS_DOC = "The cluster of the dead-letter topic and the destinations.";

    public static final String DLQ_TOPIC_CONFIG = "dlq.topic.name";
    public static final String DLQ_TOPIC_DOC = "The dead-letter topic to replay, written by our sink connector, our"
            + " Kafka Streams handler or Kafka Connect's own dead-letter queue.";

    public static final String REPLAY_ID_CONFIG = "replay.id";
    public static final String REPLAY_ID_DOC = "Names the replay: the key of its progress record and the base of its"
            + " transactional.id (" + ReplayEngine.TRANSACTIONAL_ID_PREFIX + "<replay.id>). Starting a replay with the"
            + " id of one that was interrupted fences the old instance and resumes from its committed progress; a"
            + " finished id writes nothing more. 1 to 200 of a-z, A-Z, 0-9, '.', '_' and '-'.";

    public static final String DESTINATION_CONFIG = "replay.destination";
    public static final String DESTINATION_DEFAULT = Destination.ORIGINAL;
    public static final String DESTINATION_DOC = "Where each dead letter goes: 'original' (where it was going when it"
            + " failed: __quarantine.target.topic and .partition, else the input topic named by __connect.errors.topic"
            + " or __streams.errors.topic), 'source' (the input topic it was read from), or a topic name.";

    public static final String DESTINATIONS_ALLOWED_CONFIG = "replay.destinations.allowed";
    public static final String DESTINATIONS_ALLOWED_DEFAULT = "";
    public static final String DESTINATIONS_ALLOWED_DOC = "A Java regular expression a destination topic chosen by a"
            + " dead letter's headers (replay.destination 'original' or 'source') must match in full, for example"
            + " 'orders|payments\\..*'. Empty (the default): no destination a header chose is written, only the"
            + " topic replay.destination names; a replay that writes to 'original' or 'source' is refused until"
            + " this is set (a dry run shows where the dead letters would go). Headers are written by whoever may"
            + " write the dead-letter topic, the replay writes as you: allow only the topics those writers may write"
            + " themselves. Internal topics ('__*', '*.internal'), the dead-letter topic, replay progress and parking"
            + " topics ('quarantine-replay-progress', '*.parking') and replay.destinations.denied are refused even"
            + " when matched.";

    public static final String DESTINATIONS_DENIED_CONFIG = "replay.destinations.denied";
    public static final String DESTINATIONS_DENIED_DEFAULT = "";
    public static final String DESTINATIONS_DENIED_DOC = "A Java regular expression of more topics a replay never"
            + " writes, matched in full, even when replay.destinations.allowed or replay.destination names them; a"
            + " dead letter headed there is counted as refused. It adds to what is always refused, which no setting"
            + " removes: Kafka Connect's default config, offset and status topics ("
            + String.join(", ", ReservedTopics.CONNECT_DEFAULT_TOPICS) + "), internal topics ('__*', '*.internal'),"
            + " the dead-letter topic and replay progress and parking topics. Add your workers' own topics when they"
            + " have other names (config.storage.topic, offset.storage.topic, status.storage.topic) and any other"
            + " topic that drives a system. Empty (the default): nothing more.";

    public static final String REPLAY_AGAIN_CONFIG = "replay.again";
    public static final boolean REPLAY_AGAIN_DEFAULT = false;
    public static final String REPLAY_AGAIN_DOC = "Whether to replay dead letters that a finished (DONE or CANCELLED)"
            + " replay of the same dead-letter topic already wrote somewhere (replayed, dead-lettered again or"
            + " parked). Off: they are skipped and counted as already replayed; dead letters the earlier replay"
            + " skipped (filter, truncation, no destination, refused) are not affected.";

    public static final String FILTER_ERROR_CLASSES_CONFIG = "replay.filter.error.classes";
    public static final String FILTER_ERROR_CLASSES_DOC = "Replay only dead letters whose exception class is listed,"
            + " by simple or fully qualified name (RecordTooLargeException). Empty: any.";

    public static final String FILTER_ORIGINAL_TOPICS_CONFIG = "replay.filter.original.topics";
    public static final String FILTER_ORIGINAL_TOPICS_DOC = "Replay only dead letters whose 'original' destination"
            + " topic is listed. Empty: any.";

    public static final String FILTER_APPS_OR_CONNECTORS_CONFIG = "replay.filter.apps.or.connectors";
    public static final String FILTER_APPS_OR_CONNECTORS_DOC = "Replay only dead letters written by a listed Kafka"
            + " Streams application.id (__quarantine.application.id) or connector (__connect.errors.connector.name)."
            + " Empty: any.";

    public static final String FILTER_TIME_FROM_CONFIG = "replay.filter.time.from";
    public static final String FILTER_TIME_FROM_DOC = "Replay only dead letters with a timestamp at or after this"
            + " ISO-8601 instant (2026-12-01T03:00:00Z). The timestamp is the dead letter's: the failed record's"
            + " own for Kafka Connect's, Kafka Streams' and this project's dead letters, the time it was appended"
            + " on a dead-letter topic with message.timestamp.type=LogAppendTime. Empty: no lower bound.";

    public static final String FILTER_TIME_TO_CONFIG = "replay.filter.time.to";
    public static final String FILTER_TIME_TO_DOC = "Replay only dead letters with a timestamp before this ISO-8601"
            + " instant. Empty: no upper bound.";

    public static final String FILTER_OFFSET_RANGES_CONFIG = "replay.filter.offset.ranges";
    public static final String FILTER_OFFSET_RANGES_DOC = "Replay only dead letters in these offset ranges of the"
            + " dead-letter topic, " + Positions.RANGE_FORMAT + " (both inclusive), or listed in "
            + "replay.filter.offsets. Empty (both): any position.";

    public static final String FILTER_OFFSETS_CONFIG = "replay.filter.offsets";
    public static final String FILTER_OFFSETS_DOC = "Replay only the dead letters at these positions of the"
            + " dead-letter topic, " + Positions.POSITION_FORMAT + ", or in replay.filter.offset.ranges. Empty (both):"
            + " any position.";

    public static final String UNTIL_OFFSETS_CONFIG = "replay.until.offsets";
    public static final String UNTIL_OFFSETS_DOC = "Where the replay's range ends, per partition of the dead-letter"
            + " topic, " + UntilOffsets.FORMAT + " (the offset exclusive), as a dry run answers them ('until'): a"
            + " replay started with a dry run's offsets reads at most what that dry run read, never a dead letter"
            + " that arrived after it. A partition not listed is not replayed; an offset past the partition's"
            + " read_committed end when the replay first starts is cut to that end. Empty: every partition, up to its"
            + " read_committed end when the replay first starts.";

    public static final String FORCE_TRUNCATED_CONFIG = "replay.force.truncated";
    public static final boolean FORCE_TRUNCATED_DEFAULT = false;
    public static final String FORCE_TRUNCATED_DOC = "Whether to replay a dead letter whose payload was cut to fit"
            + " the dead-letter limit (__quarantine.payload.truncated not false) as it is. Off: such a dead letter is"
            + " skipped and counted, never replayed as if whole.";

    public static final String MAX_ATTEMPTS_CONFIG = "replay.max.attempts";
    public static final int MAX_ATTEMPTS_DEFAULT = 3;
    public static final String MAX_ATTEMPTS_DOC = "How many times a record may be replayed. A replayed record that"
            + " fails again goes back to the dead-letter topic with its __quarantine.replay.count; when that count"
            + " reaches this number it goes to the parking topic instead.";

    public static final String PARKING_TOPIC_CONFIG = "replay.parking.topic.name";
    public static final String PARKING_TOPIC_DOC = "Where records that failed replay.max.attempts replays go."
            + " Empty: <dlq.topic.name>" + ReplayConfig.PARKING_SUFFIX + ". Created (like the dead-letter topic's"
            + " partition count) when missing. Its name must end with '" + ReplayConfig.PARKING_SUFFIX + "': no"
            + " replay ever writes a dead letter to a topic named so.";
    static final String PARKING_SUFFIX = ".parking";

    public static final String BATCH_SIZE_CONFIG = "replay.batch.size";
    public static final int BATCH_SIZE_DEFAULT = 500;
    public static final String BATCH_SIZE_DOC = "The most dead letters read into one transaction, which also holds"
            + " what they became and the replay's progress.";

    public static final String MAX_RECORDS_PER_SECOND_CONFIG = "replay.max.records.per.second";
    public static final long MAX_RECORDS_PER_SECOND_DEFAULT = 0L;
    public static final String MAX_RECORDS_PER_SECOND_DOC = "The most dead letters a replay writes per second (each"
            + " replayed, dead-lettered again or parked), so that replaying millions of them does not flood the"
            + " destinations. A replay then writes batches of at most one second's worth and waits between its"
            + " transactions, never inside one, until what it wrote is within the limit: a throttled transaction is"
            + " no longer open than an unthrottled one, so transaction.timeout.ms needs no change. Dead letters left"
            + " in place (filtered, skipped, refused) do not count. 0 (the default): no limit.";

    public static final String MAX_BYTES_PER_SECOND_CONFIG = "replay.max.bytes.per.second";
    public static final long MAX_BYTES_PER_SECOND_DEFAULT = 0L;
    public static final String MAX_BYTES_PER_SECOND_DOC = "The most bytes a replay writes per second, counting the"
            + " key, value and headers of each dead letter it writes as they are stored in the dead-letter topic. As"
            + " " + MAX_RECORDS_PER_SECOND_CONFIG + ", and with both set the stricter one holds; a dead letter larger"
            + " than this is written alone, and the replay then waits as long as it costs. 0 (the default): no"
            + " limit.";

    public static final String PROGRESS_TOPIC_CONFIG = "replay.progress.topic.name";
    public static final String PROGRESS_TOPIC_DEFAULT = "quarantine-replay-progress";
    public static final String PROGRESS_TOPIC_DOC = "The compacted topic holding every replay's progress, keyed by"
            + " replay.id, written in the replay's transactions. Created when missing (one partition, compacted); a"
            + " replay refuses to start on one whose cleanup.policy is not exactly 'compact' (retention would delete"
            + " the records of its written ranges) or that has more than one partition (a progress record and the"
            + " records of its ranges could be read apart). Its name must start with '" + PROGRESS_TOPIC_DEFAULT + "' (for example '"
            + PROGRESS_TOPIC_DEFAULT + "-team-a'): no replay ever writes a dead letter to a topic named so, so a dead"
            + " letter's headers cannot forge another replay's progress.";
    static final String PROGRESS_TOPIC_PREFIX = PROGRESS_TOPIC_DEFAULT;

    public static final String WRITTEN_RANGES_MAX_CONFIG = "replay.written.ranges.max";
    public static final int WRITTEN_RANGES_MAX_DEFAULT = 100_000;
    public static final String WRITTEN_RANGES_MAX_DOC = "The most ranges of written dead letters a replay keeps (a"
            + " range per run of dead letters written one after another; a dead letter skipped ends a run), and the"
            + " most a replay reads back from the other replays of its dead-letter topic to skip what they wrote"
            + " (about 40 bytes of memory each). A replay whose ranges would pass it stops before committing the"
            + " batch that would, with an error naming it: its committed progress stays exact, and it resumes when"
            + " started again with a higher limit. A replay whose dead-letter topic's other replays hold more stops"
            + " at its start: raise the limit, or set replay.again=true (then it reads none).";

    public static final String PROGRESS_READ_TIMEOUT_MS_CONFIG = "replay.progress.read.timeout.ms";
    public static final long PROGRESS_READ_TIMEOUT_MS_DEFAULT = 120_000L;
    public static final String PROGRESS_READ_TIMEOUT_MS_DOC = "How long a starting replay may wait to read its"
            + " committed progress: it waits for the transactions open on the progress topic to end, and one that"
            + " a killed replay left open ends after that producer's transaction.timeout.ms (60 s by default) or when"
            + " the replay restarts. Also the timeout of the replay's other start-up calls.";

    /** @throws ConfigException naming the setting, for a bad value or a rule across settings that is broken */
    public ReplayConfig(Map<String, ?> originals) {
        this(originals, true);
    }

    private ReplayConfig(Map<String, ?> originals, boolean checkAcrossFields) {
        super(configDef(), originals, false);
        if (checkAcrossFields) {
            problemsAcrossFields().entrySet().stream().findFirst().ifPresent(problem -> {
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
        return new ReplayConfig(settings, false).problemsAcrossFields();
    }

    /** The definition of every replay setting, with documentation. */
    public static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        int order = 0;
        def.define(BOOTSTRAP_SERVERS_CONFIG, Type.LIST, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.nonEmptyList(),
                        Importance.HIGH, BOOTSTRAP_SERVERS_DOC, GROUP_REPLAY, ++order, Width.LONG, "Bootstrap servers")
                .define(DLQ_TOPIC_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.topic(false),
                        Importance.HIGH, DLQ_TOPIC_DOC, GROUP_REPLAY, ++order, Width.MEDIUM, "Dead-letter topic")
                .define(REPLAY_ID_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.replayId(),
                        Importance.HIGH, REPLAY_ID_DOC, GROUP_REPLAY, ++order, Width.MEDIUM, "Replay id")
                .define(DESTINATION_CONFIG, Type.STRING, DESTINATION_DEFAULT, ConfigValidators.destination(),
                        Importance.HIGH, DESTINATION_DOC, GROUP_REPLAY, ++order, Width.MEDIUM, "Destination")
                .define(BATCH_SIZE_CONFIG, Type.INT, BATCH_SIZE_DEFAULT, ConfigDef.Range.between(1, 100_000),
                        Importance.LOW, BATCH_SIZE_DOC, GROUP_REPLAY, ++order, Width.SHORT, "Batch size")
                .define(PROGRESS_TOPIC_CONFIG, Type.STRING, PROGRESS_TOPIC_DEFAULT,
                        ConfigValidators.reservedTopic(false, PROGRESS_TOPIC_PREFIX, ""),
                        Importance.LOW, PROGRESS_TOPIC_DOC, GROUP_REPLAY, ++order, Width.MEDIUM, "Progress topic")
                .define(PROGRESS_READ_TIMEOUT_MS_CONFIG, Type.LONG, PROGRESS_READ_TIMEOUT_MS_DEFAULT,
                        ConfigDef.Range.atLeast(1), Importance.LOW, PROGRESS_READ_TIMEOUT_MS_DOC, GROUP_REPLAY,
                        ++order, Width.SHORT, "Progress read timeout (ms)")
                .define(WRITTEN_RANGES_MAX_CONFIG, Type.INT, WRITTEN_RANGES_MAX_DEFAULT,
                        ConfigDef.Range.between(1, 10_000_000), Importance.LOW, WRITTEN_RANGES_MAX_DOC, GROUP_REPLAY,
                        ++order, Width.SHORT, "Written ranges limit");
        defineFilters(def);
        defineSafety(def);
        defineSpeed(def);
        order = 0;
        return def
                .define(MAX_ATTEMPTS_CONFIG, Type.INT, MAX_ATTEMPTS_DEFAULT, ConfigDef.Range.atLeast(1),
                        Importance.MEDIUM, MAX_ATTEMPTS_DOC, GROUP_GUARD, ++order, Width.SHORT, "Max attempts")
                .define(PARKING_TOPIC_CONFIG, Type.STRING, "", ConfigValidators.reservedTopic(true, "",
                                PARKING_SUFFIX), Importance.MEDIUM,
                        PARKING_TOPIC_DOC, GROUP_GUARD, ++order, Width.MEDIUM, "Parking topic");
    }

    private static void defineSpeed(ConfigDef def) {
        int order = 0;
        def.define(MAX_RECORDS_PER_SECOND_CONFIG, Type.LONG, MAX_RECORDS_PER_SECOND_DEFAULT,
                        ConfigValidators.noneOrPositive(), Importance.MEDIUM, MAX_RECORDS_PER_SECOND_DOC, GROUP_SPEED,
                        ++order, Width.SHORT, "Max records per second")
                .define(MAX_BYTES_PER_SECOND_CONFIG, Type.LONG, MAX_BYTES_PER_SECOND_DEFAULT,
                        ConfigValidators.noneOrPositive(), Importance.MEDIUM, MAX_BYTES_PER_SECOND_DOC, GROUP_SPEED,
                        ++order, Width.SHORT, "Max bytes per second");
    }

    private static void defineSafety(ConfigDef def) {
        int order = 0;
        def.define(DESTINATIONS_ALLOWED_CONFIG, Type.STRING, DESTINATIONS_ALLOWED_DEFAULT, ConfigValidators.regex(),
                        Importance.HIGH, DESTINATIONS_ALLOWED_DOC, GROUP_SAFETY, ++order, Width.LONG,
                        "Allowed destinations")
                .define(DESTINATIONS_DENIED_CONFIG, Type.STRING, DESTINATIONS_DENIED_DEFAULT, ConfigValidators.regex(),
                        Importance.HIGH, DESTINATIONS_DENIED_DOC, GROUP_SAFETY, ++order, Width.LONG,
                        "Denied destinations")
                .define(REPLAY_AGAIN_CONFIG, Type.BOOLEAN, REPLAY_AGAIN_DEFAULT, Importance.MEDIUM, REPLAY_AGAIN_DOC,
                        GROUP_SAFETY, ++order, Width.SHORT, "Replay again");
    }

    private static void defineFilters(ConfigDef def) {
        int order = 0;
        def.define(FILTER_ERROR_CLASSES_CONFIG, Type.LIST, "", Importance.MEDIUM, FILTER_ERROR_CLASSES_DOC,
                        GROUP_FILTERS, ++order, Width.LONG, "Error classes")
                .define(FILTER_ORIGINAL_TOPICS_CONFIG, Type.LIST, "", Importance.MEDIUM, FILTER_ORIGINAL_TOPICS_DOC,
                        GROUP_FILTERS, ++order, Width.LONG, "Original topics")
                .define(FILTER_APPS_OR_CONNECTORS_CONFIG, Type.LIST, "", Importance.MEDIUM,
                        FILTER_APPS_OR_CONNECTORS_DOC, GROUP_FILTERS, ++order, Width.LONG, "Apps or connectors")
                .define(FILTER_TIME_FROM_CONFIG, Type.STRING, "", ConfigValidators.instant(), Importance.MEDIUM,
                        FILTER_TIME_FROM_DOC, GROUP_FILTERS, ++order, Width.MEDIUM, "From time")
                .define(FILTER_TIME_TO_CONFIG, Type.STRING, "", ConfigValidators.instant(), Importance.MEDIUM,
                        FILTER_TIME_TO_DOC, GROUP_FILTERS, ++order, Width.MEDIUM, "To time")
                .define(FILTER_OFFSET_RANGES_CONFIG, Type.LIST, "", ConfigValidators.ranges(), Importance.MEDIUM,
                        FILTER_OFFSET_RANGES_DOC, GROUP_FILTERS, ++order, Width.LONG, "Offset ranges")
                .define(FILTER_OFFSETS_CONFIG, Type.LIST, "", Importance.MEDIUM, FILTER_OFFSETS_DOC, GROUP_FILTERS,
                        ++order, Width.LONG, "Offsets")
                .define(UNTIL_OFFSETS_CONFIG, Type.LIST, "", ConfigValidators.untilOffsets(), Importance.MEDIUM,
                        UNTIL_OFFSETS_DOC, GROUP_FILTERS, ++order, Width.LONG, "Until offsets")
                .define(FORCE_TRUNCATED_CONFIG, Type.BOOLEAN, FORCE_TRUNCATED_DEFAULT, Importance.LOW,
                        FORCE_TRUNCATED_DOC, GROUP_FILTERS, ++order, Width.SHORT, "Replay truncated dead letters");
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
        Map<String, String> problems = new LinkedHashMap<>();
        if (destination().kind() != Destination.Kind.TOPIC && destinationsAllowed().isEmpty()) {
            problems.put(DESTINATIONS_ALLOWED_CONFIG, "is empty, so no topic named by a dead letter's headers may be"
                    + " written, and " + DESTINATION_CONFIG + " is '" + destination() + "': set it to a regular"
                    + " expression of the topics this replay may write (run a dry run to see where the dead letters"
                    + " would go), or name one topic in " + DESTINATION_CONFIG);
        }
        return problems;
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
        getList(FILTER_OFFSETS_CONFIG).forEach(text -> positions.add(Positions.position(text, dlqTopic())));
        return positions;
    }

    private Optional<Instant> time(String key) {
        String text = getString(key).trim();
        return text.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(text));
    }

    private Map<String, String> problemsAcrossFields() {
        Map<String, String> problems = new LinkedHashMap<>();
        for (String text : getList(FILTER_OFFSETS_CONFIG)) {
            try {
                Positions.position(text, dlqTopic());
            } catch (IllegalArgumentException e) {
                problems.put(FILTER_OFFSETS_CONFIG, e.getMessage());
            }
        }
        if (parkingTopic().equals(dlqTopic())) {
            problems.put(PARKING_TOPIC_CONFIG, "must differ from " + DLQ_TOPIC_CONFIG);
        }
        if (destination().topic().filter(dlqTopic()::equals).isPresent()) {
            problems.put(DESTINATION_CONFIG, "must not be the dead-letter topic itself (" + DLQ_TOPIC_CONFIG + ")");
        } else {
            destination().topic().map(topic -> DestinationRule.of(this).decide(topic))
                    .filter(verdict -> verdict != DestinationRule.Verdict.ALLOWED)
                    .ifPresent(verdict -> problems.put(DESTINATION_CONFIG, "may not be written: the topic "
                            + verdict.reason()));
        }
        Optional<Instant> from = time(FILTER_TIME_FROM_CONFIG);
        Optional<Instant> to = time(FILTER_TIME_TO_CONFIG);
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            problems.put(FILTER_TIME_TO_CONFIG, "must be after " + FILTER_TIME_FROM_CONFIG + " (" + from.get() + ")");
        }
        return problems;
    }
}
