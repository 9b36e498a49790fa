package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

import org.apache.kafka.clients.admin.Admin;

/**
 * Admin clients of the target and the source cluster, created on first use (a task that never meets a new target
 * topic never connects them) and shared when both clusters are reached with the same settings.
 */
public final class ClusterAdmins implements AutoCloseable {

    private final Map<String, Object> targetConfigs;
    private final Map<String, Object> sourceConfigs;
    private final Function<Map<String, Object>, Admin> create;
    private Admin target;
    private Admin source;

    public ClusterAdmins(Map<String, Object> targetConfigs, Map<String, Object> sourceConfigs) {
        this(targetConfigs, sourceConfigs, Admin::create);
    }

    /** For tests: {@code create} builds each admin client from its configs (a counting one, say). */
    public ClusterAdmins(Map<String, Object> targetConfigs, Map<String, Object> sourceConfigs,
                  Function<Map<String, Object>, Admin> create) {
        this.targetConfigs = Map.copyOf(targetConfigs);
        this.sourceConfigs = Map.copyOf(sourceConfigs);
        this.create = create;
    }

    public synchronized Admin target() {
        if (target == null) {
            target = create.apply(targetConfigs);
        }
        return target;
    }

    public synchronized Admin source() {
        if (sourceConfigs.equals(targetConfigs)) {
            return target();
        }
        if (source == null) {
            source = create.apply(sourceConfigs);
        }
        return source;
    }

    @Override
    public synchronized void close() {
        if (source != null) {
            source.close(Duration.ofSeconds(5));
        }
        if (target != null) {
            target.close(Duration.ofSeconds(5));
        }
    }
}
