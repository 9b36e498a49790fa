package dev.quarantine.replay;

import static dev.quarantine.replay.ReplayConfig.*;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Validator;
import org.apache.kafka.common.config.ConfigDef.Width;

import dev.quarantine.txn.ConfigGroup;

/**
 * The definition of every replay setting ({@link ReplayConfig} holds the keys and defaults users reference), grouped
 * by concern in the order docs/config/replay.rst lists them: the replay itself, its filters, destinations and
 * repeats, speed limits and the loop guard. Each group's documentation sits next to its definitions.
 */
final class ReplayConfigDef {

    // Replay
    private static final String BOOTSTRAP_SERVERS_DOC = "The cluster of the dead-letter topic and the destinations.";
    private static final String DLQ_TOPIC_DOC = "The dead-letter topic to replay, written by our sink connector, our"
            + " Kafka Streams handler or Kafka Connect's own dead-letter queue.";
    private static final String REPLAY_ID_DOC = "Names the replay: the key of its progress record and the base of its"
            + " transactional.id (" + ReplayEngine.TRANSACTIONAL_ID_PREFIX + "<replay.id>). Starting a replay with the"
            + " id of one that was interrupted fences the old instance and resumes from its committed progress; a"
            + " finished id writes nothing more. 1 to 200 of a-z, A-Z, 0-9, '.', '_' and '-'.";
    private static final String DESTINATION_DOC = "Where each dead letter goes: 'original' (where it was going when it"
            + " failed: __quarantine.target.topic and .partition, else the input topic named by __connect.errors.topic"
            + " or __streams.errors.topic), 'source' (the input topic it was read from), or a topic name.";
    private static final String BATCH_SIZE_DOC = "The most dead letters read into one transaction, which also holds"
            + " what they became and the replay's progress.";
    private static final String PROGRESS_TOPIC_DOC = "The compacted topic holding every replay's progress, keyed by"
            + " replay.id, written in the replay's transactions. Created when missing (one partition, compacted); a"
            + " replay refuses to start on one whose cleanup.policy is not exactly 'compact' (retention would delete"
            + " the records of its written ranges) or that has more than one partition (a progress record and the"
            + " records of its ranges could be read apart). Its name must start with '" + PROGRESS_TOPIC_DEFAULT + "' (for example '"
            + PROGRESS_TOPIC_DEFAULT + "-team-a'): no replay ever writes a dead letter to a topic named so, so a dead"
            + " letter's headers cannot forge another replay's progress.";
    private static final String PROGRESS_READ_TIMEOUT_MS_DOC = "How long a starting replay may wait to read its"
            + " committed progress: it waits for the transactions open on the progress topic to end, and one that"
            + " a killed replay left open ends after that producer's transaction.timeout.ms (60 s by default) or when"
            + " the replay restarts. Also the timeout of the replay's other start-up calls.";
    private static final String WRITTEN_RANGES_MAX_DOC = "The most ranges of written dead letters a replay keeps (a"
            + " range per run of dead letters written one after another; a dead letter skipped ends a run), and the"
            + " most a replay reads back from the other replays of its dead-letter topic to skip what they wrote"
            + " (about 40 bytes of memory each). A replay whose ranges would pass it stops before committing the"
            + " batch that would, with an error naming it: its committed progress stays exact, and it resumes when"
            + " started again with a higher limit. A replay whose dead-letter topic's other replays hold more stops"
            + " at its start: raise the limit, or set replay.again=true (then it reads none).";

