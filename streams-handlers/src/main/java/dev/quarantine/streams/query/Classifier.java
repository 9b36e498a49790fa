package dev.quarantine.streams.query;

import java.util.Locale;
import java.util.NoSuchElementException;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.errors.StreamsNotStartedException;
import org.apache.kafka.streams.errors.StreamsStoppedException;
import org.apache.kafka.streams.errors.UnknownStateStoreException;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The classification rule (see the table on {@link StoreQueries}): Kafka's specific exception types first, then the
 * instance's state at the moment of the error, then whether this instance still hosts what was asked for; message
 * text only where Kafka has no type for the case (a store of the wrong type).
 */
final class Classifier {

    /** How the error itself points, before state and metadata are consulted. */
    private enum Hint {
        NONE,
        /** Kafka says the store or partition is not here (which may be because the instance is rebalancing). */
        NOT_HERE,
        /** The store is here but behind (IQv2 NOT_UP_TO_BOUND). */
        BEHIND
    }

    private final StreamsView streams;
    private final Locator locator;

    Classifier(StreamsView streams, HostInfo self) {
        this.streams = streams;
        this.locator = new Locator(streams, self);
    }

    Locator locator() {
        return locator;
    }

    /**
     * Errors that are the caller's own, not the store's: an exhausted iterator, an operation the store does not
     * support, an illegal or null argument. They pass through unchanged.
     */
    static boolean isCallerError(RuntimeException error) {
        return error instanceof NoSuchElementException || error instanceof UnsupportedOperationException
                || error instanceof IllegalArgumentException || error instanceof NullPointerException;
    }

    /** Classifies an exception thrown by a store lookup, a read or an iterator; always one of the three. */
    InvalidStateStoreException classify(Throwable error, Target target) {
        if (error instanceof StateStoreRetryableException || error instanceof StateStoreMigratedException
                || error instanceof StateStoreFailException) {
            return (InvalidStateStoreException) error;
        }
        if (error instanceof UnknownStateStoreException) {
            return new StateStoreFailException("Store " + target.storeName() + " is not in the topology", error);
        }
        if (error instanceof StreamsStoppedException) {
            return new StateStoreFailException("Kafka Streams has stopped and no longer serves " + target.describe(), error);
        }
        if (error instanceof StreamsNotStartedException) {
            return new StateStoreRetryableException("Kafka Streams has not started yet; " + target.describe()
                    + " can be queried once it runs", error);
        }
        if (isWrongStoreType(error)) {
            return new StateStoreFailException(target.describe() + " has another type than the one queried", error);
        }
        Hint hint = error instanceof InvalidStateStorePartitionException || saysMigrated(error) ? Hint.NOT_HERE : Hint.NONE;
        return decide(error.getClass().getSimpleName() + ": " + error.getMessage(), error, target, hint);
    }

    /** Classifies a failed IQv2 result ({@code KafkaStreams.query}) for one partition, or the global result. */
    InvalidStateStoreException classify(FailureReason reason, String message, Target target) {
        String what = "IQv2 " + reason + ": " + message;
        switch (reason) {
            case NOT_UP_TO_BOUND:
                return decide(what, null, target, Hint.BEHIND);
            case NOT_ACTIVE:
            case NOT_PRESENT:
                return decide(what, null, target, Hint.NOT_HERE);
            case DOES_NOT_EXIST:
            case UNKNOWN_QUERY_TYPE:
                return new StateStoreFailException(target.describe() + " cannot answer this query (" + what + ")", null);
            case STORE_EXCEPTION:
            default:
                return decide(what, null, target, Hint.NONE);
        }
    }

    private InvalidStateStoreException decide(String what, Throwable cause, Target target, Hint hint) {
        KafkaStreams.State state = streams.state();
        if (state == KafkaStreams.State.CREATED) {
            return new StateStoreRetryableException("Kafka Streams has not started yet; cannot query "
                    + target.describe() + " (" + what + ")", cause);
        }
        if (!state.isRunningOrRebalancing()) {
            return new StateStoreFailException("Kafka Streams is " + state + "; cannot query " + target.describe()
                    + " (" + what + ")", cause);
        }
        Location where = locator.locate(target);
        switch (where.kind()) {
            case ELSEWHERE:
                return migrated(target, where.owner(), what, cause);
            case HERE:
            case NOT_AVAILABLE:
                return retryable(state, target, what, cause);
            default:
                break;
        }
        if (hint == Hint.NOT_HERE && state == KafkaStreams.State.RUNNING) {
            if (where.kind() == Location.Kind.NOWHERE && target.partition() != null) {
                return new StateStoreFailException("No instance of the application hosts " + target.describe()
                        + " (" + what + ")", cause);
            }
            return migrated(target, null, what, cause);
        }
        return retryable(state, target, what, cause);
    }

    private static StateStoreRetryableException retryable(KafkaStreams.State state, Target target, String what,
                                                          Throwable cause) {
        return new StateStoreRetryableException(target.describe() + " cannot be read on this instance right now; Kafka Streams is "
                + state + " (" + what + ")", cause);
    }

    private static StateStoreMigratedException migrated(Target target, HostInfo owner, String what, Throwable cause) {
        String where = owner == null ? "another instance (owner unknown)" : owner.host() + ":" + owner.port();
        String subject = target.locatesKey() ? "the key's partition of " + target.storeName() : target.describe();
        return new StateStoreMigratedException(subject + " is hosted on " + where + " (" + what + ")", cause, owner);
    }

    /** Kafka has no type for it: {@code StreamThreadStateStoreProvider} says "... does not accept the actual store type". */
    private static boolean isWrongStoreType(Throwable error) {
        return error instanceof InvalidStateStoreException && messageContains(error, "does not accept the actual store type");
    }

    /** Kafka throws the base type with "may have migrated" / "may have been migrated" when no local task has it. */
    private static boolean saysMigrated(Throwable error) {
        return error instanceof InvalidStateStoreException && messageContains(error, "migrated");
    }

    private static boolean messageContains(Throwable error, String text) {
        return error.getMessage() != null && error.getMessage().toLowerCase(Locale.ROOT).contains(text);
    }
}
