package dev.quarantine.connect.rest;

import org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension;

/**
 * Kafka's BasicAuthSecurityRestExtension from connect-basic-auth-extension 4.3.1 (4.4.0 is not on Maven Central),
 * runnable on a 4.4.0 worker: its {@code version()} calls {@code org.apache.kafka.common.utils.AppInfoParser}, which
 * Kafka 4.4.0 moved to {@code ...utils.internals}, so the worker fails to start with it. Every other class it uses
 * exists in 4.4.0; authentication (its JAAS filter and PropertyFileLoginModule) is Kafka's own, untouched.
 * Registered for the test workers' classpath in src/test/resources/META-INF/services.
 */
public class BasicAuthOnKafka44 extends BasicAuthSecurityRestExtension {

    @Override
    public String version() {
        return "4.3.1";
    }
}
