package dev.quarantine.connect.sink.write;

import dev.quarantine.connect.sink.ownership.Caused;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.ownership.SlotProducer.Sent;

/** The cause a {@code SlotProducer}'s answer carries, for the answers that carry one ({@link Caused}). */
public final class SlotAnswers {

    private SlotAnswers() {
    }

    public static Throwable cause(Sent sent) {
        return causeOf(sent, "an accepted send has no cause");
    }

    public static Throwable cause(End end) {
        return causeOf(end, "a transaction that ended has no cause");
    }

    /** The cause {@code answer} carries. @throws IllegalStateException with {@code otherwise} if it carries none */
    static Throwable causeOf(Object answer, String otherwise) {
        if (answer instanceof Caused caused) {
            return caused.cause();
        }
        throw new IllegalStateException(otherwise);
    }
}
