package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.TestData.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;
import dev.quarantine.connect.sink.write.CommitTrigger;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.sandbox.ConfigDocs;

class TransactionalSinkConfigTest {

    @Test
    void committedConfigDocIsGeneratedFromTheConfigDef() throws Exception {
        ConfigDocs.assertCurrent(TransactionalSinkConfig.configDef(), "transactional-sink.rst",
                TransactionalSinkConfigTest.class);
    }

    @Test
    void defaultsTheTransactionalIdPrefixToTheConnectorNameAndTheProgressTopicToTheConnectorsOwn() {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(valid());

        assertThat(config.transactionalIdPrefix()).isEqualTo("orders-copy");
        assertThat(config.progressTopic()).isEqualTo("orders-copy.progress.internal");
        assertThat(config.tolerance()).isEqualTo(TransactionalSinkConfig.Tolerance.ALL);
        assertThat(WriterFactory.transactionalId(config.transactionalIdPrefix(), new TopicPartition("orders", 3)))
                .isEqualTo("orders-copy:orders-3");
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
    void collectsRecordsForAHundredMillisecondsOrTenThousandRecordsOrTheProducersMemoryByDefault() {
        CommitTrigger trigger = TransactionalSinkConfig.parse(valid()).commitTrigger();

        assertThat(trigger).isEqualTo(new CommitTrigger(java.time.Duration.ofMillis(100), 10_000,
                TransactionalSinkConfig.PRODUCERS_MEMORY_BYTES_DEFAULT));
    }

    @Test
    void refusesACommitIntervalNotBelowTheDefaultTransactionTimeoutNamingBoth() {
        Map<String, String> props = valid();
        props.put("commit.interval.ms", "60000");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("commit.interval.ms")
                .hasMessageContaining("target.producer.transaction.timeout.ms=60000");
    }

    @Test
    void refusesACommitIntervalNotBelowTheTransactionTimeoutSetNamingBoth() {
        Map<String, String> props = valid();
        props.put("commit.interval.ms", "2000");
        props.put("target.producer.transaction.timeout.ms", "2000");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("commit.interval.ms").hasMessageContaining("is 2000")
                .hasMessageContaining("target.producer.transaction.timeout.ms=2000");
        props.put("target.producer.transaction.timeout.ms", "2001");
        assertThat(TransactionalSinkConfig.parse(props).commitTrigger().interval()).hasMillis(2000);
    }

    @Test
    void refusesNegativeCommitSettingsNamingThem() {
        Map<String, String> interval = valid();
        interval.put("commit.interval.ms", "-1");
        Map<String, String> records = valid();
        records.put("commit.max.records", "0");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(interval)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("commit.interval.ms");
        assertThatThrownBy(() -> TransactionalSinkConfig.parse(records)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("commit.max.records");
    }

    @Test
    void refusesTheDeadLetterTopicAsProgressTopicNamingTheSetting() {
        Map<String, String> props = valid();
        props.put("progress.topic.name", props.get("dlq.topic.name"));

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("Invalid value for progress.topic.name: is the dead-letter topic");
    }

    @Test
    void derivesALegalProgressTopicNameFromAnyConnectorName() {
        assertThat(TransactionalSinkConfig.defaultProgressTopic("orders copy/2")).isEqualTo(
                "orders_copy_2.progress.internal");
        assertThat(TransactionalSinkConfig.defaultProgressTopic("x".repeat(300)))
                .hasSize(249).endsWith(".progress.internal");
    }

    @Test
    void usesTheProgressTopicNamed() {
        Map<String, String> props = valid();
        props.put("progress.topic.name", "my-progress");

        assertThat(TransactionalSinkConfig.parse(props).progressTopic()).isEqualTo("my-progress");
    }

    @Test
    void needsNoDeadLetterTopicForProgressWithToleranceNone() {
        Map<String, String> props = valid();
        props.remove("dlq.topic.name");
        props.put("send.errors.tolerance", "none");

        assertThat(TransactionalSinkConfig.parse(props).progressTopic()).isEqualTo("orders-copy.progress.internal");
    }

    @Test
    void createsTargetTopicsLikeTheSourceAndHashesPartitionsTheTargetLacksByDefault() {
        TargetTopicSettings settings = TransactionalSinkConfig.parse(valid()).targetTopicSettings();

        assertThat(settings.create()).isTrue();
        assertThat(settings.partitions()).as("as many as the source topic").isEmpty();
        assertThat(settings.replicationFactor()).as("the target cluster's default").isEmpty();
        assertThat(settings.topicConfigs()).isEmpty();
        assertThat(settings.mapping()).isEqualTo(PartitionMapping.HASH);
    }

    @Test
    void passesOtherTargetTopicCreationSettingsAsTopicConfigs() {
        Map<String, String> props = valid();
        props.put("target.topic.creation.partitions", "6");
        props.put("target.topic.creation.replication.factor", "3");
        props.put("target.topic.creation.cleanup.policy", "compact");
        props.put("target.partition.mapping", "KEEP");
        TargetTopicSettings settings = TransactionalSinkConfig.parse(props).targetTopicSettings();

        assertThat(settings.partitions()).contains(6);
        assertThat(settings.replicationFactor()).contains((short) 3);
        assertThat(settings.topicConfigs()).containsExactly(Map.entry("cleanup.policy", "compact"));
        assertThat(settings.mapping()).isEqualTo(PartitionMapping.KEEP);
    }

    @Test
    void refusesZeroPartitionsForCreatedTopicsNamingTheSetting() {
        Map<String, String> props = valid();
        props.put("target.topic.creation.partitions", "0");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("target.topic.creation.partitions");
    }

    @Test
    void refusesADeadLetterLimitAboveTheTargetProducersMaxRequestSize() {
        Map<String, String> props = valid();
        props.put("dlq.payload.max.bytes", "500000");
        props.put("target.producer.max.request.size", "20000");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("dlq.payload.max.bytes").hasMessageContaining("target.producer.max.request.size");
        assertThat(ConfigRules.problems(new TransactionalSinkConfig(props))).containsOnlyKeys("dlq.payload.max.bytes");
    }

    @Test
    void letsTheDefaultDeadLetterLimitYieldToASmallerProducerLimit() {
        Map<String, String> props = valid();
        props.put("target.producer.max.request.size", "20000");

        assertThat(ConfigRules.problems(new TransactionalSinkConfig(props))).isEmpty();
        assertThat(TransactionalSinkConfig.parse(props).dlqPayloadMaxBytes()).isEqualTo(1_000_000);
    }

    @Test
    void refusesADeadLetterLimitAboveTheDeadLetterTopicsMaxMessageBytes() {
        Map<String, String> props = valid();
        props.put("dlq.payload.max.bytes", "500000");
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props);

        assertThat(ConfigRules.deadLetterTopicLimitProblems(config, "dead-letters", OptionalInt.of(100_000))
                .get("dlq.payload.max.bytes")).singleElement().asString().contains("max.message.bytes");
        assertThat(ConfigRules.deadLetterTopicLimitProblems(config, "dead-letters",
                OptionalInt.of(600_000))).isEmpty();
    }

    @Test
    void readsTheSourceClusterFromTheConsumerOverridesWhenNamed() {
        Map<String, String> props = valid();
        assertThat(TransactionalSinkConfig.parse(props).sourceAdminConfigs())
                .containsEntry("bootstrap.servers", "target:9092");
        props.put("consumer.override.bootstrap.servers", "source:9092");
        props.put("consumer.override.security.protocol", "SSL");
        props.put("consumer.override.max.poll.records", "10");

        assertThat(TransactionalSinkConfig.parse(props).sourceAdminConfigs()).containsOnly(
                Map.entry("bootstrap.servers", "source:9092"), Map.entry("security.protocol", "SSL"));
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

    @Test
    void refusesAProgressReadThatWithInitTransactionsCouldOutliveTheConsumersMaxPollIntervalNamingEach() {
        Map<String, String> props = valid();
        props.put("progress.read.timeout.ms", "250000");
        props.put("target.producer.max.block.ms", "60000");

        assertThat(ConfigRules.problems(new TransactionalSinkConfig(props))).containsOnlyKeys("progress.read.timeout.ms");
        assertThat(ConfigRules.problems(new TransactionalSinkConfig(props)).get("progress.read.timeout.ms"))
                .singleElement().asString().contains("target.producer.max.block.ms=60000")
                .contains("consumer.override.max.poll.interval.ms=300000");
        props.put("consumer.override.max.poll.interval.ms", "400000");
        assertThat(ConfigRules.problems(new TransactionalSinkConfig(props))).isEmpty();
    }

    @Test
    void refusesATransientErrorsTimeoutNotAboveTheTransactionTimeoutNamingBoth() {
        Map<String, String> props = valid();
        props.put("transient.errors.timeout.ms", "60000");

        assertThatThrownBy(() -> TransactionalSinkConfig.parse(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("transient.errors.timeout.ms")
                .hasMessageContaining("target.producer.transaction.timeout.ms=60000");
        props.put("target.producer.transaction.timeout.ms", "30000");
        assertThat(ConfigRules.problems(new TransactionalSinkConfig(props))).isEmpty();
    }

    @Test
    void refusesAFenceBoundThatWithACommitCouldOutliveTheConsumersMaxPollIntervalNamingEach() {
        Map<String, String> props = valid();
        props.put("target.admin.default.api.timeout.ms", "250000");

        assertThat(ConfigRules.problemsOfANewConfig(new TransactionalSinkConfig(props)))
                .containsOnlyKeys("target.admin.default.api.timeout.ms");
        assertThat(ConfigRules.problemsOfANewConfig(new TransactionalSinkConfig(props))
                .get("target.admin.default.api.timeout.ms"))
                .singleElement().asString().startsWith("is 250000: it bounds a fence")
                .contains("target.producer.max.block.ms=60000").contains("310000 ms")
                .contains("consumer.override.max.poll.interval.ms=300000");
        props.put("consumer.override.max.poll.interval.ms", "400000");
        assertThat(ConfigRules.problemsOfANewConfig(new TransactionalSinkConfig(props))).isEmpty();
    }

    /**
     * A connector running on a config the previous version accepted starts after an upgrade (the review of step 2,
     * HIGH): a lowered poll interval with the admin client's default 60 s passes the rules of a start, and only a
     * create or an update (validate) names the fence's bound.
     */
    @Test
    void aConfigThePreviousVersionAcceptedStillStartsThoughItsFenceBoundIsReportedOnUpdate() {
        Map<String, String> props = valid();
        props.put("consumer.override.max.poll.interval.ms", "60000");
        props.put("target.producer.max.block.ms", "5000");
        props.put("progress.read.timeout.ms", "30000");

        assertThat(TransactionalSinkConfig.parse(props).progressReadTimeout()).hasSeconds(30);
        assertThat(ConfigRules.problems(new TransactionalSinkConfig(props))).isEmpty();
        assertThat(ConfigRules.problemsOfANewConfig(new TransactionalSinkConfig(props)))
                .containsOnlyKeys("target.admin.default.api.timeout.ms");
    }

    @Test
    void takesTheFenceBoundTogetherWithTheCommitsBlockAndReportsItInValidateOnItsKey() {
        Map<String, String> props = valid();
        props.put("target.admin.default.api.timeout.ms", "120000");
        props.put("target.producer.max.block.ms", "180000");
        props.put("consumer.override.isolation.level", "read_committed");

        ConfigValue fence = new TransactionalKafkaSinkConnector().validate(props).configValues().stream()
                .filter(v -> v.name().equals("target.admin.default.api.timeout.ms")).findFirst().orElseThrow();

        assertThat(fence.errorMessages()).singleElement().asString().contains("target.producer.max.block.ms=180000")
                .contains("300000 ms, not below consumer.override.max.poll.interval.ms=300000")
                .contains("lower target.admin.default.api.timeout.ms or target.producer.max.block.ms, or raise"
                        + " consumer.override.max.poll.interval.ms");
    }

    @Test
    void leavesAFenceBoundThatDoesNotParseToItsOwnKeysCheck() {
        Map<String, String> props = valid();
        props.put("target.admin.default.api.timeout.ms", "soon");

        assertThat(TimeoutRules.fenceProblems(new TransactionalSinkConfig(props))).isEmpty();
    }

    @Test
    void acceptsTheDefaultTimeouts() {
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(valid()))).isEmpty();
    }

    private static Map<String, String> valid() {
        return props("name", "orders-copy", "topics", "orders", "target.bootstrap.servers", "target:9092",
                "target.topic.format", "copy.${topic}", "dlq.topic.name", "dead-letters");
    }
}
