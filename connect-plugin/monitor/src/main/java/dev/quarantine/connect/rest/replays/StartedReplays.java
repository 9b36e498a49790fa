package dev.quarantine.connect.rest.replays;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The replays whose connector this monitor created (or found, answering a retried start) and whose first progress it
 * has not read yet: what it knows of a replay while its worker's group rebalances after the creation, when the worker
 * cannot say whether the connector exists ({@link ProgressAnswer}). A replay leaves once its progress is read or it is
 * cancelled here; at most {@value #MAX} are kept (the oldest leave first, and are then asked of the worker again).
 * A connector deleted through Connect's own API before its task committed anything stays STARTING here until then.
 */
final class StartedReplays {

    static final int MAX = 1_000;

    private final Map<String, String> topicById = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MAX;
        }
    };

    synchronized void add(String id, String topic) {
        topicById.put(id, topic);
    }

    /** Whether the replay {@code id} of {@code topic} was started here and has shown no progress yet. */
    synchronized boolean contains(String id, String topic) {
        return topic.equals(topicById.get(id));
    }

    synchronized void remove(String id) {
        topicById.remove(id);
    }
}
