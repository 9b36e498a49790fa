package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

class ReplayRequestTest {

    @Test
    void anEmptyBodyAsksForNothingButTheDefaults() {
        assertThat(ReplayRequest.settings(null)).isEmpty();
        assertThat(ReplayRequest.settings(" ")).isEmpty();
        assertThat(ReplayRequest.settings("{}")).isEmpty();
    }

    @Test
    void mapsEachFieldOntoItsReplaySetting() {
        assertThat(ReplayRequest.settings("{\"errorClasses\":[\"RecordTooLargeException\",\"DataException\"],"
                + "\"originalTopics\":[\"orders\"],\"appsOrConnectors\":[\"copy\"],\"from\":\"2026-12-01T00:00:00Z\","
                + "\"to\":\"2026-12-02T00:00:00Z\",\"offsetRanges\":\"0:10-20\",\"offsets\":\"0:3\","
                + "\"destination\":\"source\",\"maxAttempts\":2,\"batchSize\":10,\"forceTruncated\":true}"))
                .containsEntry(ReplayConfig.FILTER_ERROR_CLASSES_CONFIG, "RecordTooLargeException,DataException")
                .containsEntry(ReplayConfig.FILTER_ORIGINAL_TOPICS_CONFIG, "orders")
                .containsEntry(ReplayConfig.FILTER_APPS_OR_CONNECTORS_CONFIG, "copy")
                .containsEntry(ReplayConfig.FILTER_TIME_FROM_CONFIG, "2026-12-01T00:00:00Z")
                .containsEntry(ReplayConfig.FILTER_TIME_TO_CONFIG, "2026-12-02T00:00:00Z")
                .containsEntry(ReplayConfig.FILTER_OFFSET_RANGES_CONFIG, "0:10-20")
                .containsEntry(ReplayConfig.FILTER_OFFSETS_CONFIG, "0:3")
                .containsEntry(ReplayConfig.DESTINATION_CONFIG, "source")
                .containsEntry(ReplayConfig.MAX_ATTEMPTS_CONFIG, "2")
                .containsEntry(ReplayConfig.BATCH_SIZE_CONFIG, "10")
                .containsEntry(ReplayConfig.FORCE_TRUNCATED_CONFIG, "true")
                .hasSize(11);
    }

    @Test
    void rejectsWhatIsNotAReplayRequestNamingTheField() {
        assertBadRequest("[1]", "must be a JSON object");
        assertBadRequest("{", "is not JSON");
        assertBadRequest("{\"errorClass\":\"x\"}", "unknown field 'errorClass'");
        assertBadRequest("{\"errorClasses\":\"RecordTooLargeException\"}", "errorClasses must be a list of strings");
        assertBadRequest("{\"errorClasses\":[\"a,b\"]}", "errorClasses must be a list of names without commas");
        assertBadRequest("{\"maxAttempts\":\"2\"}", "maxAttempts must be a whole number");
        assertBadRequest("{\"forceTruncated\":\"yes\"}", "forceTruncated must be true or false");
        assertBadRequest("{\"from\":5}", "from must be a string");
        assertBadRequest("{\"x\":\"" + "a".repeat(ReplayRequest.MAX_BODY_BYTES) + "\"}", "longer than");
    }

    @Test
    void speedLimitsAreWholeNumbersZeroOrMoreAndAnythingElseIsA400NamingTheField() {
        assertThat(ReplayRequest.settings("{\"maxRecordsPerSecond\":250,\"maxBytesPerSecond\":0}"))
                .containsEntry(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "250")
                .containsEntry(ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG, "0").hasSize(2);
        assertThat(ReplayRequest.settings("{\"maxBytesPerSecond\":10000000000}"))
                .containsEntry(ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG, "10000000000");
        for (String field : new String[] {"maxRecordsPerSecond", "maxBytesPerSecond"}) {
            for (String bad : new String[] {"-1", "1.5", "\"100\"", "true", "[1]", "1e400"}) {
                assertBadRequest("{\"" + field + "\":" + bad + "}", field + " must be a whole number, 0 (no limit) or"
                        + " more");
            }
        }
    }

    @Test
    void untilIsAnObjectOfPartitionToOffsetAsADryRunAnswersIt() {
        assertThat(ReplayRequest.settings("{\"until\":{\"0\":120,\"1\":7}}"))
                .containsExactly(java.util.Map.entry(ReplayConfig.UNTIL_OFFSETS_CONFIG, "0:120,1:7"));
        assertBadRequest("{\"until\":\"0:120\"}", "until must be an object of partition to offset");
        assertBadRequest("{\"until\":{\"0\":\"120\"}}", "until must map each partition to a whole number");
        assertBadRequest("{\"until\":{\"0\":1.5}}", "until must map each partition to a whole number");
    }

    @Test
    void anUntilListingNoPartitionIsRefusedRatherThanReplayingEverything() {
        assertBadRequest("{\"until\":{}}", "until lists no partition");
    }

    @Test
    void aDryRunIsAskedForWithItsOwnFieldAndAsksForNoSetting() {
        ReplayRequest request = ReplayRequest.parse("{\"dryRun\":true,\"batchSize\":5,\"replayAgain\":true}");

        assertThat(request.dryRun()).isTrue();
        assertThat(request.settings()).containsOnlyKeys(ReplayConfig.BATCH_SIZE_CONFIG,
                ReplayConfig.REPLAY_AGAIN_CONFIG);
        assertThat(ReplayRequest.parse("{}").dryRun()).isFalse();
        assertBadRequest("{\"dryRun\":\"yes\"}", "dryRun must be true or false");
    }

    @Test
    void refusesTheDestinationsARequestMayNotChooseNamingTheFieldAndTheWorkerSetting() {
        for (String field : new String[] {"destinationsAllowed", "destinationsDenied",
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, ReplayConfig.DESTINATIONS_DENIED_CONFIG}) {
            assertBadRequest("{\"" + field + "\":\".*\"}", field + " may not be set by a request");
            assertBadRequest("{\"" + field + "\":\".*\"}", MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG);
        }
    }

    @Test
    void aHostileFieldNameIsCutInTheAnswer() {
        assertThatThrownBy(() -> ReplayRequest.settings("{\"" + "<script>".repeat(50) + "\":1}"))
                .isInstanceOfSatisfying(MonitorException.class, e -> assertThat(e.publicMessage())
                        .as("the name cut to 60 characters; the rest is the list of known fields")
                        .doesNotContain("<script>".repeat(8)).hasSizeLessThan(400));
    }

    private static void assertBadRequest(String body, String message) {
        assertThatThrownBy(() -> ReplayRequest.settings(body)).isInstanceOfSatisfying(MonitorException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.publicMessage()).contains(message);
        });
    }
}
