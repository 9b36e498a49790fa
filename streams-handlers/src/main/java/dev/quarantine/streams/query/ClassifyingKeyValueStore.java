package dev.quarantine.streams.query;

import java.util.function.Supplier;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** A drop-in {@link ReadOnlyKeyValueStore} whose reads and iterators throw only classified store errors. */
final class ClassifyingKeyValueStore<K, V> implements ReadOnlyKeyValueStore<K, V> {

    private final ReadOnlyKeyValueStore<K, V> delegate;
    private final ReadGuard guard;

    ClassifyingKeyValueStore(ReadOnlyKeyValueStore<K, V> delegate, ReadGuard guard) {
        this.delegate = delegate;
        this.guard = guard;
    }

    @Override
    public V get(K key) {
        return guard.read(key, () -> delegate.get(key));
    }

    @Override
    public KeyValueIterator<K, V> range(K from, K to) {
        return iterate(() -> delegate.range(from, to));
    }

    @Override
    public KeyValueIterator<K, V> reverseRange(K from, K to) {
        return iterate(() -> delegate.reverseRange(from, to));
    }

    @Override
    public KeyValueIterator<K, V> all() {
        return iterate(delegate::all);
    }

    @Override
    public KeyValueIterator<K, V> reverseAll() {
        return iterate(delegate::reverseAll);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<K, V> prefixScan(P prefix, PS prefixKeySerializer) {
        return iterate(() -> delegate.prefixScan(prefix, prefixKeySerializer));
    }

    @Override
    public long approximateNumEntries() {
        return guard.call(null, delegate::approximateNumEntries);
    }

    @Override
    public ReadOnlyKeyValueStore<K, V> readOnly(IsolationLevel isolationLevel) {
        return guard.call(null, () -> new ClassifyingKeyValueStore<>(delegate.readOnly(isolationLevel), guard));
    }

    private KeyValueIterator<K, V> iterate(Supplier<KeyValueIterator<K, V>> open) {
        return guard.iterator(null, open, (raw, atOpen) -> new ClassifyingIterator<>(raw, guard, null, atOpen));
    }
}
