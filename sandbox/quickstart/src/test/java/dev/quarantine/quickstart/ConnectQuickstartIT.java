package dev.quarantine.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

@ExtendWith(LocalKafkaExtension.class)
class ConnectQuickstartIT {

    @Test
    void connectorCopies990OrdersOnceDeadLettersTheTenTheTargetRejectsAndReplaysThemAfterTheFix(LocalKafka kafka) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

        ConnectQuickstart quickstart = new ConnectQuickstart(kafka, Quickstart.PLUGIN_PATH, Quickstart.WORKER_CLASSPATH,
                out);
        ConnectQuickstart.Outcome outcome = quickstart.run();

        assertThat(outcome).isEqualTo(new ConnectQuickstart.Outcome(990, 990, 10));
        assertThat(quickstart.replay()).as("after the fix, the replay puts the 10 back, each once")
                .isEqualTo(new ConnectQuickstart.Replay(10, 0, 1000));
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("RUNNING with 2 tasks",
                "5 x org.apache.kafka.common.errors.RecordTooLargeException",
                "5 x org.apache.kafka.common.errors.InvalidTimestampException",
                "GET ", "/dead-letters/copy.dead-letters", "total 10,",
                "/dead-letters/copy.dead-letters/replays -> 202", "DONE: replayed 10, dead-lettered again 0");
    }
}
