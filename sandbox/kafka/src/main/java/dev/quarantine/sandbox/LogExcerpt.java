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
 * the log files. A line counts when it starts a record logged at WARN or ERROR, or by this project's own code (its
 * INFO lines say why an answer was 503, which worker did not answer), or names a cause ({@code Caused by:}) or an
 * exception that ended a thread; never an indented line (stack frames, suppressed exceptions, a config dump). Reads
 * the log's tail only, cuts each line and replaces control characters, so a flooded or hostile log keeps the failure
 * short and one line per line. It shows what the log holds: the sandbox's brokers and workers never log record keys
 * or values (no test sets Connect's {@code errors.log.include.messages}).
 */
final class LogExcerpt {

    static final int MAX_LINES = 12;
    static final int MAX_LINE_CHARS = 300;
    static final int TAIL_BYTES = 512 * 1024;
    private static final Pattern NOTABLE = Pattern.compile(
            " (WARN|ERROR) | dev\\.quarantine\\.|^Caused by: |^Exception in thread ");
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    private LogExcerpt() {
    }

    /** At most {@link #MAX_LINES} notable lines from the end of {@code log}, oldest first; empty when unreadable. */
    static List<String> of(Path log) {
        String tail;
        long from;
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            from = Math.max(0, file.length() - TAIL_BYTES);
            byte[] bytes = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(bytes);
            tail = new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
        if (from > 0) { // the first line is a fragment, maybe of a character cut in two
            int firstNewline = tail.indexOf('\n');
            tail = firstNewline < 0 ? "" : tail.substring(firstNewline + 1);
        }
        Deque<String> lines = new ArrayDeque<>();
        for (String line : tail.split("\r?\n")) {
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && NOTABLE.matcher(line).find()) {
                lines.addLast(shown(line));
                if (lines.size() > MAX_LINES) {
                    lines.removeFirst();
                }
            }
        }
        return List.copyOf(lines);
    }

    private static String shown(String line) {
        String cut = line;
        if (line.length() > MAX_LINE_CHARS) {
            int end = Character.isHighSurrogate(line.charAt(MAX_LINE_CHARS - 1)) ? MAX_LINE_CHARS - 1 : MAX_LINE_CHARS;
            cut = line.substring(0, end) + " [...]";
        }
        return CONTROL.matcher(cut).replaceAll("?");
    }
}