    // Filters
    private static final String FILTER_ERROR_CLASSES_DOC = "Replay only dead letters whose exception class is listed,"
            + " by simple or fully qualified name (RecordTooLargeException). Empty: any.";
    private static final String FILTER_ORIGINAL_TOPICS_DOC = "Replay only dead letters whose 'original' destination"
            + " topic is listed. Empty: any.";
    private static final String FILTER_APPS_OR_CONNECTORS_DOC = "Replay only dead letters written by a listed Kafka"
            + " Streams application.id (__quarantine.application.id) or connector (__connect.errors.connector.name)."
            + " Empty: any.";
    private static final String FILTER_TIME_FROM_DOC = "Replay only dead letters with a timestamp at or after this"
            + " ISO-8601 instant (2026-12-01T03:00:00Z). The timestamp is the dead letter's: the failed record's"
            + " own for Kafka Connect's, Kafka Streams' and this project's dead letters, the time it was appended"
            + " on a dead-letter topic with message.timestamp.type=LogAppendTime. Empty: no lower bound.";
    private static final String FILTER_TIME_TO_DOC = "Replay only dead letters with a timestamp before this ISO-8601"
            + " instant. Empty: no upper bound.";
    private static final String FILTER_OFFSET_RANGES_DOC = "Replay only dead letters in these offset ranges of the"
            + " dead-letter topic, " + Positions.RANGE_FORMAT + " (both inclusive), or listed in "
            + "replay.filter.offsets. Empty (both): any position.";
    private static final String FILTER_OFFSETS_DOC = "Replay only the dead letters at these positions of the"
            + " dead-letter topic, " + Positions.POSITION_FORMAT + ", or in replay.filter.offset.ranges. Empty (both):"
            + " any position.";
    private static final String UNTIL_OFFSETS_DOC = "Where the replay's range ends, per partition of the dead-letter"
            + " topic, " + UntilOffsets.FORMAT + " (the offset exclusive), as a dry run answers them ('until'): a"
            + " replay started with a dry run's offsets reads at most what that dry run read, never a dead letter"
            + " that arrived after it. A partition not listed is not replayed; an offset past the partition's"
            + " read_committed end when the replay first starts is cut to that end. Empty: every partition, up to its"
            + " read_committed end when the replay first starts.";
    private static final String FORCE_TRUNCATED_DOC = "Whether to replay a dead letter whose payload was cut to fit"
            + " the dead-letter limit (__quarantine.payload.truncated not false) as it is. Off: such a dead letter is"
            + " skipped and counted, never replayed as if whole.";

    // Destinations and repeats
    private static final String DESTINATIONS_ALLOWED_DOC = "A Java regular expression a destination topic chosen by a"
            + " dead letter's headers (replay.destination 'original' or 'source') must match in full, for example"
            + " 'orders|payments\\..*'. Empty (the default): no destination a header chose is written, only the"
            + " topic replay.destination names; a replay that writes to 'original' or 'source' is refused until"
            + " this is set (a dry run shows where the dead letters would go). Headers are written by whoever may"
            + " write the dead-letter topic, the replay writes as you: allow only the topics those writers may write"
            + " themselves. Internal topics ('__*', '*.internal'), the dead-letter topic, replay progress and parking"
            + " topics ('quarantine-replay-progress', '*.parking') and replay.destinations.denied are refused even"
            + " when matched.";
    private static final String DESTINATIONS_DENIED_DOC = "A Java regular expression of more topics a replay never"
            + " writes, matched in full, even when replay.destinations.allowed or replay.destination names them; a"
            + " dead letter headed there is counted as refused. It adds to what is always refused, which no setting"
            + " removes: Kafka Connect's default config, offset and status topics ("
            + String.join(", ", ReservedTopics.CONNECT_DEFAULT_TOPICS) + "), internal topics ('__*', '*.internal'),"
            + " the dead-letter topic and replay progress and parking topics. Add your workers' own topics when they"
            + " have other names (config.storage.topic, offset.storage.topic, status.storage.topic) and any other"
            + " topic that drives a system. Empty (the default): nothing more.";
    private static final String REPLAY_AGAIN_DOC = "Whether to replay dead letters that a finished (DONE or CANCELLED)"
            + " replay of the same dead-letter topic already wrote somewhere (replayed, dead-lettered again or"
            + " parked). Off: they are skipped and counted as already replayed; dead letters the earlier replay"
            + " skipped (filter, truncation, no destination, refused) are not affected.";

