package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.TestData.props;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class TargetClientSettingsTest {

    @Test
    void acceptsValuesTheClientsAccept() {
        assertThat(TargetClientSettings.problems(props("target.producer.acks", "all",
                "target.producer.max.request.size", "20000", "target.admin.request.timeout.ms", "5000",
                "target.bootstrap.servers", "t:9092"))).isEmpty();
    }

    @Test
    void reportsAProducerValueThatIsNotANumberOnItsOwnKey() {
        Map<String, List<String>> problems = TargetClientSettings.problems(props("target.producer.buffer.memory",
                "lots"));

        assertThat(problems).containsOnlyKeys("target.producer.buffer.memory");
        assertThat(problems.get("target.producer.buffer.memory")).singleElement().asString()
                .startsWith("is refused by the target producer: ").contains("lots", "buffer.memory");
    }

    @Test
    void reportsAProducerValueOutsideItsLegalValuesOnItsOwnKey() {
        assertThat(TargetClientSettings.problems(props("target.producer.acks", "maybe")))
                .containsOnlyKeys("target.producer.acks");
    }

    @Test
    void reportsAnAdminValueOnItsOwnKey() {
        Map<String, List<String>> problems = TargetClientSettings.problems(props(
                "target.admin.request.timeout.ms", "soon"));

        assertThat(problems).containsOnlyKeys("target.admin.request.timeout.ms");
        assertThat(problems.get("target.admin.request.timeout.ms")).singleElement().asString()
                .startsWith("is refused by the target admin client: ");
    }

    @Test
    void leavesNamesTheClientDoesNotDefineAndRequiredSettingsNotGivenAlone() {
        assertThat(TargetClientSettings.problems(props("target.producer.txn.send.topic.metadata.max.age.ms", "x",
                "target.producer.no.such.setting", "y", "target.admin.", "z"))).isEmpty();
    }
}
