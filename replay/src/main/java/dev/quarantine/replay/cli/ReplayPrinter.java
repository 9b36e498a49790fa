package dev.quarantine.replay.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.kafka.common.utils.Time;

import dev.quarantine.replay.DryRunReport;
import dev.quarantine.replay.Outcome;
import dev.quarantine.replay.RecordReport;
import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayListener;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.UntilOffsets;

/**
 * What {@code quarantine replay} prints: in a dry run, one line per dead letter (position, where it would go, its
 * error class; never a key or value); otherwise, when the output is a terminal or {@code --progress} asks for it, one
 * line updated in place ({@link ProgressLine}: offsets read of the range, rate, time left); then a summary. On a pipe
 * the progress line is left out, so logs stay clean.
 */
final class ReplayPrinter implements ReplayListener {

    private static final Pattern JAVA_CLASS_NAME =
            Pattern.compile("[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}.]{0,254}");

    private final PrintWriter out;
    private final boolean terminal;
    private final boolean dryRun;
    private final Time time;
    private ProgressLine line;
    private int lineLength;

    /** @param terminal whether to keep a progress line updated in place (a terminal, or {@code --progress}) */
    ReplayPrinter(PrintWriter out, boolean terminal, boolean dryRun, Time time) {
        this.out = out;
        this.terminal = terminal;
        this.dryRun = dryRun;
        this.time = time;
    }

    void started(ReplayProgress progress) {
        line = new ProgressLine(time, progress);
        out.printf("%s %s as replay %s (%d offsets in range)%s%n", dryRun ? "Dry run of" : "Replaying",
                progress.dlqTopic(), progress.replayId(), progress.offsetsInRange(),
                dryRun ? "" : "; to resume it if interrupted: --replay-id " + progress.replayId());
        out.flush();
    }

    @Override
    public void onRecord(RecordReport report) {
        if (dryRun) {
            out.println(line(report));
        }
    }

    void progress(ReplayProgress progress) {
        if (terminal && !dryRun && line != null) {
            String text = line.of(progress);
            // over the previous line: a shorter one is padded so nothing of the longer one stays
            out.print("\r" + text + " ".repeat(Math.max(0, lineLength - text.length())));
            lineLength = text.length();
            out.flush();
        }
    }

    void summary(ReplayProgress progress) {
        if (terminal && !dryRun) {
            out.println();
        }
        ReplayCounts c = progress.counts();
        String would = dryRun ? " (dry run: nothing written)" : "";
        out.printf("Replay %s of %s: %s%s%n", progress.replayId(), progress.dlqTopic(), progress.state(), would);
        out.printf("  replayed                %d%n", c.replayed());
        out.printf("  dead-lettered again     %d%n", c.deadLetteredAgain());
        out.printf("  parked                  %d%n", c.parked());
        out.printf("  skipped by filter       %d%n", c.skippedByFilter());
        out.printf("  skipped as truncated    %d%n", c.skippedTruncated());
        out.printf("  skipped, no destination %d%n", c.skippedUnroutable());
        out.printf("  refused destination     %d%n", c.refused());
        out.printf("  already replayed        %d%n", c.alreadyReplayed());
        out.flush();
    }

    /** The dry run's table: per destination topic, the dead letters that would be written there. */
    void destinations(DryRunReport report) {
        table("Would write, per destination topic:", report.byDestination());
        if (!report.refusedByDestination().isEmpty()) {
            table("Would refuse (see --destinations-allowed, --destinations-denied), per destination topic:",
                    report.refusedByDestination());
        }
        out.println("Read up to (replay exactly these with --until " + UntilOffsets.format(report.until()) + ")");
        out.flush();
    }

    private void table(String title, Map<String, Long> perTopic) {
        out.println(title);
        if (perTopic.isEmpty()) {
            out.println("  (none)");
        }
        int width = Math.max(1, perTopic.keySet().stream().mapToInt(String::length).max().orElse(0));
        perTopic.forEach((topic, n) -> out.printf("  %-" + width + "s  %d%n", topic, n));
    }

    static String line(RecordReport report) {
        String error = report.errorClass().map(ReplayPrinter::simpleName).map(name -> "  (" + name + ")").orElse("");
        return switch (report.outcome()) {
            case REPLAYED -> report.position() + " -> " + report.destination().orElse("?") + error;
            case SKIPPED_BY_FILTER -> report.position() + " skipped: not selected by the filters";
            case SKIPPED_TRUNCATED -> report.position() + " skipped: payload truncated (--force-truncated replays it)"
                    + error;
            case SKIPPED_UNROUTABLE -> report.position() + " skipped, no destination: "
                    + report.reason().orElse("its headers name none") + error;
            case REFUSED_DESTINATION -> report.position() + " refused: " + report.destination().orElse("?") + " "
                    + report.reason().orElse("may not be written") + error;
            case SKIPPED_ALREADY_REPLAYED -> report.position()
                    + " skipped: a finished replay already wrote it (--replay-again replays it)";
            case DEAD_LETTERED_AGAIN, PARKED -> report.position() + " -> " + report.destination().orElse("?")
                    + (report.outcome() == Outcome.PARKED ? " (parked)" : " (failed again)") + error;
        };
    }

    /**
     * The simple name of an error class header, printed only when it is a Java class name: the header is written by
     * whoever may write the dead-letter topic, and control characters in it could forge lines on the terminal.
     */
    static String simpleName(String errorClass) {
        if (!JAVA_CLASS_NAME.matcher(errorClass).matches()) {
            return "error class not a Java class name";
        }
        return errorClass.substring(errorClass.lastIndexOf('.') + 1);
    }
}