    // Speed limits
    private static final String MAX_RECORDS_PER_SECOND_DOC = "The most dead letters a replay writes per second (each"
            + " replayed, dead-lettered again or parked), so that replaying millions of them does not flood the"
            + " destinations. A replay then writes batches of at most one second's worth and waits between its"
            + " transactions, never inside one, until what it wrote is within the limit: a throttled transaction is"
            + " no longer open than an unthrottled one, so transaction.timeout.ms needs no change. Dead letters left"
            + " in place (filtered, skipped, refused) do not count. 0 (the default): no limit.";
    private static final String MAX_BYTES_PER_SECOND_DOC = "The most bytes a replay writes per second, counting the"
            + " key, value and headers of each dead letter it writes as they are stored in the dead-letter topic. As"
            + " " + MAX_RECORDS_PER_SECOND_CONFIG + ", and with both set the stricter one holds; a dead letter larger"
            + " than this is written alone, and the replay then waits as long as it costs. 0 (the default): no"
            + " limit.";

    // Loop guard
    private static final String MAX_ATTEMPTS_DOC = "How many times a record may be replayed. A replayed record that"
            + " fails again goes back to the dead-letter topic with its __quarantine.replay.count; when that count"
            + " reaches this number it goes to the parking topic instead.";
    private static final String PARKING_TOPIC_DOC = "Where records that failed replay.max.attempts replays go."
            + " Empty: <dlq.topic.name>" + PARKING_SUFFIX + ". Created (like the dead-letter topic's"
            + " partition count) when missing. Its name must end with '" + PARKING_SUFFIX + "': no"
            + " replay ever writes a dead letter to a topic named so.";

    private ReplayConfigDef() {
    }

