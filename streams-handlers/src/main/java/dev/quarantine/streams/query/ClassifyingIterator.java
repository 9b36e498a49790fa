package dev.quarantine.streams.query;

import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A {@link KeyValueIterator} whose every call throws a classified error instead of a raw one, including when the
 * store closes while the iterator is open (RocksDB throws "has closed"; an in-memory store just stops, which
 * {@link ReadGuard#checkIterationComplete} turns into an error).
 */
class ClassifyingIterator<K, V> implements KeyValueIterator<K, V> {

    private final KeyValueIterator<K, V> delegate;
    private final ReadGuard guard;
    private final Object key;
    private final Set<TaskId> atOpen;
    private boolean empty = true;
    private boolean ended;
    private boolean closed;

    /**
     * @param key the key the iterator was opened for, to tell "none here" from "lives elsewhere"; {@code null} for
     *            ranges and scans
     */
    ClassifyingIterator(KeyValueIterator<K, V> delegate, ReadGuard guard, Object key, Set<TaskId> atOpen) {
        this.delegate = delegate;
        this.guard = guard;
        this.key = key;
        this.atOpen = atOpen;
    }

    @Override
    public boolean hasNext() {
        ensureOpen();
        boolean more;
        try {
            more = delegate.hasNext();
        } catch (RuntimeException e) {
            throw guard.translate(e, key);
        }
        if (!more) {
            checkEnd();
        }
        return more;
    }

    @Override
    public KeyValue<K, V> next() {
        KeyValue<K, V> next = step(delegate::next);
        empty = false;
        return next;
    }

    @Override
    public K peekNextKey() {
        return step(delegate::peekNextKey);
    }

    /** A call that may meet the end: the end is checked ({@link #checkEnd}) before it is thrown; others translated. */
    private <T> T step(Supplier<T> call) {
        ensureOpen();
        try {
            return call.get();
        } catch (NoSuchElementException e) {
            checkEnd();
            throw e;
        } catch (RuntimeException e) {
            throw guard.translate(e, key);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            delegate.close();
        } catch (RuntimeException e) {
            throw guard.translate(e, key);
        }
    }

    private void checkEnd() {
        if (!ended) {
            guard.checkIterationComplete(atOpen, empty, key);
            ended = true;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The iterator has already been closed");
        }
    }
}
