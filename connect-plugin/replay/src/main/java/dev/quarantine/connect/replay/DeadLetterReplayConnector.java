package dev.quarantine.connect.replay;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.txn.PluginVersion;

/**
 * One bounded replay of a dead-letter topic, run by one task on whichever worker Connect picks: the replay survives
 * the worker that started it. Exactly once through the replay's own transactions ({@link ReplayTask}); Connect's
 * source offsets are not used. Settings: {@link ReplayConfig}; {@code replay.id} defaults to the connector's name.
 */
public class DeadLetterReplayConnector extends SourceConnector {

    private Map<String, String> props;

    @Override
    public String version() {
        return PluginVersion.of(DeadLetterReplayConnector.class);
    }

    /**
     * Checks the settings, the ones a writing replay needs included ({@code replay.destinations.allowed} for the
     * destinations 'original' and 'source'); nothing is read or written before the task starts.
     */
    @Override
    public void start(Map<String, String> props) {
        Map<String, String> settings = ReplayConnectorSettings.withReplayId(props);
        new ReplayConfig(settings).requireWritable();
        this.props = Map.copyOf(settings);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return DeadLetterReplayTask.class;
    }

    /** One task, whatever {@code tasks.max} says: a replay is one reader of its range and one transactional writer. */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(new HashMap<>(props));
    }

    @Override
    public void stop() {
        props = null;
    }

    @Override
    public ConfigDef config() {
        return ReplayConfig.configDef();
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        return ReplayConnectorSettings.validate(super.validate(ReplayConnectorSettings.withReplayId(connectorConfigs)),
                connectorConfigs);
    }

    /**
     * The task writes nothing through Connect's producer (it returns no records), so a worker with exactly-once
     * source support may run it: the replay's exactly-once comes from its own transactions.
     */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.SUPPORTED;
    }
}
