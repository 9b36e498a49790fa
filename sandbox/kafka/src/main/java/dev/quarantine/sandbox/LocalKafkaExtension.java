package dev.quarantine.sandbox;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that hands a running {@link LocalKafka} to test constructors, {@code @BeforeAll} methods and
 * test methods. One broker is shared by every test class the test JVM runs: started on first use, closed when the JVM
 * exits ({@link ChildJvm}'s shutdown hook; the broker also exits by itself when this JVM goes). Not JUnit's root
 * context store: failsafe runs each test class of a forked JVM in a launch of its own, whose root store closes when the
 * class ends, so a broker kept there was started again for every class. Test classes sharing it name their topics,
 * groups and transactional ids apart (a random suffix), and leave no broker-wide setting changed.
 *
 * <pre>{@code
 * @ExtendWith(LocalKafkaExtension.class)
 * class MyIT {
 *     @Test
 *     void commits(LocalKafka kafka) { ... }
 * }
 * }</pre>
 */
public final class LocalKafkaExtension implements ParameterResolver {

    private static LocalKafka shared;

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == LocalKafka.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return sharedBroker();
    }

    /**
     * The broker of the test JVM, started on first use and closed when the JVM exits; started anew when its process
     * is gone (killed, out of memory), so one class's fault does not fail every class after it.
     */
    static synchronized LocalKafka sharedBroker() {
        if (shared != null && !shared.isRunning()) {
            shared.close();
            shared = null;
        }
        if (shared == null) {
            shared = LocalKafka.create().start();
        }
        return shared;
    }
}
