package dev.quarantine.connect.rest.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.ws.rs.NameBinding;

/**
 * Marks the monitor's resource classes: {@link RequestGuardFilter} runs for their requests only, so the worker's own
 * endpoints ({@code /connectors}, ...) and other extensions' stay as they are.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Guarded {
}
