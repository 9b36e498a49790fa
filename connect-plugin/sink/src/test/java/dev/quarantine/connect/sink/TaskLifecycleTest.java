package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** What a task creates, and when. */
class TaskLifecycleTest {

    @Test
    void aTargetConverterWhoseConfigureThrowsLeavesNoAdminClientBehind() {
        long before = adminThreads();
        for (int restart = 0; restart < 3; restart++) {
            TransactionalKafkaSinkTask task = new TransactionalKafkaSinkTask();
            task.initialize(new FakeSinkTaskContext());
            assertThatThrownBy(() -> task.start(props(
                    "name", "lifecycle",
                    "topics", "orders",
                    "target.bootstrap.servers", "127.0.0.1:9",
                    "target.topic.format", "copy.${topic}",
                    "dlq.topic.name", "orders.dlq",
                    "target.value.converter", "org.apache.kafka.connect.json.JsonConverter",
                    "target.value.converter.schemas.enable", "maybe")))
                    .isInstanceOf(ConfigException.class);
        }

        assertThat(adminThreads()).as("admin client threads left by failed starts").isEqualTo(before);
    }

    private static long adminThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("kafka-admin-client-thread")).count();
    }
}
