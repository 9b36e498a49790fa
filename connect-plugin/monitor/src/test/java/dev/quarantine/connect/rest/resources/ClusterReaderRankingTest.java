package dev.quarantine.connect.rest.resources;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import dev.quarantine.connect.rest.http.MonitorException;

/** The workers' failures of a cluster-wide read rank like a query's partitions: FATAL, RETRYABLE, MIGRATED. */
class ClusterReaderRankingTest {

    private static final MonitorException RETRYABLE = MonitorException.retryable("a worker is rebalancing", null);
    private static final MonitorException MIGRATED = MonitorException.migrated("a worker lost a partition", null);
    private static final MonitorException FATAL = MonitorException.fatal("a worker failed", null);

    @Test
    void answersRetryableOverMigratedWhicheverWorkerFailedFirst() {
        assertThat(ClusterReader.mostSevere(List.of(MIGRATED, RETRYABLE))).isSameAs(RETRYABLE);
        assertThat(ClusterReader.mostSevere(List.of(RETRYABLE, MIGRATED))).isSameAs(RETRYABLE);
    }

    @Test
    void answersFatalOverEveryOtherFailure() {
        assertThat(ClusterReader.mostSevere(List.of(MIGRATED, FATAL, RETRYABLE))).isSameAs(FATAL);
    }

    @Test
    void countsAPeersRefusalLikeAWorkerThatDidNotAnswer() {
        MonitorException refused = MonitorException.forbidden("the peer answers no other worker");

        assertThat(ClusterReader.mostSevere(List.of(MIGRATED, refused))).isSameAs(refused);
        assertThat(ClusterReader.mostSevere(List.of(refused, FATAL))).isSameAs(FATAL);
    }
}
