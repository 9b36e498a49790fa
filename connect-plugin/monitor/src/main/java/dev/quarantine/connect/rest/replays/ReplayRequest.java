package dev.quarantine.connect.rest.replays;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.UntilOffsets;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

/**
 * The body of {@code POST /dead-letters/{topic}/replays}, a JSON object whose fields are the replay's filters and
 * guard, each mapped onto one {@link ReplayConfig} setting, and {@code dryRun}. Every field is optional; an unknown
 * field, or a value of the wrong kind, is a 400 naming it, and so is a field for the destinations a replay may write
 * ({@code destinationsAllowed}, {@code destinationsDenied}): those are the worker's to set. {@code until} is an
 * object of partition to offset, as a dry run answers it ({@code replay.until.offsets}). The speed limits
 * {@code maxRecordsPerSecond} and {@code maxBytesPerSecond} ({@code replay.max.records.per.second},
 * {@code replay.max.bytes.per.second}) are whole numbers, 0 (no limit) or more: anything else is a 400 naming the
 * field. An empty body replays every replayable dead letter to its original topic.
 *
 * @param settings the replay settings asked for
 * @param dryRun   whether to answer what the replay would do instead of starting it
 */
public record ReplayRequest(Map<String, String> settings, boolean dryRun) {

    /** The longest body read. */
    static final int MAX_BODY_BYTES = 64 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> LISTS = Map.of(
            "errorClasses", ReplayConfig.FILTER_ERROR_CLASSES_CONFIG,
            "originalTopics", ReplayConfig.FILTER_ORIGINAL_TOPICS_CONFIG,
            "appsOrConnectors", ReplayConfig.FILTER_APPS_OR_CONNECTORS_CONFIG);
    private static final Map<String, String> TEXTS = Map.of(
            "from", ReplayConfig.FILTER_TIME_FROM_CONFIG,
            "to", ReplayConfig.FILTER_TIME_TO_CONFIG,
            "offsetRanges", ReplayConfig.FILTER_OFFSET_RANGES_CONFIG,
            "offsets", ReplayConfig.FILTER_OFFSETS_CONFIG,
            "destination", ReplayConfig.DESTINATION_CONFIG);
    private static final Map<String, String> NUMBERS = Map.of("maxAttempts", ReplayConfig.MAX_ATTEMPTS_CONFIG,
            "batchSize", ReplayConfig.BATCH_SIZE_CONFIG);
    /** Speed limits: a whole number, 0 (no limit) or more. */
    private static final Map<String, String> LIMITS = Map.of(
            "maxRecordsPerSecond", ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG,
            "maxBytesPerSecond", ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG);
    private static final Map<String, String> FLAGS = Map.of("forceTruncated", ReplayConfig.FORCE_TRUNCATED_CONFIG,
            "replayAgain", ReplayConfig.REPLAY_AGAIN_CONFIG);
    private static final String DRY_RUN = "dryRun";
    private static final String UNTIL = "until";
    /** Fields a request may not have, with the worker setting that decides instead. */
    private static final Map<String, String> WORKERS = Map.of(
            "destinationsAllowed", MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG,
            "destinationsDenied", MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG
                    + " and the worker's own topics");

    /** The replay settings {@code body} asks for. @throws MonitorException 400 naming the field */
    static Map<String, String> settings(String body) {
        return parse(body).settings();
    }

