package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.kafka.connect.health.ConnectClusterState;
import org.apache.kafka.connect.rest.ConnectRestExtensionContext;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import jakarta.ws.rs.core.Configurable;
import jakarta.ws.rs.core.Response;

/** The rows of {@link RefusalEndpoint}'s table, and its registration through the worker's declared API. */
class RefusalEndpointTest {

    private static final String REASON = "needs kafka-streams in the worker's classpath. Add it.";

    @Test
    void aJakartaWorkerGetsAJakartaResourceAnswering501WithTheReason() throws Exception {
        Object resource = RefusalEndpoint.resource(true, REASON);

        assertThat(resource).isInstanceOf(UnavailableResource.class);
        Response answer = ((UnavailableResource) resource).anyPath();
        assertThat(answer.getStatus()).isEqualTo(501);
        assertThat(answer.getEntity()).isEqualTo(RefusalEndpoint.body(REASON));
    }

    @Test
    void aJavaxWorkerGetsAResourceServedByJavaxWsRsOnly() {
        Class<?> resource = RefusalEndpoint.resource(false, REASON).getClass();

        assertThat(resource.getAnnotation(javax.ws.rs.Path.class).value()).isEqualTo("/dead-letters");
        assertThat(resource.getAnnotation(jakarta.ws.rs.Path.class)).isNull();
        List<Method> endpoints = Arrays.stream(resource.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(javax.ws.rs.GET.class)).toList();
        assertThat(endpoints).hasSize(2).allSatisfy(m -> {
            assertThat(m.getReturnType()).isEqualTo(javax.ws.rs.core.Response.class);
            assertThat(m.isAnnotationPresent(jakarta.ws.rs.GET.class)).isFalse();
        });
        assertThat(endpoints).extracting(m -> m.getAnnotation(javax.ws.rs.Path.class))
                .filteredOn(path -> path != null).extracting(javax.ws.rs.Path::value).containsExactly("/{any: .+}");
    }

    @Test
    void theAnswerBodyIsA501JsonErrorSayingTheReason() throws Exception {
        JsonNode body = new ObjectMapper().readTree(RefusalEndpoint.body(REASON));

        assertThat(body.path("error_code").asInt()).isEqualTo(501);
        assertThat(body.path("message").asText()).isEqualTo("the dead-letter monitor " + REASON);
        assertThat(body.path("category").asText()).isEqualTo("UNSUPPORTED");
    }

    @Test
    void registersTheResourceThroughTheConfigurableOfTheWorkersContext() {
        List<Object> registered = new ArrayList<>();

        RefusalEndpoint.register(context(registered::add), true, REASON);

        assertThat(registered).singleElement().isInstanceOf(UnavailableResource.class);
    }

    @Test
    void aRegistrationTheWorkerRefusesIsReportedWithItsCause() {
        IllegalArgumentException refused = new IllegalArgumentException("already registered");

        assertThatThrownBy(() -> RefusalEndpoint.register(context(resource -> {
            throw refused;
        }), true, REASON)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refused UnavailableResource").hasCause(refused);
    }

    private interface Registrar {
        void register(Object component);
    }

    /** A worker's context whose configurable() hands every register(Object) to {@code registrar}. */
    private static ConnectRestExtensionContext context(Registrar registrar) {
        Configurable<?> configurable = (Configurable<?>) Proxy.newProxyInstance(
                RefusalEndpointTest.class.getClassLoader(), new Class<?>[] {Configurable.class}, (proxy, method, args) -> {
                    assertThat(method.getName()).isEqualTo("register");
                    assertThat(method.getParameterTypes()).containsExactly(Object.class);
                    registrar.register(args[0]);
                    return proxy;
                });
        return new ConnectRestExtensionContext() {
            @Override
            public Configurable<? extends Configurable<?>> configurable() {
                return (Configurable) configurable;
            }

            @Override
            public ConnectClusterState clusterState() {
                throw new UnsupportedOperationException("not needed to refuse");
            }
        };
    }
}
