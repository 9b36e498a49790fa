package dev.quarantine.sandbox;

import java.time.Duration;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension: a broker of the test class's own behind a {@link HoldingProxy} (every client reaches it through
 * the proxy), with an admin client, started before the class's first test and closed after its last; whatever a test
 * left held is released after it.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ProxiedBroker cluster = new ProxiedBroker();
 *
 * @Test
 * void commitTimesOut() { cluster.proxy().hold(ApiKeys.END_TXN); ... cluster.kafka().bootstrapServers() ... }
 * }</pre>
 */
public final class ProxiedBroker implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    private HoldingProxy proxy;
    private LocalKafka kafka;
    private Admin admin;

    public HoldingProxy proxy() {
        return proxy;
    }

    public LocalKafka kafka() {
        return kafka;
    }

    /** An admin client of the broker, through the proxy; closed with it. */
    public Admin admin() {
        return admin;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        proxy = HoldingProxy.listen();
        kafka = proxy.startBroker();
        admin = kafka.admin();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        proxy.release();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            admin.close(Duration.ofSeconds(5));
        } finally {
            try {
                kafka.close();
            } finally {
                proxy.close();
            }
        }
    }
}
