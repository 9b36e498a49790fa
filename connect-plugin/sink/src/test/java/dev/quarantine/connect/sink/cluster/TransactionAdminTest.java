package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

/** Whether our producers end their transactions with an epoch bump: from the cluster's feature and the client. */
class TransactionAdminTest {

    @Test
    void aProducerEndsWithAnEpochBumpOnlyOnAVersion2ClusterWithA4Client() {
        assertThat(TransactionAdmin.endsWithEpochBump(2, "4.4.0")).isTrue();
        assertThat(TransactionAdmin.endsWithEpochBump(2, "4.0.1")).isTrue();
        assertThat(TransactionAdmin.endsWithEpochBump(2, "3.9.1")).as("3.9 has no KIP-890 client side").isFalse();
        assertThat(TransactionAdmin.endsWithEpochBump(1, "4.4.0")).as("a version-1 cluster").isFalse();
        assertThat(TransactionAdmin.endsWithEpochBump(0, "4.4.0")).as("no feature finalized").isFalse();
        assertThat(TransactionAdmin.endsWithEpochBump(2, "unknown")).as("unreadable: the wider reading").isFalse();
    }

    @Test
    void theClientVersionIsKnownAlsoWhenAnotherAdminOfTheWorkerHasTheSameClientId() {
        // a user's target.admin.client.id is shared by the task's admins: only the first registers app-info metrics
        Map<String, Object> configs = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
                AdminClientConfig.CLIENT_ID_CONFIG, "audited-admin");
        try (Admin first = Admin.create(configs); Admin second = Admin.create(configs)) {
            assertThat(TransactionAdmin.clientVersion(second)).startsWith("4.");
        }
    }
}
