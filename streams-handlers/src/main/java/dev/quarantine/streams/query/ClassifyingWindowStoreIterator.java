package dev.quarantine.streams.query;

import java.util.Set;

import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.WindowStoreIterator;

/** A classifying {@link WindowStoreIterator}: window start timestamps as keys, see {@link ClassifyingIterator}. */
final class ClassifyingWindowStoreIterator<V> extends ClassifyingIterator<Long, V> implements WindowStoreIterator<V> {

    ClassifyingWindowStoreIterator(WindowStoreIterator<V> delegate, ReadGuard guard, Object key, Set<TaskId> atOpen) {
        super(delegate, guard, key, atOpen);
    }
}
