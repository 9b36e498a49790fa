package dev.quarantine.streams.query;

import java.time.Instant;
import java.util.function.Supplier;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/** A drop-in {@link ReadOnlyWindowStore} whose reads and iterators throw only classified store errors. */
final class ClassifyingWindowStore<K, V> implements ReadOnlyWindowStore<K, V> {

    private final ReadOnlyWindowStore<K, V> delegate;
    private final ReadGuard guard;

    ClassifyingWindowStore(ReadOnlyWindowStore<K, V> delegate, ReadGuard guard) {
        this.delegate = delegate;
        this.guard = guard;
    }

    @Override
    public V fetch(K key, long time) {
        return guard.read(key, () -> delegate.fetch(key, time));
    }

    @Override
    public WindowStoreIterator<V> fetch(K key, Instant timeFrom, Instant timeTo) {
        return iterateKey(key, () -> delegate.fetch(key, timeFrom, timeTo));
    }

    @Override
    public WindowStoreIterator<V> backwardFetch(K key, Instant timeFrom, Instant timeTo) {
        return iterateKey(key, () -> delegate.backwardFetch(key, timeFrom, timeTo));
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> fetch(K keyFrom, K keyTo, Instant timeFrom, Instant timeTo) {
        return iterate(() -> delegate.fetch(keyFrom, keyTo, timeFrom, timeTo));
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> backwardFetch(K keyFrom, K keyTo, Instant timeFrom, Instant timeTo) {
        return iterate(() -> delegate.backwardFetch(keyFrom, keyTo, timeFrom, timeTo));
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> all() {
        return iterate(delegate::all);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> backwardAll() {
        return iterate(delegate::backwardAll);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> fetchAll(Instant timeFrom, Instant timeTo) {
        return iterate(() -> delegate.fetchAll(timeFrom, timeTo));
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> backwardFetchAll(Instant timeFrom, Instant timeTo) {
        return iterate(() -> delegate.backwardFetchAll(timeFrom, timeTo));
    }

    @Override
    public ReadOnlyWindowStore<K, V> readOnly(IsolationLevel isolationLevel) {
        return guard.call(null, () -> new ClassifyingWindowStore<>(delegate.readOnly(isolationLevel), guard));
    }

    private WindowStoreIterator<V> iterateKey(K key, Supplier<WindowStoreIterator<V>> open) {
        return guard.iterator(key, open,
                (raw, atOpen) -> new ClassifyingWindowStoreIterator<>(raw, guard, key, atOpen));
    }

    private KeyValueIterator<Windowed<K>, V> iterate(Supplier<KeyValueIterator<Windowed<K>, V>> open) {
        return guard.iterator(null, open, (raw, atOpen) -> new ClassifyingIterator<>(raw, guard, null, atOpen));
    }
}
