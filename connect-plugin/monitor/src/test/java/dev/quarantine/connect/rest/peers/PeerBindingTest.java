package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.WorkerSettings;

/** Where the peer listener binds, from the worker's own settings, row by row. */
class PeerBindingTest {

    @Test
    void theRestListenersHostWhenItHasOne() {
        assertThat(PeerBinding.host(Optional.empty(), "10.0.0.7", "workers.example")).isEqualTo("10.0.0.7");
    }

    @Test
    void theAdvertisedHostWhenTheRestListenerListensOnEveryInterface() {
        assertThat(PeerBinding.host(Optional.empty(), null, "10.0.0.7")).isEqualTo("10.0.0.7");
        assertThat(PeerBinding.host(Optional.empty(), "0.0.0.0", "10.0.0.7")).isEqualTo("10.0.0.7");
        assertThat(PeerBinding.host(Optional.empty(), "[::]", "10.0.0.7")).isEqualTo("10.0.0.7");
    }

    @Test
    void theConfiguredAddressWinsAndOnlyItCanMeanEveryInterface() {
        assertThat(PeerBinding.host(Optional.of("10.1.1.1"), "10.0.0.7", "10.0.0.7")).isEqualTo("10.1.1.1");
        assertThat(PeerBinding.host(Optional.of("0.0.0.0"), "10.0.0.7", "10.0.0.7")).isNull();
        assertThat(PeerBinding.host(Optional.of("::"), null, "10.0.0.7")).isNull();
    }

    @Test
    void aWorkerWhoseRestApiListensOnEveryInterfaceGetsAPeerListenerOnItsAdvertisedHostOnly() {
        Map<String, Object> worker = new HashMap<>();
        worker.put("group.id", "connect-cluster");
        worker.put("listeners", "http://:8083");
        worker.put("rest.advertised.host.name", "10.0.0.7");
        MonitorConfig config = new MonitorConfig(worker);
        WorkerSettings settings = WorkerSettings.from(worker, config);

        assertThat(PeerBinding.host(config.peerBindAddress(), settings.bindHost(), settings.self().host()))
                .isEqualTo("10.0.0.7");
    }
}
