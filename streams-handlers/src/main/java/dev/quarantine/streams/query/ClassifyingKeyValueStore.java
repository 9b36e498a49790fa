package dev.quarantine.streams.query;

import java.util.Set;
import java.util.function.Supplier;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.TaskId;
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
        V value;
        try {
            value = delegate.get(key);
        } catch (RuntimeException e) {
            throw guard.translate(e, key);
        }
        if (value == null) {
            guard.checkAbsentKey(key);
        }
        return value;
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
        try {
            return delegate.approximateNumEntries();
        } catch (RuntimeException e) {
            throw guard.translate(e, null);
        }
    }

    @Override
    public ReadOnlyKeyValueStore<K, V> readOnly(IsolationLevel isolationLevel) {
        try {
            return new ClassifyingKeyValueStore<>(delegate.readOnly(isolationLevel), guard);
        } catch (RuntimeException e) {
            throw guard.translate(e, null);
        }
    }

    private KeyValueIterator<K, V> iterate(Supplier<KeyValueIterator<K, V>> open) {
        Set<TaskId> atOpen = guard.openSnapshot();
        try {
            return new ClassifyingIterator<>(open.get(), guard, null, atOpen);
        } catch (RuntimeException e) {
            throw guard.translate(e, null);
        }
    }
}
