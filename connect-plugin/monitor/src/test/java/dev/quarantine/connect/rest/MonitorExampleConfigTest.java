package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.connect.runtime.distributed.DistributedConfig;
import org.apache.kafka.connect.runtime.rest.RestServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.ExampleConfigs;

/**
 * config/connect-distributed.properties with the lines of config/dead-letter-monitor.properties added, as the
 * monitor's example tells users to: it parses as a distributed worker's DistributedConfig and as our MonitorConfig,
 * the peer secret read through the FileConfigProvider the example sets up.
 */
class MonitorExampleConfigTest {

    private static final String WORKER_EXAMPLE = "connect-distributed.properties";
    private static final String MONITOR_EXAMPLE = "dead-letter-monitor.properties";
    /** Where the example keeps the secret; the test points the reference at a file of its own. */
    private static final String SECRETS_FILE = "/etc/kafka/quarantine-secrets.properties";
    private static final String SECRET = "a-secret-of-at-least-32-characters-0123456789-bdgjkmnpquvwxyz";

    @TempDir
    Path dir;

    @Test
    void everySettingOfTheMonitorExampleIsReadByTheWorkerOrTheMonitor() throws Exception {
        Map<String, String> monitor = ExampleConfigs.properties(MONITOR_EXAMPLE);
        Set<String> workerSettings = new DistributedConfig(workerWithMonitor()).values().keySet();

        assertThat(monitor.keySet()).as("settings of config/%s", MONITOR_EXAMPLE).isNotEmpty().allSatisfy(key ->
                assertThat(workerSettings.contains(key) || MonitorConfig.configDef().names().contains(key)
                        || key.startsWith(AbstractConfig.CONFIG_PROVIDERS_CONFIG + "."))
                        .as("%s is a setting of the worker or the monitor", key).isTrue());
    }

    @Test
    void theWorkerExampleWithTheMonitorLinesParsesAsAWorkerRunningTheMonitor() throws Exception {
        Map<String, String> settings = workerWithMonitor();

        DistributedConfig worker = new DistributedConfig(settings);
        MonitorConfig monitor = new MonitorConfig(settings);

        assertThat(worker.getList(RestServerConfig.REST_EXTENSION_CLASSES_CONFIG))
                .containsExactly(DeadLetterRestExtension.class.getName());
        assertThat(monitor.peerSecret()).as("the secret, read through the example's config provider")
                .hasValueSatisfying(secret -> assertThat(secret.value()).isEqualTo(SECRET));
    }

    private Map<String, String> workerWithMonitor() throws Exception {
        Path secrets = Files.writeString(dir.resolve("secrets.properties"), "monitor.peer.secret=" + SECRET + "\n");
        Map<String, String> settings = new HashMap<>(ExampleConfigs.properties(WORKER_EXAMPLE));
        ExampleConfigs.properties(MONITOR_EXAMPLE).forEach((key, value) ->
                settings.put(key, value.replace(SECRETS_FILE, secrets.toString())));
        return settings;
    }
}
