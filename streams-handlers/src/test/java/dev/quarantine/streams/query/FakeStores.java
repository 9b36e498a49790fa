package dev.quarantine.streams.query;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStoreIterator;

/** Stand-ins for Kafka's read-only stores and iterators, built as proxies so that every interface method is covered. */
final class FakeStores {

    private FakeStores() {
    }

    /** A store of interface {@code type} that answers every call with {@code handler}. */
    static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(FakeStores.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    /** A store or iterator whose every method throws {@code error}. */
    static <T> T failing(Class<T> type, RuntimeException error) {
        return proxy(type, (proxy, method, args) -> {
            throw error;
        });
    }

    /** Plausible arguments for {@code method}: a key, times, a serializer. */
    static Object[] argumentsFor(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            if (types[i] == long.class) {
                args[i] = 0L;
            } else if (types[i] == Instant.class) {
                args[i] = Instant.EPOCH;
            } else if (types[i] == Serializer.class) {
                args[i] = new StringSerializer();
            } else if (types[i] == IsolationLevel.class) {
                args[i] = IsolationLevel.READ_COMMITTED;
            } else {
                args[i] = "key";
            }
        }
        return args;
    }

    /** A canned answer of {@code method}'s return type: an empty iterator, a count, a value, or the store itself. */
    static Object answerFor(Object store, Method method) {
        Class<?> type = method.getReturnType();
        if (type == WindowStoreIterator.class) {
            return new ListIterator<Long, String>(List.of()).asWindowStoreIterator();
        }
        if (type == KeyValueIterator.class) {
            return new ListIterator<>(List.of());
        }
        if (type == long.class) {
            return 7L;
        }
        return type.isInstance(store) ? store : "value";
    }

    /** A {@link KeyValueIterator} over a list. */
    static final class ListIterator<K, V> implements KeyValueIterator<K, V> {
        private final Iterator<KeyValue<K, V>> entries;
        private KeyValue<K, V> peeked;
        boolean closed;

        ListIterator(List<KeyValue<K, V>> entries) {
            this.entries = new ArrayList<>(entries).iterator();
        }

        @Override
        public boolean hasNext() {
            return peeked != null || entries.hasNext();
        }

        @Override
        public KeyValue<K, V> next() {
            if (peeked != null) {
                KeyValue<K, V> next = peeked;
                peeked = null;
                return next;
            }
            return entries.next();
        }

        @Override
        public K peekNextKey() {
            if (peeked == null) {
                if (!entries.hasNext()) {
                    throw new NoSuchElementException();
                }
                peeked = entries.next();
            }
            return peeked.key;
        }

        @Override
        public void close() {
            closed = true;
        }

        @SuppressWarnings("unchecked")
        WindowStoreIterator<V> asWindowStoreIterator() {
            ListIterator<Long, V> self = (ListIterator<Long, V>) this;
            return new WindowStoreIterator<>() {
                @Override
                public void close() {
                    self.close();
                }

                @Override
                public Long peekNextKey() {
                    return self.peekNextKey();
                }

                @Override
                public boolean hasNext() {
                    return self.hasNext();
                }

                @Override
                public KeyValue<Long, V> next() {
                    return self.next();
                }
            };
        }
    }
}
