package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.ConfigDocs;

class ReplayConfigTest {

    @Test
    void committedConfigDocIsGeneratedFromTheConfigDef() throws Exception {
        ConfigDocs.assertCurrent(ReplayConfig.configDef(), "replay.rst", ReplayConfigTest.class);
    }

    @Test
    void defaultsReplayEverythingToTheOriginalDestinationWithAParkingTopicNamedAfterTheDeadLetterTopic() {
        ReplayConfig config = new ReplayConfig(settings());

        assertThat(config.destination().kind()).isEqualTo(Destination.Kind.ORIGINAL);
        assertThat(config.parkingTopic()).isEqualTo("orders.dlq.parking");
        assertThat(config.maxAttempts()).isEqualTo(3);
        assertThat(config.filter().matches(Letters.letter())).isTrue();
    }

    @Test
    void handsEverySettingItDoesNotDefineToTheClients() {
        Map<String, Object> settings = settings();
        settings.put("security.protocol", "SASL_SSL");
        settings.put(ReplayConfig.MAX_ATTEMPTS_CONFIG, "5");

        Map<String, Object> clients = new ReplayConfig(settings).clientConfigs();

        assertThat(clients).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("bootstrap.servers", "127.0.0.1:9092")
                .doesNotContainKeys(ReplayConfig.MAX_ATTEMPTS_CONFIG, ReplayConfig.DLQ_TOPIC_CONFIG);
    }

    @Test
    void rejectsBadValuesNamingTheSetting() {
        assertRejected(ReplayConfig.DESTINATION_CONFIG, "not a topic!");
        assertRejected(ReplayConfig.REPLAY_ID_CONFIG, "has spaces");
        assertRejected(ReplayConfig.FILTER_TIME_FROM_CONFIG, "yesterday");
        assertRejected(ReplayConfig.FILTER_OFFSET_RANGES_CONFIG, "0:9-1");
        assertRejected(ReplayConfig.FILTER_OFFSETS_CONFIG, "other-0@1");
        assertRejected(ReplayConfig.MAX_ATTEMPTS_CONFIG, "0");
        assertRejected(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "orders(");
        assertRejected(ReplayConfig.DESTINATIONS_DENIED_CONFIG, "[connect");
    }

    @Test
    void speedLimitsAreUnlimitedByDefaultAndRefuseNegativesNamingTheSetting() {
        ReplayConfig defaults = new ReplayConfig(settings());
        assertThat(defaults.maxRecordsPerSecond()).isEmpty();
        assertThat(defaults.maxBytesPerSecond()).isEmpty();

        Map<String, Object> limited = settings();
        limited.put(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "250");
        limited.put(ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG, "0");
        assertThat(new ReplayConfig(limited).maxRecordsPerSecond()).hasValue(250);
        assertThat(new ReplayConfig(limited).maxBytesPerSecond()).as("0: no limit").isEmpty();

        for (String key : new String[] {ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG,
                ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG}) {
            assertRejected(key, "-1");
            assertRejected(key, "fast");
            Map<String, Object> negative = settings();
            negative.put(key, "-5");
            assertThatThrownBy(() -> new ReplayConfig(negative)).hasMessageContaining("must be 0 (no limit) or more");
        }
    }

    @Test
    void aWritingReplayToAHeaderChosenDestinationNeedsTheAllowListAndSaysToDryRunFirst() {
        for (String destination : new String[] {"original", "source"}) {
            Map<String, Object> settings = settings();
            settings.put(ReplayConfig.DESTINATION_CONFIG, destination);
            ReplayConfig config = new ReplayConfig(settings);

            assertThatThrownBy(config::requireWritable).isInstanceOf(ConfigException.class)
                    .hasMessageContaining(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG).hasMessageContaining("dry run");
        }
        Map<String, Object> allowed = settings();
        allowed.put(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "orders");
        assertThat(new ReplayConfig(allowed).problemsForWriting()).isEmpty();
        Map<String, Object> named = settings();
        named.put(ReplayConfig.DESTINATION_CONFIG, "orders-retry");
        assertThat(new ReplayConfig(named).problemsForWriting()).isEmpty();
    }

