package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;

/**
 * Admin clients of the target and the source cluster, created on first use (a task that never meets a new target
 * topic never connects them) and shared when both clusters are reached with the same settings.
 */
final class ClusterAdmins implements AutoCloseable {

    private final Map<String, Object> targetConfigs;
    private final Map<String, Object> sourceConfigs;
    private Admin target;
    private Admin source;

    ClusterAdmins(Map<String, Object> targetConfigs, Map<String, Object> sourceConfigs) {
        this.targetConfigs = Map.copyOf(targetConfigs);
        this.sourceConfigs = Map.copyOf(sourceConfigs);
    }

    synchronized Admin target() {
        if (target == null) {
            target = Admin.create(targetConfigs);
        }
        return target;
    }

    synchronized Admin source() {
        if (sourceConfigs.equals(targetConfigs)) {
            return target();
        }
        if (source == null) {
            source = Admin.create(sourceConfigs);
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
