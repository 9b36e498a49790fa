package dev.quarantine.streams.query;

import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.TaskId;

/**
 * What every wrapped store and iterator shares: the store being read and the classifier. It turns a raw error into
 * a classified one, tells "no value here" apart from "the key lives elsewhere", and notices an iteration that ended
 * early because the store closed under it.
 */
final class ReadGuard {

    private final StreamsView streams;
    private final Classifier classifier;
    private final Target target;

    ReadGuard(StreamsView streams, Classifier classifier, Target target) {
        this.streams = streams;
        this.classifier = classifier;
        this.target = target;
    }

    /** The exception to throw instead of {@code error}: a caller error as is, any other one classified. */
    RuntimeException translate(RuntimeException error, Object key) {
        return Classifier.isCallerError(error) ? error : classifier.classify(error, target.withKey(key));
    }

    /** Runs a read by {@code key}: its error translated, and its {@code null} checked as {@link #checkAbsentKey}. */
    <T> T read(Object key, Supplier<T> read) {
        T value = call(key, read);
        if (value == null) {
            checkAbsentKey(key);
        }
        return value;
    }

    /** Runs {@code call} with its error translated ({@code key}: the key read, or {@code null}). */
    <T> T call(Object key, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw translate(e, key);
        }
    }

    /**
     * Opens an iterator with the serving tasks taken first ({@link #openSnapshot}), wrapped by {@code wrap}, which
     * is given the raw iterator and that snapshot; an error of the opening translated.
     */
    <I, W> W iterator(Object key, Supplier<I> open, BiFunction<I, Set<TaskId>, W> wrap) {
        Set<TaskId> atOpen = openSnapshot();
        return call(key, () -> wrap.apply(open.get(), atOpen));
    }

    /**
     * Called when a read by key found nothing locally. Kafka's local stores answer {@code null} for a key that lives
     * on another instance; when the key serializer is known this throws {@link StateStoreMigratedException} for such a
     * key, and {@link StateStoreRetryableException} while Kafka cannot tell where the key lives.
     */
    void checkAbsentKey(Object key) {
        Target keyTarget = target.withKey(key);
        if (!keyTarget.locatesKey()) {
            return;
        }
        Location where = classifier.locator().locate(keyTarget);
        if (where.kind() == Location.Kind.ELSEWHERE || where.kind() == Location.Kind.NOT_AVAILABLE) {
            throw classifier.classify(new InvalidStateStoreException("the key is not hosted by this instance"), keyTarget);
        }
    }

    /** The tasks serving the store now, taken when an iterator opens, to notice later that one went away. */
    Set<TaskId> openSnapshot() {
        try {
            return filter(streams.localTasks(target.staleStores()));
        } catch (RuntimeException e) {
            return Set.of();
        }
    }

    /**
     * Called once, when an iterator's delegate reports its end. An in-memory store that closes (its task moved or
     * the instance stopped) ends open iterators silently; that incomplete answer becomes a classified error.
     *
     * @param empty whether the iteration returned nothing, so that a key read can be checked for living elsewhere
     */
    void checkIterationComplete(Set<TaskId> atOpen, boolean empty, Object key) {
        boolean running = streams.state().isRunningOrRebalancing();
        if (!running || !stillServing(atOpen)) {
            throw classifier.classify(new InvalidStateStoreException("The iterator over " + target.describe()
                    + " ended early: a task serving it closed while it was open"), target.withKey(key));
        }
        if (empty) {
            checkAbsentKey(key);
        }
    }

    private boolean stillServing(Set<TaskId> atOpen) {
        if (atOpen.isEmpty()) {
            return true;
        }
        try {
            return filter(streams.localTasks(target.staleStores())).containsAll(atOpen);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Set<TaskId> filter(Set<TaskId> tasks) {
        if (target.partition() == null) {
            return tasks;
        }
        int partition = target.partition();
        return tasks.stream().filter(task -> task.partition() == partition).collect(Collectors.toSet());
    }
}
