package dev.quarantine.replay.cli;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Callable;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.utils.Time;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayOverlapException;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayTakenOverException;
import dev.quarantine.replay.UntilOffsets;

/**
 * {@code quarantine replay}: maps its options onto {@link ReplayConfig} settings and drives a {@link ReplayEngine}
 * to the end of its range, printing progress and a summary ({@link ReplayPrinter}).
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sends the dead letters of a dead-letter topic back where they were going, exactly once.",
            "Without filters, replays every replayable dead letter to its original destination.",
            "Writing to 'original' or 'source' needs --destinations-allowed: run --dry-run first to see where the"
                + " dead letters would go.",
            "A replay whose range overlaps that of a RUNNING replay of the same topic is not started (exit 1): the"
                + " message names it and how to resume or cancel it.",
            "Exit status: 0 when every selected dead letter went somewhere (replayed, dead-lettered again or parked),"
                + " 1 on an error, 2 on bad options or settings, 3 when some had no destination or a refused one."})
final class ReplayCommand implements Callable<Integer> {

    static final int DONE = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;
    static final int SOME_NOT_WRITTEN = 3;
    private static final int MAX_RETRIES = 10;

    @Spec
    CommandSpec spec;

    @Option(names = "--bootstrap-server", required = true, paramLabel = "<host:port>",
            description = "The server(s) to connect to.")
    String bootstrapServer;

    @Option(names = "--dlq", required = true, paramLabel = "<topic>", description = "The dead-letter topic to replay.")
    String dlq;

    @Option(names = "--command-config", paramLabel = "<file>",
            description = "A file of client settings (security.protocol, sasl.*, ...) and replay settings.")
    Path commandConfig;

    @Option(names = "--replay-id", paramLabel = "<id>",
            description = "Names the replay; rerun with the same id to resume an interrupted one. Default: a new id.")
    String replayId;

    @Option(names = "--destination", paramLabel = "<original|source|topic>",
            description = "Where dead letters go. Default: original.")
    String destination;

    @Mixin
    FilterOptions filters = new FilterOptions();

    @Option(names = "--max-attempts", paramLabel = "<n>",
            description = "Replays of a record before it is parked instead of dead-lettered again. Default: 3.")
    Integer maxAttempts;

    @Option(names = "--parking-topic", paramLabel = "<topic>", description = "Default: <dlq>.parking.")
    String parkingTopic;

    @Option(names = "--force-truncated", description = "Replay dead letters whose payload was cut, as they are.")
    boolean forceTruncated;

    @Option(names = "--batch-size", paramLabel = "<n>", description = "Dead letters per transaction. Default: 500.")
    Integer batchSize;

    @Option(names = "--max-records-per-second", paramLabel = "<n>",
            description = "The most dead letters written per second (replayed, dead-lettered again or parked), waited"
                + " for between transactions. Default: 0, no limit.")
    Long maxRecordsPerSecond;

    @Option(names = "--max-bytes-per-second", paramLabel = "<n>",
            description = "The most bytes of dead letters (key, value, headers) written per second. Default: 0, no"
                + " limit.")
    Long maxBytesPerSecond;

    @Option(names = "--progress", description = "Keep a progress line (offsets read of the range, rate, time left)"
            + " updated even when the output is not a terminal. On a terminal it is shown anyway.")
    boolean progressLine;

    @Option(names = "--progress-topic", paramLabel = "<topic>",
            description = "Where progress is stored. Default: quarantine-replay-progress.")
    String progressTopic;

    @Option(names = "--destinations-allowed", paramLabel = "<regex>",
            description = "Topics a dead letter's headers may send it to (original, source), a Java regex matched in"
                + " full. Default: none.")
    String destinationsAllowed;

    @Option(names = "--destinations-denied", paramLabel = "<regex>", description = "More topics never written, even"
            + " when allowed, besides those always refused (Connect's default connect-configs, connect-offsets and"
            + " connect-status, internal topics, replay progress and parking topics). Default: none more.")
    String destinationsDenied;

    @Option(names = "--replay-again",
            description = "Replay dead letters that a finished replay of the topic already wrote.")
    boolean replayAgain;

    @Option(names = "--dry-run", description = "Print what would go where, and a count per destination topic;"
            + " write nothing.")
    boolean dryRun;

    @Option(names = "--cancel", description = "Cancel the replay --replay-id names (one whose process stopped, for"
            + " example): fence any instance still running and commit its progress as CANCELLED; replays nothing.")
    boolean cancel;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (filters.until != null && UntilOffsets.listsNone(filters.until)) {
            err.println("Invalid arguments: --until " + UntilOffsets.NONE_LISTED);
            return USAGE;
        }
        if (cancel && (dryRun || replayId == null)) {
            err.println("Invalid arguments: --cancel needs --replay-id <id> and no --dry-run");
            return USAGE;
        }
        ReplayConfig config;
        try {
            config = new ReplayConfig(settings());
            if (!dryRun && !cancel) {
                config.requireWritable();
            }
        } catch (ConfigException e) {
            err.println("Invalid arguments: " + e.getMessage());
            return USAGE;
        }
        ReplayPrinter printer = new ReplayPrinter(out, progressLine || onTerminal(), dryRun, Time.SYSTEM);
        try (ReplayEngine engine = new ReplayEngine(config, dryRun ? ReplayEngine.Mode.DRY_RUN
                : ReplayEngine.Mode.WRITE, printer)) {
            if (cancel) {
                printer.summary(engine.fenceAndCancel());
                return DONE;
            }
            printer.started(engine.start());
            ReplayProgress progress = run(engine, printer);
            printer.summary(progress);
            if (dryRun) {
                printer.destinations(engine.dryRunReport());
            }
            return progress.counts().skippedUnroutable() + progress.counts().refused() > 0 ? SOME_NOT_WRITTEN : DONE;
        } catch (ConfigException e) {
            err.println("Invalid arguments: " + e.getMessage());
            return USAGE;
        } catch (ReplayOverlapException e) {
            err.println(e.getMessage());
            return FAILED;
        } catch (ReplayTakenOverException e) {
            err.println("Replay " + config.replayId() + " stopped: another instance with --replay-id "
                    + config.replayId() + " took it over and resumes from the committed progress (" + describe(e)
                    + ")");
            return FAILED;
        } catch (KafkaException e) {
            err.println("Replay " + config.replayId() + " stopped: " + describe(e) + (dryRun ? ""
                    : ". What was committed stays; run again with --replay-id " + config.replayId() + " to resume"));
            return FAILED;
        }
    }

    /**
     * Whether the output is a terminal: {@code System.console()} is null on a pipe up to Java 21; Java 22 to 24 return
     * a console there too, and say with {@code Console.isTerminal()} (a public method those have) whether it is one.
     */
    static boolean onTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return Boolean.TRUE.equals(Console.class.getMethod("isTerminal").invoke(console));
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /** The exception and its causes, class and message each: no record content is in them. */
    private static String describe(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable e = error; e != null; e = e.getCause()) {
            text.append(text.length() == 0 ? "" : ", caused by ").append(e.getClass().getSimpleName()).append(": ")
                    .append(e.getMessage());
        }
        return text.toString();
    }

    private static ReplayProgress run(ReplayEngine engine, ReplayPrinter printer) {
        ReplayProgress progress = engine.progress();
        int retries = 0;
        while (!progress.finished()) {
            try {
                progress = engine.step();
                retries = 0;
            } catch (RetriableException e) {
                if (++retries > MAX_RETRIES) {
                    throw e;
                }
            }
            printer.progress(progress);
        }
        return progress;
    }

    /** The settings of {@code --command-config}, then those of the options, which win. */
    Map<String, Object> settings() throws IOException {
        Map<String, Object> settings = new HashMap<>();
        if (commandConfig != null) {
            Properties file = new Properties();
            try (InputStream in = Files.newInputStream(commandConfig)) {
                file.load(in);
            }
            file.stringPropertyNames().forEach(name -> settings.put(name, file.getProperty(name)));
        }
        settings.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServer);
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, dlq);
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, replayId != null ? replayId
                : settings.getOrDefault(ReplayConfig.REPLAY_ID_CONFIG, "cli-" + UUID.randomUUID()));
        put(settings, ReplayConfig.DESTINATION_CONFIG, destination);
        filters.putInto(settings);
        put(settings, ReplayConfig.MAX_ATTEMPTS_CONFIG, maxAttempts);
        put(settings, ReplayConfig.PARKING_TOPIC_CONFIG, parkingTopic);
        put(settings, ReplayConfig.FORCE_TRUNCATED_CONFIG, forceTruncated ? Boolean.TRUE : null);
        put(settings, ReplayConfig.BATCH_SIZE_CONFIG, batchSize);
        put(settings, ReplayConfig.PROGRESS_TOPIC_CONFIG, progressTopic);
        put(settings, ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, maxRecordsPerSecond);
        put(settings, ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG, maxBytesPerSecond);
        put(settings, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, destinationsAllowed);
        put(settings, ReplayConfig.DESTINATIONS_DENIED_CONFIG, destinationsDenied);
        put(settings, ReplayConfig.REPLAY_AGAIN_CONFIG, replayAgain ? Boolean.TRUE : null);
        return settings;
    }

    static void put(Map<String, Object> settings, String key, Object value) {
        if (value != null) {
            settings.put(key, value.toString());
        }
    }
}
