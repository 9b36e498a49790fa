package dev.quarantine.replay;

import java.util.Optional;

/**
 * What happened to one dead letter, for a {@link ReplayListener}: coordinates and names only, never a key or value.
 *
 * @param position    {@code topic-partition@offset} of the dead letter
 * @param outcome     what the replay did with it
 * @param destination where it went ({@code topic} or {@code topic-partition}): its destination, or the dead-letter or
 *                    parking topic when it failed again; the refused topic when REFUSED_DESTINATION; empty when
 *                    skipped
 * @param errorClass  the exception class that dead-lettered it, when its headers say
 * @param reason      why it was unroutable or refused (names headers and settings, never a header's value)
 */
public record RecordReport(String position, Outcome outcome, Optional<String> destination,
                           Optional<String> errorClass, Optional<String> reason) {
}
