package dev.quarantine.connect.rest;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.kafka.connect.rest.ConnectRestExtensionContext;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code /dead-letters} on a worker that cannot run the monitor ({@link MonitorRequirements}): every request answered
 * 501 with the reason, through the worker's own JAX-RS:
 *
 * <pre>
 * worker's REST API           | resource registered
 * ----------------------------+------------------------------------------
 * jakarta.ws.rs (Connect 4.x) | {@link UnavailableResource}
 * javax.ws.rs (Connect 3.x)   | {@link JavaxUnavailableResource}
 * </pre>
 * Each resource class is loaded only on its own kind of worker. Both are registered through Connect's public
 * {@code ConnectRestExtensionContext.configurable().register(Object)}, called reflectively on the method as the
 * worker declares it: this code is compiled against jakarta's {@code Configurable}, so a direct call would fail with
 * {@code NoSuchMethodError} on a worker whose {@code configurable()} returns javax's. No JAX-RS class is named here.
 */
public final class RefusalEndpoint {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RefusalEndpoint() {
    }

    /**
     * Registers the refusal's {@code /dead-letters}.
     *
     * @throws IllegalStateException when the worker's REST API would not take it, with the cause
     */
    static void register(ConnectRestExtensionContext context, boolean jakartaRest, String reason) {
        register(context, resource(jakartaRest, reason));
    }

    /** The resource answering 501 with {@code reason}, for a worker whose REST API is jakarta.ws.rs or javax.ws.rs. */
    static Object resource(boolean jakartaRest, String reason) {
        return jakartaRest ? new UnavailableResource(reason) : new JavaxUnavailableResource(reason);
    }

    /** The JSON body of the 501 answer: the same words as the ERROR line in the worker log. */
    public static String body(String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error_code", 501);
        body.put("message", "the dead-letter monitor " + reason);
        body.put("category", "UNSUPPORTED");
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write the refusal as JSON", e);
        }
    }

    private static void register(ConnectRestExtensionContext context, Object resource) {
        try {
            Method configurable = ConnectRestExtensionContext.class.getMethod("configurable");
            Object target = configurable.invoke(context);
            configurable.getReturnType().getMethod("register", Object.class).invoke(target, resource);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("the worker's REST API refused " + resource.getClass().getSimpleName(),
                    e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("the worker's REST API has no configurable().register(Object)", e);
        }
    }
}
