package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

class TransactionalKafkaSinkConnectorTest {

    @Test
    void reportsEachBadSettingOnItsOwnKeyBeforeContactingAnyCluster() {
        Map<String, List<String>> errors = errors(new TransactionalKafkaSinkConnector().validate(props(
                "name", "c", "topics", "orders", "target.topic.format", "copy", "send.errors.tolerance", "maybe",
                "dlq.payload.max.bytes", "10")).configValues());

        assertThat(errors).containsOnlyKeys("target.bootstrap.servers", "target.topic.format",
                "send.errors.tolerance", "dlq.payload.max.bytes");
    }

    @Test
    void reportsProblemsOfSettingsOutsideItsConfigDefOnTheirOwnKeys() {
        Map<String, List<String>> errors = errors(new TransactionalKafkaSinkConnector().validate(props(
                "name", "c", "topics", "orders", "target.bootstrap.servers", "127.0.0.1:1",
                "target.topic.format", "copy.${topic}", "dlq.topic.name", "dlq", "dlq.payload.max.bytes", "50000",
                "target.producer.max.request.size", "20000", "target.producer.buffer.memory", "lots",
                "consumer.override.isolation.level", "read_committed"))
                .configValues());

        assertThat(errors).containsOnlyKeys("dlq.payload.max.bytes", "target.producer.buffer.memory");
        assertThat(errors.get("target.producer.buffer.memory")).singleElement().asString()
                .contains("refused by the target producer", "lots");
        assertThat(errors.get("dlq.payload.max.bytes")).singleElement().asString()
                .contains("target.producer.max.request.size=20000");
    }

    @Test
    void reportsACommitIntervalNotBelowTheTransactionTimeoutOnTheCommitInterval() {
        Map<String, List<String>> errors = errors(new TransactionalKafkaSinkConnector().validate(props(
                "name", "c", "topics", "orders", "target.bootstrap.servers", "127.0.0.1:1",
                "target.topic.format", "copy.${topic}", "dlq.topic.name", "dlq", "commit.interval.ms", "5000",
                "target.producer.transaction.timeout.ms", "3000", "consumer.override.isolation.level", "read_committed"))
                .configValues());

        assertThat(errors).containsOnlyKeys("commit.interval.ms");
        assertThat(errors.get("commit.interval.ms")).singleElement().asString()
                .contains("is 5000", "target.producer.transaction.timeout.ms=3000");
    }

    @Test
    void givesEveryTaskItsNumber() {
        TransactionalKafkaSinkConnector connector = new TransactionalKafkaSinkConnector(config -> { });
        connector.start(props("name", "c", "topics", "orders", "target.bootstrap.servers", "t:9092",
                "target.topic.format", "copy.${topic}", "dlq.topic.name", "dlq",
                "consumer.override.isolation.level", "read_committed"));

        assertThat(connector.taskConfigs(3)).extracting(c -> c.get("quarantine.task.id"))
                .containsExactly("0", "1", "2");
        assertThat(connector.taskClass()).isEqualTo(TransactionalKafkaSinkTask.class);
    }

    @Test
    void refusesToStartWithATargetProducerSettingTheProducerWouldRefuseNamingIt() {
        assertThatThrownBy(() -> new TransactionalKafkaSinkConnector(config -> { }).start(props("name", "c",
                "topics", "orders", "target.bootstrap.servers", "t:9092", "dlq.topic.name", "dlq",
                "target.producer.acks", "maybe")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("target.producer.acks");
    }

    @Test
    void refusesAConsumerThatReadsUncommittedSourceRecordsNamingTheOverrideToSet() {
        Map<String, String> props = props("name", "c", "topics", "orders", "target.bootstrap.servers",
                "127.0.0.1:1", "target.topic.format", "copy.${topic}", "dlq.topic.name", "dlq",
                "consumer.override.isolation.level", "read_uncommitted");
        Map<String, String> withAnotherProblem = new HashMap<>(props); // so no cluster is asked
        withAnotherProblem.putAll(props("commit.interval.ms", "5000", "target.producer.transaction.timeout.ms", "3000"));

        assertThat(errors(new TransactionalKafkaSinkConnector().validate(withAnotherProblem).configValues()))
                .containsOnlyKeys("commit.interval.ms", "consumer.override.isolation.level");
        assertThatThrownBy(() -> new TransactionalKafkaSinkConnector(config -> { }).start(props))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("consumer.override.isolation.level: is read_uncommitted")
                .hasMessageContaining("Set consumer.override.isolation.level=read_committed");
        props.remove("consumer.override.isolation.level");
        assertThatThrownBy(() -> new TransactionalKafkaSinkConnector(config -> { }).start(props))
                .isInstanceOf(ConfigException.class).hasMessageContaining("is not set");
    }

    @Test
    void refusesToStartWithToleranceAllAndNoDeadLetterTopic() {
        assertThatThrownBy(() -> new TransactionalKafkaSinkConnector().start(props("name", "c", "topics", "orders",
                "target.bootstrap.servers", "t:9092")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("dlq.topic.name");
    }

    private static Map<String, List<String>> errors(List<ConfigValue> values) {
        return values.stream().filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }
}
