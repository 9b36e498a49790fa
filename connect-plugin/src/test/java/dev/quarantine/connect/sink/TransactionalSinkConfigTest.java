package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class TransactionalSinkConfigTest {

    /** Run with -Dquarantine.docs.write=true to regenerate the committed doc. */
    private static final Path DOC = Path.of("..", "docs", "config", "transactional-sink.rst");

    @Test
    void committedConfigDocIsGeneratedFromTheConfigDef() throws Exception {
        String generated = TransactionalSinkConfig.configDef().toEnrichedRst();
        if (Boolean.getBoolean("quarantine.docs.write")) {
            Files.createDirectories(DOC.getParent());
            Files.writeString(DOC, generated);
        }
        assertThat(Files.readString(DOC)).as("docs/config/transactional-sink.rst is stale: run `mvn -pl"
                + " connect-plugin test -Dtest=TransactionalSinkConfigTest -Dquarantine.docs.write=true`")
                .isEqualTo(generated);
    }

    @Test
    void defaultsTheTransactionalIdPrefixToTheConnectorNameAndTheProgressTopicToTheDeadLetterTopic() {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(valid());

        assertThat(config.transactionalIdPrefix()).isEqualTo("orders-copy");
        assertThat(config.progressTopic()).contains("dead-letters");
        assertThat(config.tolerance()).isEqualTo(TransactionalSinkConfig.Tolerance.ALL);
        assertThat(WriterFactory.transactionalId(config.transactionalIdPrefix(), new TopicPartition("orders", 3)))
                .isEqualTo("orders-copy.orders-3");
    }

    @Test
    void passesTargetProducerAndAdminSettingsThrough() {
        Map<String, String> props = valid();
        props.put("target.producer.security.protocol", "SASL_SSL");
        props.put("target.admin.request.timeout.ms", "5000");
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props);

        assertThat(config.producerConfigs()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("bootstrap.servers", "target:9092").doesNotContainKey("request.timeout.ms");
        assertThat(config.adminConfigs()).containsEntry("request.timeout.ms", "5000");
    }

    @Test
    void refusesATopicFormatWithoutThePlaceholder() {
        Map<String, String> props = valid();
        props.put("target.topic.format", "copy");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("target.topic.format").hasMessageContaining("${topic}");
    }

    @Test
    void refusesAnUnknownToleranceNamingTheSetting() {
        Map<String, String> props = valid();
        props.put("send.errors.tolerance", "some");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("send.errors.tolerance");
    }

    @Test
    void requiresADeadLetterTopicWithToleranceAll() {
        Map<String, String> props = valid();
        props.remove("dlq.topic.name");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("dlq.topic.name");
    }

    @Test
    void requiresAProgressTopicWithToleranceNoneAndNoDeadLetterTopic() {
        Map<String, String> props = valid();
        props.remove("dlq.topic.name");
        props.put("send.errors.tolerance", "none");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("progress.topic.name");
    }

    @Test
    void findsSelfCopiesOfListedTopicsAndADeadLetterTopicThatIsAlsoASource() {
        Map<String, String> props = valid();
        props.put("topics", "orders,copy.orders,dead-letters");
        props.put("target.topic.format", "${topic}");
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props);

        assertThat(ConfigRules.selfCopyProblems(config, props))
                .containsOnlyKeys("target.topic.format", "dlq.topic.name");
        assertThat(ConfigRules.selfCopyProblems(config, props).get("target.topic.format")).hasSize(3)
                .allSatisfy(message -> assertThat(message).contains("onto itself"));
    }

    @Test
    void findsNoSelfCopyWhenEveryTopicIsRenamed() {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(valid());

        assertThat(ConfigRules.selfCopyProblems(config, valid())).isEmpty();
    }

    private static Map<String, String> valid() {
        return props("name", "orders-copy", "topics", "orders", "target.bootstrap.servers", "target:9092",
                "target.topic.format", "copy.${topic}", "dlq.topic.name", "dead-letters");
    }
}
