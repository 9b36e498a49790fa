package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.progress.OwnershipRecords.Claim;

class OwnershipRecordsTest {

    private static final String PREFIX = "copy";
    private static final TopicPartition P = new TopicPartition("orders", 3);
    private static final TopicPartition Q = new TopicPartition("orders", 4);
    private static final String T0 = OwnershipRecord.taskId(PREFIX, 0, 0);
    private static final String T1 = OwnershipRecord.taskId(PREFIX, 1, 0);

    @Test
    void keepsTheLastClaimOfEachKeyAsCompactionDoes() {
        OwnershipRecords claims = new OwnershipRecords(PREFIX);
        claims.add(3, new OwnershipRecord(P, T0));
        claims.add(5, new OwnershipRecord(P, T1));
        claims.add(8, new OwnershipRecord(P, T0));

        assertThat(claims.of(P)).containsExactly(new Claim(5, new OwnershipRecord(P, T1)),
                new Claim(8, new OwnershipRecord(P, T0)));
        assertThat(claims.latest(P)).contains(new Claim(8, new OwnershipRecord(P, T0)));
        assertThat(claims.next()).isEqualTo(9);
    }

    @Test
    void answersPerSourcePartition() {
        OwnershipRecords claims = new OwnershipRecords(PREFIX);
        claims.add(0, new OwnershipRecord(Q, T1));

        assertThat(claims.latest(P)).isEmpty();
        assertThat(claims.of(P)).isEmpty();
        assertThat(claims.latest(Q).map(Claim::holder)).contains(T1);
    }

    @Test
    void refusesClaimsOutOfTheLogsOrderAndOfAnotherPrefix() {
        OwnershipRecords claims = new OwnershipRecords(PREFIX);
        claims.add(4, new OwnershipRecord(P, T0));

        assertThatThrownBy(() -> claims.add(4, new OwnershipRecord(P, T1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset 4 is below 5");
        assertThatThrownBy(() -> claims.add(9, new OwnershipRecord(P, "other:task#0.0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefix copy");
    }
}
