package dev.quarantine.connect.sink.write;

import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.ownership.SlotProducer.Sent;

/** The cause a {@code SlotProducer}'s answer carries, for the answers that carry one. */
public final class SlotAnswers {

    private SlotAnswers() {
    }

    public static Throwable cause(Sent sent) {
        if (sent instanceof Sent.Skipped skipped) {
            return skipped.cause();
        }
        if (sent instanceof Sent.Failed failed) {
            return failed.cause();
        }
        throw new IllegalStateException("an accepted send has no cause");
    }

    public static Throwable cause(End end) {
        if (end instanceof End.Fenced e) {
            return e.cause();
        }
        if (end instanceof End.MaybeDone e) {
            return e.cause();
        }
        if (end instanceof End.Transient e) {
            return e.cause();
        }
        if (end instanceof End.Fatal e) {
            return e.cause();
        }
        throw new IllegalStateException("a transaction that ended has no cause");
    }
}
