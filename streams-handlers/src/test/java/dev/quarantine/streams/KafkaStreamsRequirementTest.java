package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class KafkaStreamsRequirementTest {

    private static final String SETTING = "production.exception.handler";

    @Test
    void kafkaStreams41IsRefusedNamingTheVersionNeededAndTheSetting() {
        assertThatThrownBy(() -> KafkaStreamsRequirement.require(SETTING, DeadLetterProductionExceptionHandler.class,
                Optional.of("4.1.2")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("DeadLetterProductionExceptionHandler needs kafka-streams 4.2 or later")
                .hasMessageContaining("this app runs kafka-streams 4.1.2")
                .hasMessageContaining("or remove " + SETTING);
    }

    @Test
    void kafkaStreams3IsRefused() {
        assertThatThrownBy(() -> KafkaStreamsRequirement.require(SETTING, DeadLetterProductionExceptionHandler.class,
                Optional.of("3.9.2"))).isInstanceOf(ConfigException.class).hasMessageContaining("3.9.2");
    }

    @Test
    void kafkaStreams42AndLaterAreAccepted() {
        for (String version : new String[] {"4.2.0", "4.3.1", "4.4.0", "5.0.0-SNAPSHOT"}) {
            assertThatCode(() -> KafkaStreamsRequirement.require(SETTING, DeadLetterProductionExceptionHandler.class,
                    Optional.of(version))).as(version).doesNotThrowAnyException();
        }
    }

    @Test
    void anUnreadableVersionIsNotHeldAgainstTheApp() {
        assertThatCode(() -> KafkaStreamsRequirement.require(SETTING, DeadLetterProductionExceptionHandler.class,
                Optional.empty())).doesNotThrowAnyException();
        assertThatCode(() -> KafkaStreamsRequirement.require(SETTING, DeadLetterProductionExceptionHandler.class,
                Optional.of("unknown"))).doesNotThrowAnyException();
    }

    @Test
    void theKafkaStreamsOfThisBuildIsAccepted() {
        assertThatCode(() -> KafkaStreamsRequirement.require(SETTING, DeadLetterProductionExceptionHandler.class))
                .doesNotThrowAnyException();
    }
}
