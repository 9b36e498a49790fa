package dev.quarantine.connect.rest.replays;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Uuid;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayProgressReader;

/**
 * The monitor's one reader of the replays' progress topic ({@value ReplayConfig#PROGRESS_TOPIC_DEFAULT}): what is
 * committed there now, without waiting for transactions still open ({@link ReplayProgressReader#latest}). The reader
 * is not thread-safe, so calls take turns; it is created at the first call and closed with this object.
 */
final class CommittedProgress implements AutoCloseable {

    private final Map<String, Object> clientConfigs;
    private final Duration timeout;
    private ReplayProgressReader reader;

    CommittedProgress(Map<String, Object> clientConfigs, Duration timeout) {
        this.clientConfigs = clientConfigs;
        this.timeout = timeout;
    }

    /** The replay's latest committed progress. @throws MonitorException 503 when the topic cannot be read */
    Optional<ReplayProgress> latest(String id) {
        try {
            return withReader(r -> r.latest(id));
        } catch (KafkaException e) {
            throw MonitorException.unavailable("the replays' progress topic could not be read; retry later",
                    "could not read the replays' progress topic", e);
        }
    }

    /** The replay's latest committed progress when it is a replay of {@code topic}. */
    Optional<ReplayProgress> latestOf(String topic, String id) {
        return latest(id).filter(p -> p.dlqTopic().equals(topic));
    }

    /** The id {@code topic} has now; empty when it does not exist. @throws MonitorException 503 */
    Optional<Uuid> topicId(String topic) {
        try {
            return withReader(r -> r.topicId(topic));
        } catch (KafkaException e) {
            throw MonitorException.unavailable(topic + " could not be described; retry later",
                    "could not describe " + topic, e);
        }
    }

    private synchronized <T> T withReader(Function<ReplayProgressReader, T> call) {
        if (reader == null) {
            reader = new ReplayProgressReader(clientConfigs, ReplayConfig.PROGRESS_TOPIC_DEFAULT, timeout);
        }
        return call.apply(reader);
    }

    @Override
    public synchronized void close() {
        if (reader != null) {
            reader.close();
        }
    }
}
