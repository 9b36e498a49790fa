package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** How the handler and the supplier of one app find the same state: by equal configs, as Kafka Streams gives both. */
class AppDeadLettersTest {

    @Test
    void equalConfigsFindTheSameStateWithTheConfigParsedOnce() {
        AppDeadLetters supplierSide = AppDeadLetters.of(configs("orders", "/state/a"));
        AppDeadLetters handlerSide = AppDeadLetters.of(new HashMap<>(configs("orders", "/state/a")));

        assertThat(handlerSide).isSameAs(supplierSide);
        assertThat(handlerSide.config()).isSameAs(supplierSide.config());
        assertThat(handlerSide.outputCounter()).isSameAs(supplierSide.outputCounter());
    }

    @Test
    void anotherAppOrAnotherInstanceOfTheAppHasItsOwnState() {
        AppDeadLetters orders = AppDeadLetters.of(configs("orders", "/state/a"));

        assertThat(AppDeadLetters.of(configs("payments", "/state/a"))).isNotSameAs(orders);
        assertThat(AppDeadLetters.of(configs("orders", "/state/b"))).as("a second instance, with its own state.dir")
                .isNotSameAs(orders);
        assertThat(AppDeadLetters.of(configs("orders", "/state/a"))).isSameAs(orders);
    }

    @Test
    void hasNoBreakerAndNoProducerLimitsWithoutTheSuppliersProducers() {
        AppDeadLetters app = AppDeadLetters.of(configs("handler-only", "/state/a"));

        assertThat(app.breaker()).isEmpty();
        assertThat(app.maxRecordBytes("dlq")).isEmpty();
    }

    @Test
    void rejectsABadSettingByNameAndKeepsNothing() {
        Map<String, Object> bad = configs("orders", "/state/a");
        bad.put(DeadLetterHandlerConfig.DLQ_WINDOW_RECORDS_CONFIG, 0);

        assertThatThrownBy(() -> AppDeadLetters.of(bad)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(DeadLetterHandlerConfig.DLQ_WINDOW_RECORDS_CONFIG);
        assertThatThrownBy(() -> AppDeadLetters.of(bad)).as("still refused: nothing was kept")
                .isInstanceOf(ConfigException.class);
    }

    private static Map<String, Object> configs(String applicationId, String stateDir) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        configs.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        configs.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, applicationId + "-dlq");
        return configs;
    }
}
