package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkerRestClientTest {

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aCallTheWorkerRefusesWhileItRebalancesIsSentAgainUntilItIsAnswered() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        WorkerRestClient client = worker(exchange -> {
            int call = calls.incrementAndGet();
            if (call <= 2) {
                // Connect 4.4 answers its RebalanceNeededException with 500, a rebalance in progress with 409
                RebalancingWorker.answer(exchange, call == 1 ? 500 : 409, RebalancingWorker.REBALANCE);
            } else {
                RebalancingWorker.answer(exchange, 200, "{\"connector.class\":\"x\"}");
            }
        });

        assertThat(client.connectorConfig("replay-1", Optional.empty())).contains(Map.of("connector.class", "x"));
        assertThat(calls).hasValue(3);
    }

    @Test
    void theConflictOfAConnectorThatExistsIsAnsweredAtOnce() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        WorkerRestClient client = worker(exchange -> {
            calls.incrementAndGet();
            RebalancingWorker.answer(exchange, 409,
                    "{\"error_code\":409,\"message\":\"Connector replay-1 already exists\"}");
        });

        assertThat(client.createConnector("replay-1", Map.of(), Optional.empty()).status()).isEqualTo(409);
        assertThat(calls).hasValue(1);
    }

    private WorkerRestClient worker(com.sun.net.httpserver.HttpHandler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", handler);
        server.start();
        return new WorkerRestClient("http://127.0.0.1:" + server.getAddress().getPort(), Duration.ofSeconds(5));
    }
}
