package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The peer listener's own behaviour: what it answers when an endpoint fails unexpectedly. */
class PeerServerTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void anEndpointFailingWithALinkageErrorIsAnswered500AndTheListenerKeepsAnswering() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1)) {
            server.serve((params, time, signature) -> {
                throw new NoSuchMethodError("KafkaStreams.close(CloseOptions)");
            });

            assertThat(get(server).statusCode()).isEqualTo(500);
            assertThat(get(server).statusCode()).as("a second request, on the listener's one thread").isEqualTo(500);
            server.serve((params, time, signature) -> new PeerServer.Answer(200, "signed", null, new byte[] {7}));
            assertThat(get(server).body()).containsExactly(7);
        }
    }

    @Test
    void anEndpointFailingWithARuntimeExceptionIsAnswered500() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1)) {
            server.serve((params, time, signature) -> {
                throw new IllegalStateException("unexpected");
            });

            assertThat(get(server).statusCode()).isEqualTo(500);
        }
    }

    private static HttpResponse<byte[]> get(PeerServer server) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + Peers.PARTIALS_FULL_PATH)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }
}
