package dev.quarantine.replay;

/**
 * Where a replayed record that failed again goes: back to the dead-letter topic, with its replay count, while it has
 * attempts left; to the parking topic once it has been replayed {@code replay.max.attempts} times. The replay never
 * sends a record to a place it can fail from forever.
 *
 * <table>
 * <caption>Loop guard</caption>
 * <tr><th>replay count of the failed attempt (1 = first replay)</th><th>decision</th></tr>
 * <tr><td>below {@code replay.max.attempts}</td><td>DEAD_LETTER_AGAIN</td></tr>
 * <tr><td>{@code replay.max.attempts} or more</td><td>PARK</td></tr>
 * </table>
 */
final class LoopGuard {

    enum Decision { DEAD_LETTER_AGAIN, PARK }

    private final int maxAttempts;

    LoopGuard(int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts is " + maxAttempts + ", must be at least 1");
        }
        this.maxAttempts = maxAttempts;
    }

    Decision decide(int replayCount) {
        return replayCount < maxAttempts ? Decision.DEAD_LETTER_AGAIN : Decision.PARK;
    }
}
