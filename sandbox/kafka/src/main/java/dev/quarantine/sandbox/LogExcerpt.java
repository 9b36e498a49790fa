package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The last lines of a child's log that say what went wrong, for a failure's message: a CI run shows the failure, not
 * the log files. A line counts when it is logged at WARN or ERROR, or by this project's own code (its INFO lines say
 * why an answer was 503, which worker did not answer): never a stack frame. Reads the log's tail only, and cuts each
 * line, so a flooded log keeps the failure short.
 */
final class LogExcerpt {

    static final int MAX_LINES = 12;
    static final int MAX_LINE_CHARS = 300;
    private static final int TAIL_BYTES = 512 * 1024;
    private static final Pattern NOTABLE = Pattern.compile(" (WARN|ERROR) | dev\\.quarantine\\.");

    private LogExcerpt() {
    }

    /** At most {@link #MAX_LINES} notable lines from the end of {@code log}, oldest first; empty when unreadable. */
    static List<String> of(Path log) {
        String tail;
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long from = Math.max(0, file.length() - TAIL_BYTES);
            byte[] bytes = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(bytes);
            tail = new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
        Deque<String> lines = new ArrayDeque<>();
        for (String line : tail.split("\n")) {
            if (NOTABLE.matcher(line).find() && !line.startsWith("\tat ")) {
                lines.addLast(line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + " [...]" : line);
                if (lines.size() > MAX_LINES) {
                    lines.removeFirst();
                }
            }
        }
        return List.copyOf(lines);
    }
}