    static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        defineReplay(new ConfigGroup(def, "Replay"));
        defineFilters(new ConfigGroup(def, "Filters"));
        defineDestinations(new ConfigGroup(def, "Destinations and repeats"));
        defineSpeed(new ConfigGroup(def, "Speed limits"));
        defineLoopGuard(new ConfigGroup(def, "Loop guard"));
        return def;
    }

    private static void defineReplay(ConfigGroup group) {
        group.define(BOOTSTRAP_SERVERS_CONFIG, Type.LIST, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.nonEmptyList(),
                        Importance.HIGH, BOOTSTRAP_SERVERS_DOC, Width.LONG, "Bootstrap servers")
                .define(DLQ_TOPIC_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.topic(false),
                        Importance.HIGH, DLQ_TOPIC_DOC, Width.MEDIUM, "Dead-letter topic")
                .define(REPLAY_ID_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.replayId(),
                        Importance.HIGH, REPLAY_ID_DOC, Width.MEDIUM, "Replay id")
                .define(DESTINATION_CONFIG, Type.STRING, DESTINATION_DEFAULT, ConfigValidators.destination(),
                        Importance.HIGH, DESTINATION_DOC, Width.MEDIUM, "Destination")
                .count(BATCH_SIZE_CONFIG, BATCH_SIZE_DEFAULT, 100_000, BATCH_SIZE_DOC, "Batch size")
                .define(PROGRESS_TOPIC_CONFIG, Type.STRING, PROGRESS_TOPIC_DEFAULT,
                        ConfigValidators.reservedTopic(false, PROGRESS_TOPIC_PREFIX, ""), Importance.LOW,
                        PROGRESS_TOPIC_DOC, Width.MEDIUM, "Progress topic")
                .define(PROGRESS_READ_TIMEOUT_MS_CONFIG, Type.LONG, PROGRESS_READ_TIMEOUT_MS_DEFAULT,
                        ConfigDef.Range.atLeast(1), Importance.LOW, PROGRESS_READ_TIMEOUT_MS_DOC, Width.SHORT,
                        "Progress read timeout (ms)")
                .count(WRITTEN_RANGES_MAX_CONFIG, WRITTEN_RANGES_MAX_DEFAULT, 10_000_000, WRITTEN_RANGES_MAX_DOC,
                        "Written ranges limit");
    }

    private static void defineFilters(ConfigGroup group) {
        filterList(group, FILTER_ERROR_CLASSES_CONFIG, null, FILTER_ERROR_CLASSES_DOC, "Error classes");
        filterList(group, FILTER_ORIGINAL_TOPICS_CONFIG, null, FILTER_ORIGINAL_TOPICS_DOC, "Original topics");
        filterList(group, FILTER_APPS_OR_CONNECTORS_CONFIG, null, FILTER_APPS_OR_CONNECTORS_DOC, "Apps or connectors");
        filterInstant(group, FILTER_TIME_FROM_CONFIG, FILTER_TIME_FROM_DOC, "From time");
        filterInstant(group, FILTER_TIME_TO_CONFIG, FILTER_TIME_TO_DOC, "To time");
        filterList(group, FILTER_OFFSET_RANGES_CONFIG, ConfigValidators.ranges(), FILTER_OFFSET_RANGES_DOC,
                "Offset ranges");
        filterList(group, FILTER_OFFSETS_CONFIG, null, FILTER_OFFSETS_DOC, "Offsets");
        filterList(group, UNTIL_OFFSETS_CONFIG, ConfigValidators.untilOffsets(), UNTIL_OFFSETS_DOC, "Until offsets");
        group.define(FORCE_TRUNCATED_CONFIG, Type.BOOLEAN, FORCE_TRUNCATED_DEFAULT, null, Importance.LOW,
                FORCE_TRUNCATED_DOC, Width.SHORT, "Replay truncated dead letters");
    }

    /** A filter by a list of values, empty by default (no filter), of medium importance. */
    private static void filterList(ConfigGroup group, String key, Validator validator, String doc,
                                   String displayName) {
        group.define(key, Type.LIST, "", validator, Importance.MEDIUM, doc, Width.LONG, displayName);
    }

    /** A filter by an ISO-8601 instant, empty by default (no bound), of medium importance. */
    private static void filterInstant(ConfigGroup group, String key, String doc, String displayName) {
        group.define(key, Type.STRING, "", ConfigValidators.instant(), Importance.MEDIUM, doc, Width.MEDIUM,
                displayName);
    }

    private static void defineDestinations(ConfigGroup group) {
        group.define(DESTINATIONS_ALLOWED_CONFIG, Type.STRING, DESTINATIONS_ALLOWED_DEFAULT, ConfigValidators.regex(),
                        Importance.HIGH, DESTINATIONS_ALLOWED_DOC, Width.LONG, "Allowed destinations")
                .define(DESTINATIONS_DENIED_CONFIG, Type.STRING, DESTINATIONS_DENIED_DEFAULT, ConfigValidators.regex(),
                        Importance.HIGH, DESTINATIONS_DENIED_DOC, Width.LONG, "Denied destinations")
                .define(REPLAY_AGAIN_CONFIG, Type.BOOLEAN, REPLAY_AGAIN_DEFAULT, null, Importance.MEDIUM,
                        REPLAY_AGAIN_DOC, Width.SHORT, "Replay again");
    }

    private static void defineSpeed(ConfigGroup group) {
        group.define(MAX_RECORDS_PER_SECOND_CONFIG, Type.LONG, MAX_RECORDS_PER_SECOND_DEFAULT,
                        ConfigValidators.noneOrPositive(), Importance.MEDIUM, MAX_RECORDS_PER_SECOND_DOC, Width.SHORT,
                        "Max records per second")
                .define(MAX_BYTES_PER_SECOND_CONFIG, Type.LONG, MAX_BYTES_PER_SECOND_DEFAULT,
                        ConfigValidators.noneOrPositive(), Importance.MEDIUM, MAX_BYTES_PER_SECOND_DOC, Width.SHORT,
                        "Max bytes per second");
    }

    private static void defineLoopGuard(ConfigGroup group) {
        group.define(MAX_ATTEMPTS_CONFIG, Type.INT, MAX_ATTEMPTS_DEFAULT, ConfigDef.Range.atLeast(1),
                        Importance.MEDIUM, MAX_ATTEMPTS_DOC, Width.SHORT, "Max attempts")
                .define(PARKING_TOPIC_CONFIG, Type.STRING, "", ConfigValidators.reservedTopic(true, "", PARKING_SUFFIX),
                        Importance.MEDIUM, PARKING_TOPIC_DOC, Width.MEDIUM, "Parking topic");
    }
}
