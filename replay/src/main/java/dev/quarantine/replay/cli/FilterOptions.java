package dev.quarantine.replay.cli;

import java.util.List;
import java.util.Map;

import picocli.CommandLine.Option;

import dev.quarantine.replay.ReplayConfig;

/**
 * The options of {@code quarantine replay} that choose which dead letters of the range are replayed (the "Filters"
 * group of {@link ReplayConfig}), and the setting each one sets.
 */
final class FilterOptions {

    @Option(names = "--error-class", split = ",", paramLabel = "<class>",
            description = "Only dead letters of these exception classes (simple or qualified names).")
    List<String> errorClasses;

    @Option(names = "--original-topic", split = ",", paramLabel = "<topic>",
            description = "Only dead letters whose original destination is one of these topics.")
    List<String> originalTopics;

    @Option(names = "--app-or-connector", split = ",", paramLabel = "<name>",
            description = "Only dead letters of these Kafka Streams application ids or connectors.")
    List<String> appsOrConnectors;

    @Option(names = "--from-datetime", paramLabel = "<instant>",
            description = "Only dead letters at or after this ISO-8601 instant (2026-12-01T03:00:00Z).")
    String from;

    @Option(names = "--to-datetime", paramLabel = "<instant>", description = "Only dead letters before this instant.")
    String to;

    @Option(names = "--offset-range", split = ",", paramLabel = "<p:from-to>",
            description = "Only dead letters in these ranges of the dead-letter topic (inclusive).")
    List<String> offsetRanges;

    @Option(names = "--offsets", split = ",", paramLabel = "<p@offset>",
            description = "Only the dead letters at these positions of the dead-letter topic.")
    List<String> offsets;

    @Option(names = "--until", split = ",", paramLabel = "<p:offset>",
            description = "End the range here per partition (exclusive), as a dry run prints them: write only what"
                + " that dry run read. A partition not listed is not replayed.")
    List<String> until;

    /** Puts the setting of each option given into {@code settings}. */
    void putInto(Map<String, Object> settings) {
        ReplayCommand.put(settings, ReplayConfig.FILTER_ERROR_CLASSES_CONFIG, join(errorClasses));
        ReplayCommand.put(settings, ReplayConfig.FILTER_ORIGINAL_TOPICS_CONFIG, join(originalTopics));
        ReplayCommand.put(settings, ReplayConfig.FILTER_APPS_OR_CONNECTORS_CONFIG, join(appsOrConnectors));
        ReplayCommand.put(settings, ReplayConfig.FILTER_TIME_FROM_CONFIG, from);
        ReplayCommand.put(settings, ReplayConfig.FILTER_TIME_TO_CONFIG, to);
        ReplayCommand.put(settings, ReplayConfig.FILTER_OFFSET_RANGES_CONFIG, join(offsetRanges));
        ReplayCommand.put(settings, ReplayConfig.FILTER_OFFSETS_CONFIG, join(offsets));
        ReplayCommand.put(settings, ReplayConfig.UNTIL_OFFSETS_CONFIG, join(until));
    }

    private static String join(List<String> values) {
        return values == null ? null : String.join(",", values);
    }
}
