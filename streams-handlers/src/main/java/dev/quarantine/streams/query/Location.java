package dev.quarantine.streams.query;

import org.apache.kafka.streams.state.HostInfo;

/** Where the application's metadata says a store, partition or key lives, as seen from this instance. */
record Location(Kind kind, HostInfo owner) {

    enum Kind {
        /** This instance hosts it. */
        HERE,
        /** Another instance hosts it: {@link #owner()}. */
        ELSEWHERE,
        /** The metadata is complete and no instance hosts it. */
        NOWHERE,
        /** Kafka's metadata is not ready ({@code KeyQueryMetadata.NOT_AVAILABLE}): it is being rebalanced. */
        NOT_AVAILABLE,
        /** The metadata cannot tell (no {@code application.server}, this instance's host not given, not running). */
        UNKNOWN
    }

    static final Location HERE = new Location(Kind.HERE, null);
    static final Location NOWHERE = new Location(Kind.NOWHERE, null);
    static final Location NOT_AVAILABLE = new Location(Kind.NOT_AVAILABLE, null);
    static final Location UNKNOWN = new Location(Kind.UNKNOWN, null);

    static Location elsewhere(HostInfo owner) {
        return new Location(Kind.ELSEWHERE, owner);
    }
}
