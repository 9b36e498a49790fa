package dev.quarantine.connect.rest.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The chain of causes of a failure, the one walk of it in the monitor: {@code error}, its cause, the cause's cause,
 * each once. A cycle of causes ({@code initCause} can make one) ends the chain instead of holding the thread that
 * reads it (the monitor's discovery thread, a stream thread's uncaught-exception handler).
 */
public final class Causes {

    private Causes() {
    }

    /** {@code error} and its causes, outermost first, each once; empty for null. */
    public static List<Throwable> of(Throwable error) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = error; cause != null && seen.add(cause); cause = cause.getCause()) {
            chain.add(cause);
        }
        return chain;
    }

    /** Whether {@code error} or one of its causes is a {@code type}. */
    public static boolean include(Throwable error, Class<? extends Throwable> type) {
        return of(error).stream().anyMatch(type::isInstance);
    }

    /** The innermost cause of {@code error} ({@code error} itself when it has none). */
    public static Throwable root(Throwable error) {
        List<Throwable> chain = of(error);
        return chain.get(chain.size() - 1);
    }
}
