package dev.quarantine.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.TxnSendOption;

@ExtendWith(LocalKafkaExtension.class)
class QuickstartIT {

    @Test
    void ignoreSendErrorsCommitsSevenOrdersAndDeadLettersThreeWhileStockLosesAll(LocalKafka kafka) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

        Quickstart.Outcome quarantine = new Quickstart(kafka, out).run(TxnSendOption.IGNORE_SEND_ERRORS);
        Quickstart.Outcome stock = new Quickstart(kafka, out).run(TxnSendOption.NONE);

        assertThat(quarantine).isEqualTo(new Quickstart.Outcome(7, 3));
        assertThat(stock).isEqualTo(new Quickstart.Outcome(0, 0));
        assertThat(text.toString(StandardCharsets.UTF_8))
                .contains("RecordTooLargeException", "UnknownTopicOrPartitionException", "InvalidRecordException",
                        "commitTransaction() succeeded", "commitTransaction() failed");
    }
}
