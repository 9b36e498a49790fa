package dev.quarantine.connect.rest.http;

/**
 * Text from outside the worker made fit for one log line: a path or query parameter, a header value, a request body,
 * a connector name, anything read from a dead-letter record's headers. Whoever sends it could otherwise forge log
 * lines (a CR or LF starts a new one) or hide text (terminal escapes, bidirectional overrides). The one place the
 * monitor escapes such text before logging it:
 *
 * <pre>
 * character                                   | logged as
 * --------------------------------------------+----------------------
 * backslash                                   | \\
 * CR, LF, tab                                 | \r, \n, \t
 * other control characters (C0, DEL, C1),     | &#92;uXXXX
 * line/paragraph separators U+2028, U+2029,   |
 * bidirectional controls U+202A-U+202E,       |
 * U+2066-U+2069                               |
 * anything past {@link #MAX_CHARS}            | cut, marked "..."
 * </pre>
 * Backslashes are doubled so that an escaped line cannot be mistaken for text that was escaped once already.
 */
public final class LogText {

    /** Longest text logged from one value. */
    static final int MAX_CHARS = 1_000;

    private LogText() {
    }

    /** {@code text} (its {@code toString()}) escaped and bounded; {@code "null"} for null. */
    public static String escape(Object text) {
        if (text == null) {
            return "null";
        }
        String raw = text.toString();
        StringBuilder escaped = new StringBuilder(Math.min(raw.length(), MAX_CHARS) + 16);
        int end = Math.min(raw.length(), MAX_CHARS);
        for (int i = 0; i < end; i++) {
            append(escaped, raw.charAt(i));
        }
        return raw.length() > MAX_CHARS ? escaped.append("...").toString() : escaped.toString();
    }

    private static void append(StringBuilder escaped, char c) {
        switch (c) {
            case '\\' -> escaped.append("\\\\");
            case '\r' -> escaped.append("\\r");
            case '\n' -> escaped.append("\\n");
            case '\t' -> escaped.append("\\t");
            default -> {
                if (hidden(c)) {
                    escaped.append(String.format("\\u%04X", (int) c));
                } else {
                    escaped.append(c);
                }
            }
        }
    }

    private static boolean hidden(char c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069');
    }
}
