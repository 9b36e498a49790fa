package dev.quarantine.streams.query;

import java.time.Instant;
import java.util.function.Supplier;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlySessionStore;

/** A drop-in {@link ReadOnlySessionStore} whose reads and iterators throw only classified store errors. */
final class ClassifyingSessionStore<K, AGG> implements ReadOnlySessionStore<K, AGG> {

    private final ReadOnlySessionStore<K, AGG> delegate;
    private final ReadGuard guard;

    ClassifyingSessionStore(ReadOnlySessionStore<K, AGG> delegate, ReadGuard guard) {
        this.delegate = delegate;
        this.guard = guard;
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> findSessions(K key, long earliestSessionEndTime, long latestSessionStartTime) {
        return iterate(key, () -> delegate.findSessions(key, earliestSessionEndTime, latestSessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> findSessions(K key, Instant earliestSessionEndTime, Instant latestSessionStartTime) {
        return iterate(key, () -> delegate.findSessions(key, earliestSessionEndTime, latestSessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> backwardFindSessions(K key, long earliestSessionEndTime, long latestSessionStartTime) {
        return iterate(key, () -> delegate.backwardFindSessions(key, earliestSessionEndTime, latestSessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> backwardFindSessions(K key, Instant earliestSessionEndTime, Instant latestSessionStartTime) {
        return iterate(key, () -> delegate.backwardFindSessions(key, earliestSessionEndTime, latestSessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> findSessions(K keyFrom, K keyTo, long earliestSessionEndTime, long latestSessionStartTime) {
        return iterate(null, () -> delegate.findSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> findSessions(K keyFrom, K keyTo, Instant earliestSessionEndTime, Instant latestSessionStartTime) {
        return iterate(null, () -> delegate.findSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> backwardFindSessions(K keyFrom, K keyTo, long earliestSessionEndTime, long latestSessionStartTime) {
        return iterate(null, () -> delegate.backwardFindSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> backwardFindSessions(K keyFrom, K keyTo, Instant earliestSessionEndTime, Instant latestSessionStartTime) {
        return iterate(null, () -> delegate.backwardFindSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime));
    }

    @Override
    public AGG fetchSession(K key, long sessionStartTime, long sessionEndTime) {
        return guard.read(key, () -> delegate.fetchSession(key, sessionStartTime, sessionEndTime));
    }

    @Override
    public AGG fetchSession(K key, Instant sessionStartTime, Instant sessionEndTime) {
        return guard.read(key, () -> delegate.fetchSession(key, sessionStartTime, sessionEndTime));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> fetch(K key) {
        return iterate(key, () -> delegate.fetch(key));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> backwardFetch(K key) {
        return iterate(key, () -> delegate.backwardFetch(key));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> fetch(K keyFrom, K keyTo) {
        return iterate(null, () -> delegate.fetch(keyFrom, keyTo));
    }

    @Override
    public KeyValueIterator<Windowed<K>, AGG> backwardFetch(K keyFrom, K keyTo) {
        return iterate(null, () -> delegate.backwardFetch(keyFrom, keyTo));
    }

    @Override
    public ReadOnlySessionStore<K, AGG> readOnly(IsolationLevel isolationLevel) {
        return guard.call(null, () -> new ClassifyingSessionStore<>(delegate.readOnly(isolationLevel), guard));
    }

    private KeyValueIterator<Windowed<K>, AGG> iterate(K key, Supplier<KeyValueIterator<Windowed<K>, AGG>> open) {
        return guard.iterator(key, open, (raw, atOpen) -> new ClassifyingIterator<>(raw, guard, key, atOpen));
    }
}