    @Test
    void rejectsANamedDestinationTheRuleRefusesWhateverTheAllowList() {
        assertRejected(ReplayConfig.DESTINATION_CONFIG, "__consumer_offsets");
        assertRejected(ReplayConfig.DESTINATION_CONFIG, "connect-configs");
        assertRejected(ReplayConfig.DESTINATION_CONFIG, ReplayConfig.PROGRESS_TOPIC_DEFAULT);
        assertRejected(ReplayConfig.DESTINATION_CONFIG, "orders.dlq.parking");
    }

    @Test
    void theDefaultsAllowNoHeaderChosenTopicDenyNothingBeyondTheBuiltInRowsAndSkipWhatWasReplayed() {
        ReplayConfig config = new ReplayConfig(settings());

        assertThat(config.destinationsAllowed()).isEmpty();
        assertThat(config.destinationsDenied().pattern()).isEmpty();
        assertThat(config.replayAgain()).isFalse();
    }

    @Test
    void rejectsLoopsBackIntoTheDeadLetterTopic() {
        assertRejected(ReplayConfig.DESTINATION_CONFIG, "orders.dlq");
        assertRejected(ReplayConfig.PARKING_TOPIC_CONFIG, "orders.dlq");
    }

    @Test
    void acceptsOnlyProgressAndParkingTopicsInTheReservedFormsNoReplayWrites() {
        assertRejected(ReplayConfig.PROGRESS_TOPIC_CONFIG, "team-a-progress");
        assertRejected(ReplayConfig.PROGRESS_TOPIC_CONFIG, "my-quarantine-replay-progress");
        assertRejected(ReplayConfig.PARKING_TOPIC_CONFIG, "orders-parked");
        assertRejected(ReplayConfig.PARKING_TOPIC_CONFIG, "orders.parking.old");
        Map<String, Object> settings = settings();
        settings.put(ReplayConfig.PROGRESS_TOPIC_CONFIG, "quarantine-replay-progress-team-a");
        settings.put(ReplayConfig.PARKING_TOPIC_CONFIG, "orders-retries.parking");

        ReplayConfig config = new ReplayConfig(settings);

        assertThat(config.progressTopic()).isEqualTo("quarantine-replay-progress-team-a");
        assertThat(config.parkingTopic()).isEqualTo("orders-retries.parking");
    }

    @Test
    void rejectsATimeRangeThatEndsBeforeItStarts() {
        Map<String, Object> settings = settings();
        settings.put(ReplayConfig.FILTER_TIME_FROM_CONFIG, "2026-12-01T03:00:00Z");
        settings.put(ReplayConfig.FILTER_TIME_TO_CONFIG, "2026-12-01T02:00:00Z");

        assertThatThrownBy(() -> new ReplayConfig(settings)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(ReplayConfig.FILTER_TIME_TO_CONFIG);
    }

    @Test
    void reportsRulesAcrossSettingsOnTheSettingToChangeForConnectorValidation() {
        Map<String, Object> settings = settings();
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, "orders.parking");
        settings.put(ReplayConfig.PARKING_TOPIC_CONFIG, "orders.parking");
        settings.put(ReplayConfig.FILTER_OFFSETS_CONFIG, "0@1,elsewhere-0@2");

        assertThat(ReplayConfig.problemsAcrossFields(settings)).containsOnlyKeys(ReplayConfig.PARKING_TOPIC_CONFIG,
                ReplayConfig.FILTER_OFFSETS_CONFIG);
        assertThat(ReplayConfig.problemsAcrossFields(settings()).isEmpty()).isTrue();
    }

    private static void assertRejected(String key, String value) {
        Map<String, Object> settings = settings();
        settings.put(key, value);
        assertThatThrownBy(() -> new ReplayConfig(settings)).as("%s=%s", key, value)
                .isInstanceOf(ConfigException.class).hasMessageContaining(key);
    }

    static Map<String, Object> settings() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, "orders.dlq");
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "fix-1");
        return settings;
    }
}
