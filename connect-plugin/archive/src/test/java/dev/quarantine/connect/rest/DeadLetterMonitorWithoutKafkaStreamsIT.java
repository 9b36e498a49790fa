package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * A real worker whose classpath has no kafka-streams (connect-runtime only), with the monitor enabled: the plugin
 * archive brings none, so the monitor refuses cleanly: the worker starts, one ERROR line says what is missing and how
 * to fix it, and every {@code /dead-letters} path answers 501 with that reason.
 */
@ExtendWith(LocalKafkaExtension.class)
class DeadLetterMonitorWithoutKafkaStreamsIT {

    @Test
    void theWorkerStartsLogsOneErrorLineAndAnswers501WithTheFix(LocalKafka kafka) throws Exception {
        try (LocalConnect worker = LocalConnect.create(kafka, BuiltPlugin.PLUGIN_PATH,
                BuiltPlugin.workerClasspathWithoutStreams(),
                Map.of("rest.extension.classes", DeadLetterRestExtension.class.getName())).start()) {
            Answer summary = worker.rest().get("/dead-letters");
            Answer records = worker.rest().get("/dead-letters/orders-dlq/records");
            List<String> errors = worker.logLines().stream()
                    .filter(line -> line.contains(" ERROR ")).toList();

            assertThat(worker.get("/connectors").isArray()).as("the worker's own REST API answers").isTrue();
            assertThat(errors).singleElement().asString().contains("Dead-letter monitor disabled",
                    "needs kafka-streams in the worker's classpath", "Add kafka-streams-", "rest.extension.classes");
            assertThat(summary.status()).isEqualTo(501);
            assertThat(summary.body().path("category").asText()).isEqualTo("UNSUPPORTED");
            assertThat(summary.body().path("message").asText()).contains("needs kafka-streams in the worker's"
                    + " classpath", "Add kafka-streams-");
            assertThat(records.status()).isEqualTo(501);
        }
    }
}
