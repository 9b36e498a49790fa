package dev.quarantine.connect.rest.aggregation;

/**
 * A failure that a dead letter's content caused in the aggregation's own code ({@link DeadLetterProcessor} throws it,
 * with the failure as cause): the one kind of failure {@link RecordFaultsOnly} skips the record for. Its message names
 * the record by position, never its key, value or headers.
 */
final class RecordFault extends RuntimeException {

    RecordFault(String position, RuntimeException cause) {
        super("the dead letter at " + position + " failed the aggregation's processor (" + cause.getClass().getName()
                + ")", cause);
    }
}
