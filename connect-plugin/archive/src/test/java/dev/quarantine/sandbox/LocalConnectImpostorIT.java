package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.BuiltPlugin;

/**
 * A server of another test run can take a worker's free port between the moment it is picked and the moment the
 * worker binds it. The sandbox's readiness check must then fail, not hand the test a worker that is someone else's.
 * Lives here, not in the sandbox module, because a real worker needs the Connect classpath this module builds.
 */
class LocalConnectImpostorIT {

    @Test
    void aWorkerWhosePortAnotherProcessAnswersOnFailsToStartInsteadOfTestingTheImpostor() throws IOException {
        Path emptyPluginPath = Files.createTempDirectory("quarantine-no-plugins-");
        LocalKafka notStarted = LocalKafka.create(); // the worker is refused before it would reach a broker
        LocalConnect worker = LocalConnect.create(notStarted, emptyPluginPath,
                BuiltPlugin.workerClasspath());
        int port = URI.create(worker.restUrl()).getPort();
        HttpServer impostor = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        impostor.createContext("/", exchange -> {
            byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        impostor.start();
        try {
            assertThatThrownBy(worker::start)
                    .hasMessageContaining("does not listen on 127.0.0.1:" + port)
                    .hasMessageContaining("another process took the port");
        } finally {
            impostor.stop(0);
            worker.close();
            Files.deleteIfExists(emptyPluginPath);
        }
    }
}