    /** The request {@code body} makes. @throws MonitorException 400 naming the field */
    public static ReplayRequest parse(String body) {
        if (body == null || body.isBlank()) {
            return new ReplayRequest(Map.of(), false);
        }
        if (body.length() > MAX_BODY_BYTES) {
            throw MonitorException.badRequest("the replay request is longer than " + MAX_BODY_BYTES + " bytes");
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw MonitorException.badRequest("the replay request is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw MonitorException.badRequest("the replay request must be a JSON object");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        boolean dryRun = false;
        for (Iterator<Map.Entry<String, JsonNode>> fields = root.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getKey().equals(DRY_RUN)) {
                if (!field.getValue().isBoolean()) {
                    throw MonitorException.badRequest(DRY_RUN + " must be true or false");
                }
                dryRun = field.getValue().asBoolean();
            } else if (field.getKey().equals(UNTIL)) {
                settings.put(ReplayConfig.UNTIL_OFFSETS_CONFIG, until(field.getValue()));
            } else {
                settings.put(settingOf(field.getKey()), value(field.getKey(), field.getValue()));
            }
        }
        return new ReplayRequest(Map.copyOf(settings), dryRun);
    }

    private static String settingOf(String field) {
        if (WORKERS.containsKey(field) || field.startsWith("replay.destinations")) {
            throw MonitorException.badRequest(abbreviate(field) + " may not be set by a request: the destinations a"
                    + " replay from the monitor may write are the worker's to decide ("
                    + WORKERS.getOrDefault(field, MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG) + ")");
        }
        for (Map<String, String> kind : List.of(LISTS, TEXTS, NUMBERS, LIMITS, FLAGS)) {
            if (kind.containsKey(field)) {
                return kind.get(field);
            }
        }
        List<String> known = new ArrayList<>(List.of(DRY_RUN, UNTIL));
        List.of(LISTS, TEXTS, NUMBERS, LIMITS, FLAGS).forEach(kind -> known.addAll(kind.keySet()));
        known.sort(null);
        throw MonitorException.badRequest("unknown field '" + abbreviate(field) + "' in the replay request; known: "
                + String.join(", ", known));
    }

    private static String value(String field, JsonNode value) {
        if (LISTS.containsKey(field) && value.isArray()) {
            List<String> items = new ArrayList<>();
            for (JsonNode item : value) {
                if (!item.isTextual() || item.asText().contains(",")) {
                    throw MonitorException.badRequest(field + " must be a list of names without commas");
                }
                items.add(item.asText().trim());
            }
            return String.join(",", items);
        }
        if (TEXTS.containsKey(field) && value.isTextual()) {
            return value.asText().trim();
        }
        if (NUMBERS.containsKey(field) && value.canConvertToInt()) {
            return String.valueOf(value.asInt());
        }
        if (LIMITS.containsKey(field)) {
            if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
                throw MonitorException.badRequest(field + " must be a whole number, 0 (no limit) or more");
            }
            return String.valueOf(value.asLong());
        }
        if (FLAGS.containsKey(field) && value.isBoolean()) {
            return String.valueOf(value.asBoolean());
        }
        String kind = LISTS.containsKey(field) ? "a list of strings" : TEXTS.containsKey(field) ? "a string"
                : NUMBERS.containsKey(field) ? "a whole number" : "true or false";
        throw MonitorException.badRequest(field + " must be " + kind);
    }

    /** {@code {"0": 120, "1": 7}} as {@code 0:120,1:7}; the setting's validator checks the numbers. */
    private static String until(JsonNode value) {
        if (!value.isObject()) {
            throw MonitorException.badRequest(UNTIL + " must be an object of partition to offset, as a dry run"
                    + " answers it");
        }
        List<String> entries = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> partitions = value.fields(); partitions.hasNext(); ) {
            Map.Entry<String, JsonNode> partition = partitions.next();
            if (!partition.getValue().canConvertToLong() || !partition.getValue().isIntegralNumber()) {
                throw MonitorException.badRequest(UNTIL + " must map each partition to a whole number");
            }
            entries.add(abbreviate(partition.getKey()) + ":" + partition.getValue().asLong());
        }
        if (UntilOffsets.listsNone(entries)) {
            throw MonitorException.badRequest(UNTIL + " " + UntilOffsets.NONE_LISTED);
        }
        return String.join(",", entries);
    }

    private static String abbreviate(String value) {
        return value.length() <= 60 ? value : value.substring(0, 60) + "...";
    }
}
