package dev.quarantine.sandbox;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that hands a running {@link LocalKafka} to test constructors, {@code @BeforeAll} methods and
 * test methods. One broker is shared by every test class of the module (the test JVM) and closed when the run ends.
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

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LocalKafkaExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == LocalKafka.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return sharedBroker(extensionContext);
    }

    /** The broker of the test JVM, started on first use and closed when the run ends. */
    static LocalKafka sharedBroker(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent("broker", key -> new SharedBroker(LocalKafka.create().start()), SharedBroker.class)
                .kafka;
    }

    private record SharedBroker(LocalKafka kafka) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            kafka.close();
        }
    }
}
