package dev.quarantine.connect.rest;

import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.rest.ConnectRestExtension;
import org.apache.kafka.connect.rest.ConnectRestExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.PluginVersion;

/**
 * Monitors the cluster's dead-letter topics and answers on the worker's own REST API: {@code GET /dead-letters},
 * {@code /dead-letters/{topic}} and {@code /dead-letters/{topic}/records}. Enable it with the worker setting
 * {@code rest.extension.classes=dev.quarantine.connect.rest.DeadLetterRestExtension}; its settings are worker settings
 * starting with {@code quarantine.monitor.} ({@link MonitorConfig}).
 *
 * <p>An embedded Kafka Streams application, on the worker's own kafka-streams, aggregates the dead-letter topics; the
 * workers of a Connect cluster share it and ask each other for their shares. On a worker that cannot run it
 * ({@link MonitorRequirements}: Connect 3.x, no kafka-streams) the worker still starts: one ERROR line says what is
 * missing and how to fix it, and {@code /dead-letters} answers 501 with the same words ({@link RefusalEndpoint}).
 * This class only wires: configuration, the requirements, the monitor.
 */
public final class DeadLetterRestExtension implements ConnectRestExtension {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterRestExtension.class);

    private Map<String, ?> workerConfigs;
    private MonitorConfig config;
    private MonitorRequirements.Worker worker;
    private Optional<MonitorRequirements.Refusal> refusal = Optional.empty();
    private RunningMonitor running;

    @Override
    public void configure(Map<String, ?> workerConfigs) {
        this.workerConfigs = workerConfigs;
        config = new MonitorConfig(workerConfigs);
        worker = MonitorRequirements.Worker.detect(DeadLetterRestExtension.class.getClassLoader());
        refusal = MonitorRequirements.refusal(worker);
    }

    @Override
    public void register(ConnectRestExtensionContext context) {
        if (refusal.isEmpty()) {
            running = RunningMonitor.start(config, workerConfigs, context);
            return;
        }
        refuse(context, refusal.get().reason());
    }

    /** The one ERROR line of a refusal, and {@code /dead-letters} answering 501 with its reason. */
    private void refuse(ConnectRestExtensionContext context, String reason) {
        try {
            RefusalEndpoint.register(context, worker.jakartaRest(), reason);
        } catch (IllegalStateException e) {
            log.error("Dead-letter monitor disabled: {} {} (/dead-letters could not be registered to answer 501: {})",
                    getClass().getSimpleName(), reason, e.getMessage(), e.getCause());
            return;
        }
        log.error("Dead-letter monitor disabled: {} {}", getClass().getSimpleName(), reason);
    }

    @Override
    public ConfigDef config() {
        return MonitorConfig.configDef();
    }

    @Override
    public String version() {
        return PluginVersion.of(DeadLetterRestExtension.class);
    }

    @Override
    public void close() {
        if (running != null) {
            running.close();
        }
    }
}
